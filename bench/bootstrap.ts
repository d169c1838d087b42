/**
 * Benchmark 1: the Same Game, Different Story Table 3 bootstrap (24 cells, 10,000 replicates, every statistic),
 * samegame in-process beside numpy (Generator.binomial, vectorized) in the same invocation.
 */
import { readRates } from '../src/sources/rates-csv.js';
import { analyzeTwoFraming } from '../src/analyses/two-framing/analysis.js';
import { alternateWithNumpy, median, type BenchRow } from './util.js';

export function benchBootstrap(rounds = 4, runs = 5): BenchRow[] {
  const input = readRates('data/lore-heydari-2024/rates.csv', { base: 'business', alt: 'friend-sharing' });
  const reps = 10_000;
  const settings = { seed: 1, reps, attenuation: 0.7, base: 'business', alt: 'friend-sharing' };
  for (let i = 0; i < 5; i++) analyzeTwoFraming(input.table, settings); // warm-up (JIT), as numpy's first call is excluded too
  const cells: [string, string, number, number, number][] = [];
  const cs = input.table.cells;
  for (let i = 0; i < cs.length; i += 2) {
    const b = cs[i].obs as { n: number; x: number }, s = cs[i + 1].obs as { x: number };
    cells.push([cs[i].key.model, cs[i].key.game, b.n, b.x, s.x]);
  }
  // This VM's speed drifts by half over minutes, so the two sides are measured in alternating
  // rounds and each is reported by its best run: the same conditions for both.
  const { ours, theirs, numpy, failure } = alternateWithNumpy(rounds, runs, (seed) => analyzeTwoFraming(input.table, { ...settings, seed }),
    'bench/numpy_bootstrap.py', [String(reps), String(runs)], JSON.stringify(cells));
  const best = Math.min(...ours);
  const draws = reps * input.table.cells.length;
  const row: BenchRow = {
    name: `bootstrap: Table 3 workload (24 cells × 10,000 reps, all statistics), best of ${rounds * runs}, rounds alternating with numpy`,
    value: best, unit: 's', note: `${(draws / best / 1e6).toFixed(2)} M binomial draws/s; median ${median(ours).toFixed(3)} s`,
  };
  if (theirs.length) return [{ ...row, baseline: Math.min(...theirs), baselineName: `numpy ${numpy} Generator.binomial, vectorized, best of ${theirs.length * runs}`, target: '≤ 1.0' }];
  return [{ ...row, note: `${row.note}; numpy baseline unavailable (${failure})` }];
}
