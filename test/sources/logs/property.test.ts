/**
 * Properties of the log reader: any log a description accepts becomes decisions whose counts per
 * cell (decisions, cooperations, matches) equal a direct count of what was written; and any input
 * bytes end in decisions or a UserError, never a crash.
 */
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisionsTable } from '../../../src/core/decisions.js';
import { UserError } from '../../../src/core/errors.js';
import { BUILTIN_LOG_FORMATS, parseLogFormat, readLogDecisions, type LogFormat } from '../../../src/sources/logs/index.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-logs-prop-'));
let n = 0;
const write = (text: string | Uint8Array, ext = 'csv') => { const p = join(dir, `f${n++}.${ext}`); writeFileSync(p, text); return p; };

type A = 'C' | 'D';
interface Match { p1: string; p2: string; game: string; framing: string; moves: Array<[A, A]> }
interface Case {
  shape: 'decision' | 'round' | 'match';
  delimiter: ',' | ';' | '\t';
  byPayoffs: boolean;
  consecutive: boolean;
  labels: Record<string, [string, string]>;
  matrix: Record<A, Record<A, [number, number]>>;
  matches: Match[];
}

const GAMES = ['g1', 'g2'];
const label = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,4}[A-Za-z0-9]$/);
const move = fc.constantFrom<A>('C', 'D');
const labelPair = () => fc.uniqueArray(label, { minLength: 2, maxLength: 2 }) as fc.Arbitrary<string[]> as fc.Arbitrary<[string, string]>;
const caseArb: fc.Arbitrary<Case> = fc.record({
  shape: fc.constantFrom('decision', 'round', 'match'),
  delimiter: fc.constantFrom(',', ';', '\t'),
  byPayoffs: fc.boolean(),
  consecutive: fc.boolean(),
  labels: fc.record({ g1: labelPair(), g2: labelPair() }),
  matrix: fc.uniqueArray(fc.tuple(fc.integer({ min: -5, max: 9 }), fc.integer({ min: -5, max: 9 })), { minLength: 4, maxLength: 4, selector: (t) => t.join('/') })
    .map(([cc, cd, dc, dd]) => ({ C: { C: cc, D: cd }, D: { C: dc, D: dd } })),
  matches: fc.array(fc.record({
    p1: fc.constantFrom('A', 'B', 'C'), p2: fc.constantFrom('A', 'B', 'X'),
    game: fc.constantFrom(...GAMES), framing: fc.constantFrom('f1', 'f2'),
    moves: fc.array(fc.tuple(move, move), { minLength: 1, maxLength: 4 }),
  }), { minLength: 1, maxLength: 8 }),
});

/** The description of a case: its shape, delimiter, match rule and action rule. */
function describeCase(c: Case): LogFormat {
  const actions: LogFormat['actions'] = c.byPayoffs ? { payoffs: c.matrix, consistent_labels: false }
    : { labels: Object.fromEntries(GAMES.map((g) => [g, { [c.labels[g][0]]: 'C', [c.labels[g][1]]: 'D' }])) };
  const common = { name: 'generated', delimiter: c.delimiter, game: { column: 'game' }, framing: { column: 'framing' }, actions };
  if (c.shape === 'decision') {
    return { ...common, shape: 'decision', columns: ['mid', 'round', 'seat', 'me', 'them', 'act', 'mine', 'theirs', 'game', 'framing'],
      match: { column: 'mid' }, round: { column: 'round' },
      seats: [{ model: { column: 'me' }, opponent: { column: 'them' }, seat: { column: 'seat' }, action: 'act', payoff: 'mine', opponent_payoff: 'theirs' }] };
  }
  const seats = (k: 1 | 2) => ({ model: { column: `p${k}` }, opponent: { column: `p${3 - k}` }, action: `a${k}`, payoff: `x${k}` });
  if (c.shape === 'match') return { ...common, shape: 'match', columns: ['game', 'framing', 'p1', 'p2', 'a1', 'a2', 'x1', 'x2'], match: 'row', seats: [seats(1), seats(2)] };
  return { ...common, shape: 'round', columns: ['mid', 'round', 'p1', 'p2', 'a1', 'a2', 'x1', 'x2', 'game', 'framing'],
    match: c.consecutive ? 'consecutive' : { column: 'mid' }, round: { column: 'round' }, seats: [seats(1), seats(2)] };
}

