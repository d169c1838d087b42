import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, exportTrials, reproduce } from '../../src/index.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';

/**
 * A one-shot store exported as Parquet (`export --format parquet`) and read back (`reproduce --trials DIR`, or a glob of its
 * files) gives table3.csv and table2.csv byte-identical to `analyze STORE` on the same settings: the cells in the design's
 * order (which is not sorted here: Zed before Alpha, stag-hunt before prisoners-dilemma), invalid trials kept for the bounds,
 * per-trial probabilities read at full precision, the synthetic label and the design's names restored by the sidecar.
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-parquet-back-'));
const store = join(dir, 'sim.sqlite');
const design = {
  name: 'sim', synthetic: true, names: { Zed: 'Zed Model' },
  models: [{ id: 'Zed', provider: 'simulated' }, { id: 'Alpha', provider: 'simulated' }],
  games: ['stag-hunt', 'prisoners-dilemma'],
  framings: [{ id: 'strangers', labels: ['Help', 'Keep'], template: 'Strangers: {payoffs} {C} or {D}?' },
    { id: 'neighbours', labels: ['Help', 'Keep'], template: 'Neighbours: {payoffs} {C} or {D}?' }],
};
// x cooperations of 20 valid trials per cell, then `invalid` invalid trials; Alpha's stag hunt is scored by probabilities.
const X: Record<string, [number, number, number]> = {
  'Zed/stag-hunt': [15, 9, 2], 'Zed/prisoners-dilemma': [4, 8, 0], 'Alpha/prisoners-dilemma': [6, 11, 3],
};
const probs = (k: number) => Array.from({ length: 20 }, (_, i) => ((i * 7 + k) % 20) / 19 + (i % 3 === 0 ? 0 : 1e-17) - (i === 5 ? 0.1 + 0.2 - 0.3 : 0))
  .map((p) => Math.min(1, Math.max(0, p)));
const cells: CellSpec[] = [
  ...Object.entries(X).flatMap(([k, [b, a, bad]]) => {
    const [model, game] = k.split('/');
    return [{ model, game, framing: 'strangers', actions: [...counts(b, 20), ...Array<null>(bad).fill(null)] },
      { model, game, framing: 'neighbours', actions: [...counts(a, 20), ...Array<null>(bad).fill(null)] }];
  }),
  { model: 'Alpha', game: 'stag-hunt', framing: 'strangers', probs: probs(1) }, { model: 'Alpha', game: 'stag-hunt', framing: 'neighbours', probs: probs(4) },
];
const settings = { reps: 200, seed: 11, interval: 'percentile' as const, figures: false };
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');
const TABLES = ['table3.csv', 'table2.csv'];

beforeAll(async () => {
  writeStore(store, design, cells);
  const logger = new MemoryLogger();
  await analyze({ store, out: join(dir, 'a'), ...settings, logger });
  await exportTrials({ store, format: 'parquet', out: join(dir, 'pq') });
  await reproduce({ trials: join(dir, 'pq'), out: join(dir, 'r'), ...settings, logger });
  await reproduce({ trials: join(dir, 'pq', '*', '*', '*', '*.parquet'), out: join(dir, 'g'), ...settings, logger });
  // The same files without their sidecar: the cells sorted (no design to order them); the design's pair named.
  cpSync(join(dir, 'pq'), join(dir, 'bare'), { recursive: true });
  await reproduce({ trials: join(dir, 'bare'), out: join(dir, 'b'), ...settings, base: 'strangers', alt: 'neighbours', logger });
}, 180_000);

describe('export --format parquet read back', () => {
  it.each(TABLES)('%s: byte-identical from the store and from its Parquet export (the folder, and a glob of its files)', (f) => {
    const a = read('a', 'reports', f);
    expect(a.split('\n').length).toBeGreaterThan(3);
    expect(read('r', 'reports', f)).toBe(a);
    expect(read('g', 'reports', f)).toBe(a);
  });

  it('export --format parquet makes the folders above DIR as a file\'s export does', async () => {
    const out = join(dir, 'new', 'deeper', 'pq');
    expect((await exportTrials({ store, format: 'parquet', out })).trials).toBe(cells.reduce((s, c) => s + (c.actions ?? c.probs ?? []).length, 0));
    expect(existsSync(join(out, 'model=Zed', 'game=stag-hunt', 'framing=strangers'))).toBe(true);
    expect(existsSync(`${out}.provenance.json`)).toBe(true);
  });

  it('keeps the design order (Zed before Alpha) and the synthetic label and names of the sidecar', () => {
    const rows = read('r', 'reports', 'table3.csv').trim().split('\n');
    expect(rows[0].split(',').at(-1)).toBe('synthetic');
    expect(rows.slice(1).every((r) => r.endsWith(',true'))).toBe(true);
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['Zed', 'Alpha', 'Pooled']);
    expect(rows[1]).toContain('Zed Model');
  });

  it('without the sidecar: the same numbers, the cells sorted, and not synthetic (the trials\' own column says false)', () => {
    const rows = read('b', 'reports', 'table3.csv').trim().split('\n');
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['Alpha', 'Zed', 'Pooled']);
    expect(rows[0].split(',').at(-1)).not.toBe('synthetic');
    // the columns of real data (model to shift_hi): the store's rows add the names and the synthetic label after them
    const width = rows[0].split(',').length;
    expect(rows[0]).toBe('model,R,R_lo,R_hi,shift,shift_lo,shift_hi');
    const numbers = (t: string) => new Map(t.trim().split('\n').slice(1).map((r) => [r.split(',')[0], r.split(',').slice(1, width).join(',')]));
    expect(numbers(read('b', 'reports', 'table3.csv'))).toEqual(numbers(read('a', 'reports', 'table3.csv')));
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
