/**
 * Benchmark: `samegame audit` as a cold process (figures and reports included), beside the bare
 * `node -e 0` start, alternating run by run in one invocation; the shipped 24 cells (median of
 * 5) and the 240-cell input of scripts/audit-fixtures.mjs (10× the shipped size, on the default
 * threads and on one, alternating).
 *
 * With BENCH_AUDIT_BASELINE=<another checkout, built> it also times that checkout's audit,
 * alternating with this one (old, new, old, new …), and reports new / old: how a change is
 * measured on a busy machine, where only side-by-side ratios mean anything.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeCli, timeNodeBaseline } from './process.js';
import { median, type BenchRow } from './util.js';

const out = () => mkdtempSync(join(tmpdir(), 'samegame-audit-bench-'));

export function benchAudit(runs = 5): BenchRow[] {
  const baseline = process.env.BENCH_AUDIT_BASELINE;
  timeCli(['audit', '--out', out(), '-q']); // warm the file cache
  const t: number[] = [], rss: number[] = [], floor: number[] = [], old: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = timeCli(['audit', '--out', out(), '-q']);
    if (r.code !== 0) throw new Error(`audit failed: ${r.stderr}`);
    t.push(r.seconds); rss.push(r.peakRssMb);
    floor.push(timeNodeBaseline());
    if (baseline) old.push(timeCli(['audit', '--out', out(), '-q'], baseline).seconds);
  }
  const rows: BenchRow[] = [{
    name: `audit, cold process, shipped data, figures + reports (median of ${runs})`, value: median(t), unit: 's',
    baseline: median(floor), baselineName: 'node -e 0 (process start floor)', target: '≤ 2.0 s', peakRssMb: Math.max(...rss),
  }];
  if (baseline) {
    rows.push({
      name: `audit, cold process, shipped data: this checkout vs ${baseline} (alternating, median of ${runs})`, value: median(t), unit: 's',
      baseline: median(old), baselineName: 'the baseline checkout', note: 'ratio = new / old',
    });
  }
  return rows;
}

/**
 * The 240-cell input (10× the shipped data): the default (searches on the cores, at most 4) and
 * `--threads 1`, alternating, median of `runs`; the two audit.json files must be the same bytes.
 */
export function benchAuditLarge(runs = 3): BenchRow[] {
  const args = ['audit', '--data', 'test/fixtures/audit/rates-240-cells.csv', '-q'];
  const t: number[] = [], one: number[] = [], rss: number[] = [];
  let same = true;
  for (let i = 0; i < runs; i++) {
    const [a, b] = [out(), out()];
    const big = timeCli([...args, '--out', a]);
    const single = timeCli([...args, '--out', b, '--threads', '1']);
    if (big.code !== 0 || single.code !== 0) throw new Error(`audit of 240 cells failed: ${big.stderr}${single.stderr}`);
    t.push(big.seconds); one.push(single.seconds); rss.push(big.peakRssMb);
    same &&= readFileSync(join(a, 'reports', 'audit.json')).equals(readFileSync(join(b, 'reports', 'audit.json')));
  }
  return [{
    name: `audit, cold process, 240 cells (30 models × 4 games × 2 framings), default threads vs --threads 1 (alternating, median of ${runs})`, value: median(t), unit: 's',
    baseline: median(one), baselineName: '--threads 1', target: '≤ 10 s', peakRssMb: Math.max(...rss),
    note: same ? 'audit.json identical' : 'audit.json DIFFERS between thread counts',
  }];
}

/**
 * `samegame coverage` on the shipped data at its defaults (200 simulated data sets × 2,000
 * replicates, both interval methods), one cold run beside the process-start floor.
 */
export function benchCoverage(): BenchRow[] {
  const floor = timeNodeBaseline();
  const r = timeCli(['coverage', '--out', out(), '-q']);
  if (r.code !== 0) throw new Error(`coverage failed: ${r.stderr}`);
  return [{
    name: 'coverage, cold process, shipped data, 200 simulations × 2,000 replicates, percentile and BCa, one run', value: r.seconds, unit: 's',
    baseline: floor, baselineName: 'node -e 0 (process start floor)', peakRssMb: r.peakRssMb,
  }];
}
