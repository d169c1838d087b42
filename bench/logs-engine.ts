/**
 * `analyze` on a generated per-decision log of 1,000,000 decisions (bench/generate_decisions.py:
 * 8 models, 2 framings, 50,000 matches of 10 rounds, two seats), read through the query engine
 * (tables only, `--reps 200` as the measurement of the issue that asked for the engine), beside the peer a
 * researcher would write (bench/duckdb_numpy_repeated.py: DuckDB runs the same aggregation query, numpy
 * the cluster-robust intervals of every cell column; no bootstrap), alternating, best of each.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../src/commands/analyze.js';
import { sql } from '../src/commands/sql.js';
import { alternate, runNumpy, type BenchRow } from './util.js';

export async function benchLogsEngine(decisions = 1_000_000, rounds = 2, reps = 200): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-bench-engine-'));
  const log = join(dir, 'decisions.csv');
  const gen = spawnSync('python3', ['bench/generate_decisions.py', String(decisions), log], { encoding: 'utf8' });
  if (gen.status !== 0) return [{ name: 'logs-engine', value: NaN, unit: 's', note: `generator unavailable: ${gen.stderr.trim().split('\n').pop()}` }];
  const query = join(dir, 'aggregate.sql');
  writeFileSync(query, sql({ trials: [log], format: 'bench/decisions.yaml' }));
  let peer = '', failure = '';
  const [ours, theirs] = await alternate(rounds, [
    () => analyze({ trials: [log], format: 'bench/decisions.yaml', base: 'base', alt: 'alt', reps, figures: false, dryRun: true, out: join(dir, 'out') }),
    () => {
      const r = runNumpy('bench/duckdb_numpy_repeated.py', [query, '1']);
      if ('seconds' in r) { peer = r.numpy; return r.seconds; }
      failure = r.failure;
      return NaN;
    },
  ]);
  const row: BenchRow = {
    name: `logs-engine: analyze --trials of ${decisions.toLocaleString('en')} decisions (CSV, 50,000 matches × 10 rounds × 2 seats; tables only, `
      + `--reps ${reps}), best of ${rounds}, alternating with the peer`,
    value: Math.min(...ours), unit: 's', target: '≤ 1.0 (no slower than the peer)',
    note: `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores at the end`,
  };
  if (theirs.length) return [{ ...row, baseline: Math.min(...theirs), baselineName: `${peer}: the same aggregation query, CR2 intervals per cell column, best of ${theirs.length}` }];
  return [{ ...row, note: `${row.note}; peer unavailable (${failure})` }];
}
