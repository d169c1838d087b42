// The memory of `analyze --trials` on a large generated log (docs/methods.md §26): makes the log as CSV and as Parquet
// (bench/generate_decisions.py: 8 models, 2 framings, matches of 10 rounds, two seats; kept when already there), then runs the
// built CLI on each under /usr/bin/time -v (`--reps 200`, figures included) and prints its peak RSS, wall time and the load.
// Not part of npm test: 10^7 decisions take minutes and about 2 GB of disk.
// Usage: npm run build && node bench/engine-memory.mjs [DECISIONS=10000000] [DIR=/tmp/samegame-engine-memory] [FORMATS=csv,parquet]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

const decisions = Number(process.argv[2] ?? 10_000_000);
const dir = process.argv[3] ?? '/tmp/samegame-engine-memory';
mkdirSync(dir, { recursive: true });
const budget = 1024 * 1024; // kB: the 1 GB target

for (const ext of (process.argv[4] ?? 'csv,parquet').split(',')) {
  const log = join(dir, `decisions-${decisions}.${ext}`);
  if (!existsSync(log)) {
    const gen = spawnSync('python3', ['bench/generate_decisions.py', String(decisions), log], { stdio: 'inherit' });
    if (gen.status !== 0) throw new Error(`could not generate ${log}`);
  }
  const out = join(dir, `out-${ext}`);
  const args = ['-v', process.execPath, 'bin/samegame.js', 'analyze', '--trials', log, '--format', 'bench/decisions.yaml',
    '--base', 'base', '--alt', 'alt', '--reps', '200', '--out', out, '-q'];
  const before = loadavg()[0];
  const r = spawnSync('/usr/bin/time', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const field = (name) => new RegExp(`${name}: (.*)`).exec(r.stderr)?.[1]?.trim() ?? '?';
  const rss = Number(field('Maximum resident set size \\(kbytes\\)'));
  console.log([`${decisions.toLocaleString('en')} decisions, ${ext}`, `exit ${r.status}`, `peak RSS ${(rss / 1024).toFixed(0)} MiB`,
    `(${rss <= budget ? 'within' : 'over'} 1 GiB)`, `wall ${field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')}`,
    `load ${before.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`].join(', '));
  if (r.status !== 0) console.log(r.stderr.split('\n').filter((l) => l.startsWith('samegame')).join('\n'));
  rmSync(out, { recursive: true, force: true });
}
