import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readTrials } from '../../src/sources/trials.js';
import { readLogTrials } from '../../src/sources/logs/table.js';
import { twoFraming } from '../../src/analyses/two-framing/index.js';
import { silentLogger } from '../../src/core/logger.js';

/**
 * The order of a file's rows changes no table (docs/methods.md §26: a per-trial file or a log has no design, so its cells are
 * sorted; a cell's clusters by id, its probabilities sorted): the same rows in any order give the same cell table, cell for
 * cell, in sorted order, and the same Table 3 (same seed) — for a per-trial file (decisions, probabilities, clusters) and a
 * log read through a description (`reproduce --trials LOG --format`).
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-cell-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let seq = 0;
const write = (text: string, ext: string) => { const p = join(dir, `f${seq++}.${ext}`); writeFileSync(p, text); return p; };

const MODELS = ['m7', 'm5', 'Zed', 'alpha', 'm10'];
const GAMES = ['stag-hunt', 'prisoners-dilemma', 'chicken'];
const FRAMINGS = ['business', 'friend-sharing'];
const settings = { seed: 3, reps: 60, attenuation: 1, base: 'business', alt: 'friend-sharing', interval: 'percentile' as const };
const sorted = (xs: readonly string[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
/** Every statistic's point and interval (the bootstrap of Table 3), same seed. */
const table3 = (table: Parameters<typeof twoFraming.analyze>[0]) => JSON.stringify(twoFraming.analyze(table, settings, silentLogger).boot,
  (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array, String) : typeof v === 'number' ? String(v) : v));

/** Model–game pairs, each with both framings and a few rows per framing: [model, game, framing, value, cluster]. */
const rowsOf = fc.uniqueArray(fc.record({ model: fc.constantFrom(...MODELS), game: fc.constantFrom(...GAMES) }), { minLength: 1, maxLength: 5,
  selector: (c) => `${c.model}/${c.game}` }).chain((pairs) => fc.tuple(...pairs.flatMap((p) => FRAMINGS.map((framing) =>
  fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom('c1', 'c2', 'c10', 'c3')), { minLength: 4, maxLength: 8 })
    .map((vs) => vs.map(([v, cl], i) => [p.model, p.game, framing, v, i < 2 ? `c${i + 1}` : cl] as const))))).map((cells) => cells.flat()));

describe('the order of the rows changes no table', () => {
  it.each(['action', 'p_cooperate', 'cluster'] as const)('a per-trial file (%s): shuffled rows, the same cells, sorted', (kind) => {
    fc.assert(fc.property(rowsOf.chain((rows) => fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length }))), ([rows, shuffled]) => {
      const csv = (rs: typeof rows) => `model,game,framing,${kind === 'p_cooperate' ? 'p_cooperate' : 'action'}${kind === 'cluster' ? ',cluster' : ''}\n` +
        rs.map(([m, g, f, v, c]) => `${m},${g},${f},${kind === 'p_cooperate' ? v : v < 0.5 ? 'D' : 'C'}${kind === 'cluster' ? `,${c}` : ''}`).join('\n');
      const [a, b] = [readTrials(write(csv(rows), 'csv')), readTrials(write(csv(shuffled), 'csv'))];
      expect(b.table).toEqual(a.table);
      const keys = a.table.cells.map((c) => `${c.key.model}\u0000${c.key.game}\u0000${c.key.framing}`);
      expect(keys).toEqual(sorted(keys));
      expect(table3(b.table)).toBe(table3(a.table));
    }), { numRuns: 25 });
  });

  it('a log read through a description: shuffled rows, the same cells and matches, sorted', () => {
    const format = join(__dirname, '..', '..', 'data', 'log-formats', 'samegame-export.yaml');
    const header = 'run,design,model,game,framing,rep,match,round,seat,opponent,opponent_id,opponent_action,payoff,action,status';
    fc.assert(fc.property(rowsOf.chain((rows) => {
      // each row a self-play match of two rounds (ids 1…n, unsorted as text past 9), both seats
      const lines = rows.flatMap(([m, g, f, v], j) => [1, 2].flatMap((round) => [1, 2].map((seat) => {
        const [own, other] = [(v * (seat + round)) % 1 < 0.5 ? 'D' : 'C', (v * (3 - seat + round)) % 1 < 0.5 ? 'D' : 'C'];
        return `1,d,${m},${g},${f},${j},${j + 1},${round},${seat},self,${m},${other},,${own},ok`;
      })));
      return fc.tuple(fc.constant(lines), fc.shuffledSubarray(lines, { minLength: lines.length }));
    }), ([lines, shuffled]) => {
      const read = (ls: readonly string[]) => readLogTrials([write(`${header}\n${ls.join('\n')}\n`, 'csv')], { format }, 'business', 'friend-sharing');
      const [a, b] = [read(lines), read(shuffled)];
      expect(b.table).toEqual(a.table);
      const keys = a.table.cells.map((c) => `${c.key.model}\u0000${c.key.game}\u0000${c.key.framing}`);
      expect(keys).toEqual(sorted(keys));
      expect(table3(b.table)).toBe(table3(a.table));
    }), { numRuns: 25 });
  });
});
