/**
 * The audit's computation (reading error, tipping points, influence: every search, on the calling
 * thread, no figures or files), this checkout beside another built checkout, alternating run by
 * run: the shipped 24 cells (median of BENCH_RUNS_SMALL, default 15) and the 240-cell fixture
 * (median of BENCH_RUNS_LARGE, default 5). Each pair of runs must give the same audit (its JSON,
 * compared as text). Reports new / old.
 *
 * Usage: npm run build && node bench/audit-searches.mjs <baseline checkout, built> [--processes]
 * In one process by default (both checkouts' modules loaded side by side, each warmed first); with
 * --processes every run is a fresh process (module loading excluded from the time, JIT included).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

async function load(root) {
  const m = (p) => import(pathToFileURL(join(resolve(root), 'dist', p)).href);
  const [audit, rates, json] = await Promise.all([m('analyses/audit/audit.js'), m('sources/rates-csv.js'), m('analyses/audit/json.js')]);
  return { audit, rates, json };
}

function time(lib, path) {
  const settings = lib.audit.auditSettings({});
  const input = lib.rates.readRates(path, { base: settings.base, alt: settings.alt });
  const t = performance.now();
  const r = lib.audit.auditInput(input, settings);
  const seconds = (performance.now() - t) / 1000;
  const text = JSON.stringify({ ...lib.json.auditObject(r), tool: undefined });
  return { seconds, text };
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

if (process.argv[2] === '--one') {
  // One run in this process: seconds and the audit's hash on stdout.
  const r = time(await load(process.argv[3]), process.argv[4]);
  console.log(JSON.stringify({ seconds: r.seconds, hash: createHash('sha256').update(r.text).digest('hex') }));
} else {
  const baseRoot = process.argv[2];
  const processes = process.argv.includes('--processes');
  if (!baseRoot || baseRoot.startsWith('--')) { console.error('usage: node bench/audit-searches.mjs <baseline checkout, built> [--processes]'); process.exit(2); }
  const [now, old] = processes ? ['.', baseRoot] : [await load('.'), await load(baseRoot)];
  const once = (lib, path) => {
    if (!processes) return time(lib, path);
    const r = spawnSync(process.execPath, ['bench/audit-searches.mjs', '--one', lib, path], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    const { seconds, hash } = JSON.parse(r.stdout);
    return { seconds, text: hash };
  };
  for (const [name, path, runs] of [['shipped 24 cells', 'data/lore-heydari-2024/rates.csv', Number(process.env.BENCH_RUNS_SMALL ?? 15)],
    ['240 cells (test/fixtures/audit/rates-240-cells.csv)', 'test/fixtures/audit/rates-240-cells.csv', Number(process.env.BENCH_RUNS_LARGE ?? 5)]]) {
    if (!processes) { once(now, path); once(old, path); } // warm both
    const a = [], b = [];
    for (let i = 0; i < runs; i++) {
      const x = once(old, path), y = once(now, path);
      if (x.text !== y.text) throw new Error(`${name}: the audits differ`);
      b.push(x.seconds); a.push(y.seconds);
    }
    const [n, o] = [median(a), median(b)];
    console.log(`${name}${processes ? ', a process per run' : ', one process'}: this checkout ${n.toFixed(3)} s, baseline ${o.toFixed(3)} s (median of ${runs}, alternating), ratio new/old ${(n / o).toFixed(3)}; audits identical`);
  }
}
