/**
 * The audit's computation in one process (reading error, tipping points, influence: every search,
 * on the calling thread, no figures or files), this checkout beside another built checkout,
 * alternating run by run: the shipped 24 cells (median of BENCH_RUNS_SMALL, default 15) and the
 * 240-cell fixture (median of BENCH_RUNS_LARGE, default 5).
 * Each pair of runs must give the same audit (its JSON, compared as text). Reports new / old.
 *
 * Usage: npm run build && node bench/audit-searches.mjs <baseline checkout, built>
 */
import { resolve, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const baseRoot = process.argv[2];
if (!baseRoot) { console.error('usage: node bench/audit-searches.mjs <baseline checkout, built>'); process.exit(2); }

async function load(root) {
  const m = (p) => import(pathToFileURL(join(resolve(root), 'dist', p)).href);
  const [audit, rates, json] = await Promise.all([m('analyses/audit/audit.js'), m('sources/rates-csv.js'), m('analyses/audit/json.js')]);
  return { audit, rates, json };
}

const [now, old] = [await load('.'), await load(baseRoot)];
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

function time(lib, path) {
  const settings = lib.audit.auditSettings({});
  const input = lib.rates.readRates(path, { base: settings.base, alt: settings.alt });
  const t = performance.now();
  const r = lib.audit.auditInput(input, settings);
  const seconds = (performance.now() - t) / 1000;
  const text = JSON.stringify({ ...lib.json.auditObject(r), tool: undefined });
  return { seconds, text };
}

for (const [name, path, runs] of [['shipped 24 cells', 'data/lore-heydari-2024/rates.csv', Number(process.env.BENCH_RUNS_SMALL ?? 15)], ['240 cells (test/fixtures/audit/rates-240-cells.csv)', 'test/fixtures/audit/rates-240-cells.csv', Number(process.env.BENCH_RUNS_LARGE ?? 5)]]) {
  time(now, path); time(old, path); // warm both
  const a = [], b = [];
  for (let i = 0; i < runs; i++) {
    const x = time(old, path), y = time(now, path);
    if (x.text !== y.text) throw new Error(`${name}: the audits differ`);
    b.push(x.seconds); a.push(y.seconds);
  }
  const [n, o] = [median(a), median(b)];
  console.log(`${name}: this checkout ${n.toFixed(3)} s, baseline ${o.toFixed(3)} s (median of ${runs}, alternating), ratio new/old ${(n / o).toFixed(3)}; audits identical`);
}
