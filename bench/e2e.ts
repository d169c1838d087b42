/**
 * Benchmark 2: `samegame reproduce` end to end as a cold process (figures and report included),
 * median of ≥ 5 runs, beside a bare `node -e 0` start in the same invocation. With
 * BENCH_E2E_BASELINE=<another checkout, built> it also times that checkout's reproduce,
 * alternating with this one, and reports new / old.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeCli, timeNodeBaseline } from './process.js';
import { median, type BenchRow } from './util.js';

export function benchEndToEnd(runs = 7): BenchRow[] {
  const out = mkdtempSync(join(tmpdir(), 'samegame-e2e-'));
  timeCli(['reproduce', '--out', out, '-q']); // warm the file cache
  const other = process.env.BENCH_E2E_BASELINE;
  const t: number[] = [], rss: number[] = [], base: number[] = [], old: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = timeCli(['reproduce', '--out', out, '-q']);
    if (r.code !== 0) throw new Error(`reproduce failed: ${r.stderr}`);
    t.push(r.seconds); rss.push(r.peakRssMb);
    base.push(timeNodeBaseline());
    if (other) old.push(timeCli(['reproduce', '--out', mkdtempSync(join(tmpdir(), 'samegame-e2e-old-')), '-q'], other).seconds);
  }
  const rows: BenchRow[] = [{
    name: `reproduce, cold process, figures + report (median of ${runs})`, value: median(t), unit: 's',
    baseline: median(base), baselineName: 'node -e 0 (process start floor)', target: '≤ 6× the floor', peakRssMb: Math.max(...rss),
  }];
  if (other) {
    rows.push({
      name: `reproduce, cold process: this checkout vs ${other} (alternating, median of ${runs})`, value: median(t), unit: 's',
      baseline: median(old), baselineName: 'the baseline checkout', note: 'ratio = new / old',
    });
  }
  return rows;
}
