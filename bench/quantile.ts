/**
 * Benchmark: quantiles of bootstrap replicates. (1) Selection: src/stats/quantile.ts's
 * selectInPlace (hand-written Floyd–Rivest on a Float64Array) beside d3-array's quickselect (the
 * same scheme through a comparator), selecting the 2.5 % order statistic of 10,000 replicates.
 * (2) Reading a quantile off a sorted sample: d3-array's quantileSorted (which quantile.ts now
 * wraps) beside the hand-written function it replaced. Rounds alternate the two sides; each side
 * is reported by its median round.
 */
import { quickselect, quantileSorted as d3QuantileSorted } from 'd3-array';
import { performance } from 'node:perf_hooks';
import { selectInPlace } from '../src/stats/quantile.js';
import { streamFor } from '../src/stats/rng.js';
import { median, type BenchRow } from './util.js';

/** The hand-written R-7 quantile of a sorted sample that d3-array's quantileSorted replaced. */
function handQuantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  if (n === 1) return sorted[0];
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  if (lo >= n - 1) return sorted[n - 1];
  const a = sorted[lo], b = sorted[lo + 1];
  return a + (h - lo) * (b - a);
}

function time(f: () => void, reps: number): number {
  const t = performance.now();
  for (let i = 0; i < reps; i++) f();
  return (performance.now() - t) / reps;
}

export function benchQuantile(rounds = 15): BenchRow[] {
  const n = 10_000, k = Math.floor((n - 1) * 0.025);
  const rng = streamFor(1, 'quantile-bench');
  // Lattice-valued like bootstrap replicates: a mean of 12 binomial-like rates (many ties).
  const data = Float64Array.from({ length: n }, () => { let s = 0; for (let j = 0; j < 12; j++) s += Math.floor(rng.next() * 300) / 300; return s / 12; });
  const work = new Float64Array(n);
  const sorted = Float64Array.from(data).sort();
  const qs = Array.from({ length: 1000 }, (_, i) => i / 999);
  const ours: number[] = [], d3: number[] = [], d3q: number[] = [], handq: number[] = [];
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    ours.push(time(() => { work.set(data); selectInPlace(work, k); sink += work[k]; }, 200));
    d3.push(time(() => { work.set(data); quickselect(work as unknown as number[], k); sink += work[k]; }, 200));
    d3q.push(time(() => { for (const q of qs) sink += d3QuantileSorted(sorted as unknown as number[], q)!; }, 200));
    handq.push(time(() => { for (const q of qs) sink += handQuantileSorted(sorted, q); }, 200));
  }
  if (!Number.isFinite(sink)) throw new Error('quantile bench computed a non-finite value');
  return [
    { name: 'selection: selectInPlace (hand-written) on 10,000 replicates, k at 2.5 % (median round)', value: median(ours) * 1000, unit: 'µs',
      baseline: median(d3) * 1000, baselineName: "d3-array quickselect, same data", note: 'ratio < 1: the hand-written one is faster' },
    { name: 'quantile of a sorted sample: d3-array quantileSorted, 1,000 levels on 10,000 values (median round)', value: median(d3q) * 1000, unit: 'µs',
      baseline: median(handq) * 1000, baselineName: 'the hand-written quantileSorted it replaced', target: '≈ 1.0 (same speed)' },
  ];
}
