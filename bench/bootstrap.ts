/**
 * Benchmark 1: the Same Game, Different Story Table 3 bootstrap (24 cells, 10,000 replicates, every statistic),
 * samegame in-process beside numpy (Generator.binomial, vectorized) in the same invocation.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { readRates } from '../src/sources/rates-csv.js';
import { analyzeTwoFraming } from '../src/analyses/two-framing/analysis.js';
import { median, type BenchRow } from './util.js';

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
  const ours: number[] = [];
  const theirs: number[] = [];
  let numpy: string | undefined;
  let failure: string | undefined;
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      analyzeTwoFraming(input.table, { ...settings, seed: round * runs + i + 2 });
      ours.push((performance.now() - t) / 1000);
    }
    const py = spawnSync('python3', ['bench/numpy_bootstrap.py', String(reps), String(runs)], { input: JSON.stringify(cells), encoding: 'utf8' });
    if (py.status === 0) {
      const r = JSON.parse(py.stdout) as { min_s: number; numpy: string };
      theirs.push(r.min_s);
      numpy = r.numpy;
    } else failure = (py.stderr || String(py.error)).trim().split('\n').pop();
  }
  const best = Math.min(...ours);
  const draws = reps * input.table.cells.length;
  const row: BenchRow = {
    name: `bootstrap: Table 3 workload (24 cells × 10,000 reps, all statistics), best of ${rounds * runs}, rounds alternating with numpy`,
    value: best, unit: 's', note: `${(draws / best / 1e6).toFixed(2)} M binomial draws/s; median ${median(ours).toFixed(3)} s`,
  };
  if (theirs.length) return [{ ...row, baseline: Math.min(...theirs), baselineName: `numpy ${numpy} Generator.binomial, vectorized, best of ${theirs.length * runs}`, target: '≤ 1.0' }];
  return [{ ...row, note: `${row.note}; numpy baseline unavailable (${failure})` }];
}
