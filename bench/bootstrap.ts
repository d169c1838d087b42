/**
 * Benchmark 1: the seed 002 Table 3 bootstrap (24 cells, 10,000 replicates, every statistic),
 * samegame in-process beside numpy (Generator.binomial, vectorized) in the same invocation.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { readRates } from '../src/io/rates-csv.js';
import { analyzeTwoFraming } from '../src/pipeline/two-framing.js';
import { median, type BenchRow } from './util.js';

export function benchBootstrap(runs = 15): BenchRow[] {
  const input = readRates('data/lore-heydari-2024/rates.csv', { base: 'business', alt: 'friend-sharing' });
  const reps = 10_000;
  const settings = { seed: 1, reps, attenuation: 0.7, base: 'business', alt: 'friend-sharing' };
  for (let i = 0; i < 5; i++) analyzeTwoFraming(input.table, settings); // warm-up (JIT), as numpy's first call is excluded too
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    analyzeTwoFraming(input.table, { ...settings, seed: i + 2 });
    times.push((performance.now() - t) / 1000);
  }
  const ours = median(times);
  const draws = reps * input.table.cells.length;
  const rows: BenchRow[] = [{
    name: 'bootstrap: Table 3 workload (24 cells × 10,000 reps, all statistics)',
    value: ours, unit: 's', note: `${(draws / ours / 1e6).toFixed(2)} M binomial draws/s`,
  }];
  // numpy baseline on the same cells
  const cells: [string, string, number, number, number][] = [];
  const cs = input.table.cells;
  for (let i = 0; i < cs.length; i += 2) {
    const b = cs[i].obs as { n: number; x: number }, s = cs[i + 1].obs as { x: number };
    cells.push([cs[i].key.model, cs[i].key.game, b.n, b.x, s.x]);
  }
  const py = spawnSync('python3', ['bench/numpy_bootstrap.py', String(reps), String(runs)], { input: JSON.stringify(cells), encoding: 'utf8' });
  if (py.status === 0) {
    const r = JSON.parse(py.stdout) as { median_s: number; numpy: string };
    rows[0] = { ...rows[0], baseline: r.median_s, baselineName: `numpy ${r.numpy} Generator.binomial, vectorized`, target: '≤ 1.0' };
  } else {
    rows[0] = { ...rows[0], note: `${rows[0].note}; numpy baseline unavailable (${(py.stderr || String(py.error)).trim().split('\n').pop()})` };
  }
  return rows;
}