/** The log text of a case (fields quoted as CSV allows; list columns as Python reprs). */
function logText(c: Case): string {
  const cell = (v: string) => (/[",;\t\n']/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const line = (fields: Array<string | number>) => fields.map((f) => cell(String(f))).join(c.delimiter);
  const lab = (m: Match, a: A) => c.labels[m.game][a === 'C' ? 0 : 1];
  const pay = (a: A, b: A) => c.matrix[a][b];
  const rows: string[] = [line(describeCase(c).columns)];
  c.matches.forEach((m, i) => {
    if (c.shape === 'match') {
      const list = (xs: Array<string | number>) => `[${xs.map((x) => (typeof x === 'number' ? String(x) : `'${x}'`)).join(', ')}]`;
      rows.push(line([m.game, m.framing, m.p1, m.p2, list(m.moves.map(([a]) => lab(m, a))), list(m.moves.map(([, b]) => lab(m, b))),
        list(m.moves.map(([a, b]) => pay(a, b)[0])), list(m.moves.map(([a, b]) => pay(a, b)[1]))]));
      return;
    }
    m.moves.forEach(([a, b], r) => {
      if (c.shape === 'round') rows.push(line([`m${i}`, r + 1, m.p1, m.p2, lab(m, a), lab(m, b), ...pay(a, b), m.game, m.framing]));
      else {
        rows.push(line([`m${i}`, r + 1, 1, m.p1, m.p2, lab(m, a), ...pay(a, b), m.game, m.framing]));
        rows.push(line([`m${i}`, r + 1, 2, m.p2, m.p1, lab(m, b), pay(a, b)[1], pay(a, b)[0], m.game, m.framing]));
      }
    });
  });
  return `${rows.join('\n')}\n`;
}

/** Decisions, cooperations and matches per (model, game, framing, opponent), counted from the case itself. */
function directCount(c: Case): Map<string, { n: number; c: number; matches: Set<number> }> {
  const out = new Map<string, { n: number; c: number; matches: Set<number> }>();
  const add = (model: string, m: Match, opp: string, a: A, i: number) => {
    const k = JSON.stringify([model, m.game, m.framing, opp === model ? 'self' : opp]); // the table's self-play level
    const e = out.get(k) ?? { n: 0, c: 0, matches: new Set<number>() };
    e.n++; e.c += a === 'C' ? 1 : 0; e.matches.add(i);
    out.set(k, e);
  };
  c.matches.forEach((m, i) => m.moves.forEach(([a, b]) => { add(m.p1, m, m.p2, a, i); add(m.p2, m, m.p1, b, i); }));
  return out;
}

describe('log reader properties', () => {
  it('any log a description accepts: counts per cell equal a direct count', () => {
    fc.assert(fc.property(caseArb, (c) => {
      const dec = readLogDecisions([write(logText(c))], describeCase(c), { shortMatches: 'keep' });
      const table = decisionsTable(dec.decisions);
      const got = new Map(table.cells.map((cell) => {
        const o = cell.obs as { sizes: Float64Array; sums: Float64Array };
        return [JSON.stringify([cell.key.model, cell.key.game, cell.key.framing, cell.key.opponent]),
          { n: o.sizes.reduce((s, x) => s + x, 0), c: o.sums.reduce((s, x) => s + x, 0), matches: o.sizes.length }];
      }));
      const want = new Map([...directCount(c)].map(([k, v]) => [k, { n: v.n, c: v.c, matches: v.matches.size }]));
      expect(got).toEqual(want);
      // Every decision's opponent move is the other seat's move of the same round.
      for (const d of dec.decisions) expect(d.opponentAction).not.toBeNull();
    }), { numRuns: 150 });
  });

  it('any description text ends in a format or a UserError, never a crash', () => {
    const yamlish = fc.array(fc.oneof(fc.constantFrom('name: x', 'shape: round', 'shape: match', 'match: row', 'match: consecutive', 'columns: [a, b]',
      'round: { column: a }', 'game: { template: "{a" }', 'seats: []', 'actions: { payoffs: {} }', '&a [*a, *a]', '- x', ': :', '"'), fc.string({ maxLength: 30 })), { maxLength: 8 })
      .map((l) => l.join('\n'));
    fc.assert(fc.property(yamlish, (text) => {
      try { parseLogFormat(text, 'x.yaml'); } catch (e) { if (!(e instanceof UserError)) throw e; }
    }), { numRuns: 300 });
  });

  const formats: Array<[string, string | LogFormat]> = [['akata', 'akata'], ['fairgame', 'fairgame']];
  const headerThen = (f: LogFormat) => fc.array(fc.string({ maxLength: 60 }), { maxLength: 6 })
    .map((lines) => `${f.columns.join(f.delimiter ?? ',')}\n${lines.join('\n')}`);
  it.each(formats)('%s: arbitrary bytes end in decisions or a UserError, never a crash', (_name, format) => {
    const f = BUILTIN_LOG_FORMATS[format as 'akata' | 'fairgame'];
    const input = fc.oneof(fc.uint8Array({ maxLength: 300 }), headerThen(f), fc.string({ maxLength: 200 }));
    fc.assert(fc.property(input, (bytes) => {
      try {
        readLogDecisions([write(bytes)], format);
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        expect(e.message.split('\n')).toHaveLength(1);
      }
    }), { numRuns: 300 });
  });
});
