import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clusterColumnsDrawer, uniformIndex } from '../../src/stats/cluster-columns.js';
import { redrawCell } from '../../src/stats/bootstrap.js';
import { streamFor } from '../../src/stats/rng.js';

/** The plain definition: draw m cluster indices, add every column's sums and sizes one by one. */
function naive(sizes: Float64Array[], sums: Float64Array[], seed: number, reps: number): Float64Array {
  const rng = streamFor(seed, 'cell');
  const m = sizes[0].length, w = sizes.length;
  const out = new Float64Array(reps * w);
  for (let r = 0; r < reps; r++) {
    const drawn = Array.from({ length: m }, () => uniformIndex(rng, m));
    for (let c = 0; c < w; c++) {
      let s = 0, n = 0;
      for (const j of drawn) { s += sums[c][j]; n += sizes[c][j]; }
      out[r * w + c] = s / n;
    }
  }
  return out;
}

const column = (m: number) => fc.oneof(
  fc.array(fc.integer({ min: 0, max: 3 }), { minLength: m, maxLength: m }),
  fc.array(fc.integer({ min: 0, max: 40 }), { minLength: m, maxLength: m }),
  fc.array(fc.double({ min: 0, max: 5, noNaN: true }), { minLength: m, maxLength: m }),
  fc.constant(new Array<number>(m).fill(2)),
);

describe('joint redraw of cluster columns', () => {
  it('packed totals equal adding the drawn clusters one by one, bit for bit (any mix of integer, constant and fractional columns)', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 30 }).chain((m) => fc.tuple(fc.constant(m), fc.array(fc.tuple(column(m), column(m)), { minLength: 1, maxLength: 12 }))),
      fc.integer({ min: 0, max: 1000 }), ([m, cols], seed) => {
        const sizes = cols.map(([a]) => Float64Array.from(a));
        const sums = cols.map(([, b]) => Float64Array.from(b));
        const reps = 7;
        const out = new Float64Array(reps * cols.length);
        clusterColumnsDrawer({ sizes, sums }, streamFor(seed, 'cell'))(reps, out, 0, cols.length);
        expect(Array.from(out)).toEqual(Array.from(naive(sizes, sums, seed, reps)));
      }), { numRuns: 200 });
  });

  it('a one-column set is the clustered cell redraw of the cell table', () => {
    const sizes = Float64Array.from([3, 1, 4, 1, 5]), sums = Float64Array.from([2, 0, 4, 1, 0]);
    const a = new Float64Array(50), b = new Float64Array(50);
    redrawCell({ kind: 'clustered', sizes, sums }, 9, 'k', 50, a, 0, 1);
    clusterColumnsDrawer({ sizes: [sizes], sums: [sums] }, streamFor(9, 'k'))(50, b, 0, 1);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('drawn in blocks, across refills of the word buffer and rejected words, the one-lane and general redraws equal the plain definition', () => {
    // m = 1,000,003 rejects a word with probability (2^32 mod m) / 2^32 ≈ 1/4,500: two replicates of m indices meet ~440 rejections and ~490 refills.
    const big = 1_000_003;
    const cases: [number, number, Float64Array[], Float64Array[]][] = [
      [big, 2, [new Float64Array(big).fill(1)], [Float64Array.from({ length: big }, (_, j) => j % 3 === 0 ? 1 : 0)]],
      [57, 300, [Float64Array.from({ length: 57 }, (_, j) => 1 + (j % 4))], [Float64Array.from({ length: 57 }, (_, j) => j % 2)]],
      [57, 300, [Float64Array.from({ length: 57 }, (_, j) => 0.5 + (j % 4))], [Float64Array.from({ length: 57 }, (_, j) => (j % 5) / 3)]],
    ];
    for (const [, reps, sizes, sums] of cases) {
      const out = new Float64Array(reps);
      const draw = clusterColumnsDrawer({ sizes, sums }, streamFor(5, 'cell'));
      for (let r = 0; r < reps; r += 7) draw(Math.min(7, reps - r), out.subarray(r), 0, 1);
      expect(Array.from(out)).toEqual(Array.from(naive(sizes, sums, 5, reps)));
    }
  });

  it('uniformIndex is uniform: 60,000 draws over 6 values within 4 standard errors of 10,000 each', () => {
    const rng = streamFor(3, 'u');
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[uniformIndex(rng, 6)]++;
    const se = Math.sqrt(60_000 * (1 / 6) * (5 / 6));
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(4 * se);
  });
});
