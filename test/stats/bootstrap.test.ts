import { describe, expect, it } from 'vitest';
import { bootstrap, type Estimand } from '../../src/stats/bootstrap.js';
import type { Observations } from '../../src/core/cells.js';

const identity = (k: number): Estimand => ({
  names: Array.from({ length: k }, (_, i) => `cell${i}`),
  evaluate(rates, out) { for (let i = 0; i < k; i++) out[i] = rates[i]; },
});
const bin = (n: number, x: number): Observations => ({ kind: 'binary', n, x });

describe('bootstrap engine', () => {
  it('is deterministic for a seed', () => {
    const cells = [{ id: 'a', obs: bin(100, 30) }];
    const r1 = bootstrap(cells, identity(1), { seed: 3, reps: 500 });
    const r2 = bootstrap(cells, identity(1), { seed: 3, reps: 500 });
    expect([...r1.replicates]).toEqual([...r2.replicates]);
  });
  it("a cell's draws depend only on (seed, cell key): adding or reordering cells changes nothing", () => {
    const a = { id: 'model=A|game=G|framing=b', obs: bin(300, 26) };
    const b = { id: 'model=A|game=G|framing=s', obs: bin(300, 97) };
    const alone = bootstrap([a], identity(1), { seed: 9, reps: 1000 });
    const both = bootstrap([b, a], identity(2), { seed: 9, reps: 1000 });
    expect([...both.replicates.subarray(1000, 2000)]).toEqual([...alone.replicates]);
  });
  it('degenerate cells (0/n, n/n) cannot vary: the interval collapses to the point', () => {
    const r = bootstrap([{ id: 'z', obs: bin(300, 0) }, { id: 'o', obs: bin(300, 300) }], identity(2), { seed: 1, reps: 200 });
    expect(r.get('cell0')).toEqual({ point: 0, lo: 0, hi: 0 });
    expect(r.get('cell1')).toEqual({ point: 1, lo: 1, hi: 1 });
  });
  it('a binary cell interval matches the normal approximation for large n (hand: 0.3 ± 1.96·√(0.21/1000))', () => {
    const r = bootstrap([{ id: 'c', obs: bin(1000, 300) }], identity(1), { seed: 2, reps: 20_000 });
    const half = 1.96 * Math.sqrt(0.21 / 1000); // 0.0284
    expect(r.get('cell0').lo).toBeCloseTo(0.3 - half, 2);
    expect(r.get('cell0').hi).toBeCloseTo(0.3 + half, 2);
  });
  it('resamples a probability cell with replacement: mean of the replicate means is the cell mean', () => {
    const values = Float64Array.from([0.1, 0.9, 0.5, 0.5]);
    const r = bootstrap([{ id: 'p', obs: { kind: 'prob', values } }], identity(1), { seed: 4, reps: 20_000 });
    const reps = r.replicates;
    const m = reps.reduce((s, x) => s + x, 0) / reps.length;
    expect(m).toBeCloseTo(0.5, 2);
    // Every replicate is a mean of 4 values drawn from the set: a multiple of 0.1/4 = 0.025
    for (const x of reps.subarray(0, 100)) expect(Math.abs(x * 40 - Math.round(x * 40))).toBeLessThan(1e-9);
  });
  it('an empty cell (n = 0) gives NaN statistics, not a crash', () => {
    const r = bootstrap([{ id: 'e', obs: bin(0, 0) }], identity(1), { seed: 1, reps: 10 });
    expect(r.get('cell0').point).toBeNaN();
  });
  it('rejects reps < 1', () => {
    expect(() => bootstrap([], identity(0), { seed: 1, reps: 0 })).toThrow(RangeError);
  });
});
