/**
 * `analyze` on a generated per-decision log of 1,000,000 decisions (bench/generate_decisions.py:
 * 8 models, 2 framings, 50,000 matches of 10 rounds, two seats), read through the query engine
 * (tables only), beside the peer a researcher would write (bench/duckdb_numpy_repeated.py: DuckDB
 * runs the same aggregation query, numpy the cluster-robust intervals), alternating, best of each.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../src/commands/analyze.js';
import { sql } from '../src/commands/sql.js';
import type { BenchRow } from './util.js';

export async function benchLogsEngine(decisions = 1_000_000, rounds = 2): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-bench-engine-'));
  const log = join(dir, 'decisions.csv');
  const gen = spawnSync('python3', ['bench/generate_decisions.py', String(decisions), log], { encoding: 'utf8' });
  if (gen.status !== 0) return [{ name: 'logs-engine', value: NaN, unit: 's', note: `generator unavailable: ${gen.stderr.trim().split('\n').pop()}` }];
  const query = join(dir, 'aggregate.sql');
  writeFileSync(query, sql({ trials: [log], format: 'bench/decisions.yaml' }));
  const ours: number[] = [], theirs: number[] = [];
  let peer = '', failure = '';
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await analyze({ trials: [log], format: 'bench/decisions.yaml', base: 'base', alt: 'alt', figures: false, dryRun: true, out: join(dir, 'out') });
    ours.push((performance.now() - t) / 1000);
    const py = spawnSync('python3', ['bench/duckdb_numpy_repeated.py', query, '1'], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (py.status === 0) { const r = JSON.parse(py.stdout) as { min_s: number; numpy: string }; theirs.push(r.min_s); peer = r.numpy; }
    else failure = py.stderr.trim().split('\n').pop() ?? 'python3 failed';
  }
  const row: BenchRow = {
    name: `logs-engine: analyze --trials of ${decisions.toLocaleString('en')} decisions (CSV, 50,000 matches × 10 rounds × 2 seats; tables only), best of ${rounds}, alternating with the peer`,
    value: Math.min(...ours), unit: 's', target: '≤ 1.0 (no slower than the peer)',
    note: `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores at the end`,
  };
  if (theirs.length) return [{ ...row, baseline: Math.min(...theirs), baselineName: `${peer}: the same aggregation query, CR2 intervals per cell column, best of ${theirs.length}` }];
  return [{ ...row, note: `${row.note}; peer unavailable (${failure})` }];
}
