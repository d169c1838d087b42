/**
 * What `export` writes, `--trials` reads (docs/guides/audit-secondary-data.md, "Per-trial files": "exported from your own
 * runs"): an export of any store, CSV or JSONL, sample- or logprob-scored, with invalid and
 * failed trials, is accepted and gives the cells `analyze` reads from the store itself.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeTrials, type ExportFormat } from '../../src/commands/export.js';
import { exportTrials } from '../../src/commands/export-store.js';
import { TrialStore } from '../../src/live/store/store.js';
import { readTrials } from '../../src/sources/trials.js';
import { chooseOneShotRun, storeTable } from '../../src/sources/store.js';
import { UserError } from '../../src/core/errors.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-export-trials-'));
let seq = 0;

async function exported(store: string, format: Exclude<ExportFormat, 'parquet'>, runId?: number): Promise<string> {
  const s = TrialStore.openExisting(store);
  let text = '';
  try { await writeTrials(s, format, async (c) => { text += c; }, runId); } finally { s.close(); }
  const path = join(dir, `export${seq++}.${format}`);
  writeFileSync(path, text);
  return path;
}

/** The store's own cell table, as analyze reads it: key → observations. */
function storeCells(path: string): Map<string, unknown> {
  const s = TrialStore.openExisting(path);
  try {
    const t = storeTable(s, chooseOneShotRun(s, path)).table;
    return new Map(t.cells.map((c) => [JSON.stringify(c.key), c.obs]));
  } finally { s.close(); }
}

const SAMPLE: CellSpec[] = [
  { model: 'A', game: 'G', framing: 'business', actions: [...counts(3, 10), null, null] },
  { model: 'A', game: 'G', framing: 'friend-sharing', actions: counts(6, 10) },
  { model: 'B', game: 'G', framing: 'business', actions: counts(8, 12) },
  { model: 'B', game: 'G', framing: 'friend-sharing', actions: [null, ...counts(2, 9)] },
];
const LOGPROB: CellSpec[] = [
  { model: 'A', game: 'G', framing: 'business', probs: [0.1, 0.5, 0.7, 0.25] },
  { model: 'A', game: 'G', framing: 'friend-sharing', probs: [0.3, 0.9, 0.95] },
];

// A design that lists its models and games out of alphabetical order: analyze lists cells in the design's order.
const ORDERED = { name: 'ordered', models: [{ id: 'B' }, { id: 'A' }], games: ['stag-hunt', 'prisoners-dilemma'], framings: ['friend-sharing', 'business'] };
const IN_DESIGN: CellSpec[] = ['A', 'B'].flatMap((model, i) => ['prisoners-dilemma', 'stag-hunt'].flatMap((game, j) => ['business', 'friend-sharing'].map((framing, k) =>
  ({ model, game, framing, actions: counts(2 + i + 2 * j + k, 8) }))));

describe('export → --trials', () => {
  it.each([['sample-scored', SAMPLE, { name: 'x' }], ['logprob-scored', LOGPROB, { name: 'x' }], ['design-ordered', IN_DESIGN, ORDERED]] as const)('a %s store: reproduce --trials gives the Table 2 analyze gives', async (_n, cells, design) => {
    const store = join(dir, `s${seq++}.sqlite`);
    writeStore(store, design, [...cells]);
    const a = join(dir, `a${seq++}`);
    expect((await runCli(['analyze', store, '--out', a, '--reps', '200', '-q'])).code).toBe(0);
    const want = readFileSync(join(a, 'reports', 'table2.csv'), 'utf8');
    for (const format of ['csv', 'jsonl'] as const) {
      // written with its sidecar, which records the design's order (without one the cells are sorted)
      const file = join(dir, `export${seq++}.${format}`);
      await exportTrials({ store, format, out: file });
      const out = join(dir, `r${seq++}`);
      const r = await runCli(['reproduce', '--trials', file, '--out', out, '--reps', '200', '-q']);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(join(out, 'reports', 'table2.csv'), 'utf8'), format).toBe(want);
    }
  }, 60_000);

  it('an export of several runs is refused: analyze reads one run', async () => {
    const store = join(dir, `m${seq++}.sqlite`);
    writeStore(store, { name: 'one' }, SAMPLE);
    writeStore(store, { name: 'two' }, SAMPLE);
    const file = await exported(store, 'csv');
    expect(() => readTrials(file, { displayPath: 'FILE' })).toThrow(/^FILE:\d+: field "run": the file holds run 1 and run 2: export one run/);
    expect(readTrials(await exported(store, 'csv', 2)).trials).toBe(SAMPLE.reduce((s, c) => s + c.actions!.filter((x) => x !== null).length, 0));
  });

  it('a status that is not a stored status is refused', async () => {
    const store = join(dir, `st${seq++}.sqlite`);
    writeStore(store, { name: 'x' }, SAMPLE);
    const file = await exported(store, 'csv');
    const text = readFileSync(file, 'utf8').replace(',ok,', ',maybe,');
    writeFileSync(file, text);
    expect(() => readTrials(file, { displayPath: 'FILE' })).toThrow('FILE:2: field "status": "maybe" is not a trial status ("ok", "invalid", "error")');
  });

  it('any store, either format: the cells of the export are the cells of the store (property)', async () => {
    const cell = fc.record({
      model: fc.constantFrom('A', 'B'), game: fc.constantFrom('G', 'H'), logprobs: fc.boolean(),
      trials: fc.array(fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }), { minLength: 1, maxLength: 6 }),
    });
    await fc.assert(fc.asyncProperty(fc.uniqueArray(cell, { minLength: 1, maxLength: 4, selector: (c) => `${c.model}/${c.game}` }), fc.constantFrom<Exclude<ExportFormat, 'parquet'>>('csv', 'jsonl'), async (cs, format) => {
      const specs: CellSpec[] = cs.flatMap((c) => ['business', 'friend-sharing'].map((framing) => (c.logprobs && c.trials.every((t) => t !== null)
        ? { model: c.model, game: c.game, framing, probs: c.trials as number[] }
        : { model: c.model, game: c.game, framing, actions: c.trials.map((t) => (t === null ? null : t >= 0.5 ? 'C' as const : 'D' as const)) })));
      const store = join(dir, `p${seq++}.sqlite`);
      writeStore(store, { name: 'x' }, specs);
      const want = storeCells(store);
      const file = await exported(store, format);
      try {
        const got = readTrials(file).table.cells;
        expect(new Map(got.map((c) => [JSON.stringify(c.key), c.obs]))).toEqual(want);
      } catch (e) {
        // Refused only when a model–game lacks a valid trial in a planned framing, as analyze refuses it.
        expect(e).toBeInstanceOf(UserError);
        expect((e as Error).message).toMatch(/has no "(business|friend-sharing)" row|no data rows/);
        expect([...want.keys()].length).toBeLessThan(specs.length);
      }
    }), { numRuns: 40 });
  }, 60_000);
});
