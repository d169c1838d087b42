/**
 * `npm run bench`: every benchmark side by side with its baseline, in one invocation; prints a
 * table and writes bench/results.md with the machine it ran on. Not part of the test suite.
 * Select sections with arguments: bootstrap e2e figures audit audit-240 coverage quantile reproduction scale store live repeated vendors logs reader repeated-analysis cluster-intervals meta dry-run adaptive logs-engine (default: all).
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
import { spawnSync } from 'node:child_process';
import { benchBootstrap } from './bootstrap.js';
import { benchEndToEnd } from './e2e.js';
import { benchScale } from './scale.js';
import { benchLive } from './live.js';
import { benchRepeated } from './repeated.js';
import { benchVendors } from './vendors.js';
import { benchStore } from './store-section.js';
import { benchAudit, benchAuditLarge, benchCoverage } from './audit.js';
import { benchQuantile } from './quantile.js';
import { benchFigures } from './figures.js';
import { benchLogs } from './logs.js';
import { benchReproduction } from './reproduction.js';
import { benchReader } from './reader.js';
import { benchRepeatedAnalysis } from './repeated-analysis.js';
import { benchClusterIntervals } from './cluster-intervals.js';
import { benchMeta } from './meta.js';
import { benchDryRun } from './dry-run.js';
import { benchAdaptive } from './adaptive.js';
import { benchAdaptiveMatches } from './adaptive-matches.js';
import { benchLogsEngine } from './logs-engine.js';
import { fmt, type BenchRow } from './util.js';

const sections: Record<string, () => BenchRow[] | Promise<BenchRow[]>> = {
  bootstrap: () => benchBootstrap(),
  e2e: () => benchEndToEnd(),
  figures: () => benchFigures(),
  audit: () => benchAudit(),
  'audit-240': () => benchAuditLarge(),
  coverage: () => benchCoverage(),
  quantile: () => benchQuantile(),
  reproduction: () => benchReproduction(),
  scale: () => benchScale(),
  store: () => benchStore(),
  live: () => benchLive(),
  repeated: () => benchRepeated(),
  vendors: () => benchVendors(),
  logs: () => benchLogs(),
  reader: () => benchReader(),
  'repeated-analysis': () => benchRepeatedAnalysis(),
  'cluster-intervals': () => benchClusterIntervals(),
  meta: () => benchMeta(),
  'dry-run': () => benchDryRun(),
  adaptive: () => [...benchAdaptive(), ...benchAdaptiveMatches()],
  'logs-engine': () => benchLogsEngine(),
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(sections);
const rows: BenchRow[] = [];
for (const name of wanted) {
  const run = sections[name];
  if (!run) { console.error(`unknown section ${name} (known: ${Object.keys(sections).join(', ')})`); process.exit(2); }
  process.stderr.write(`bench: ${name} …\n`);
  for (const r of await run()) { rows.push(r); process.stderr.write(`  ${r.name}: ${fmt(r.value, r.unit)}\n`); }
}

const python = spawnSync('python3', ['-c', 'import numpy, sys; print(sys.version.split()[0], numpy.__version__)'], { encoding: 'utf8' });
const machine = [
  `- CPU: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
  `- memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  `- OS: ${platform()} ${release()}`,
  `- Node ${process.version}; python/numpy: ${python.status === 0 ? python.stdout.trim() : 'not available'}`,
];
const ratio = (r: BenchRow) => (r.baseline === undefined || !(r.baseline > 0) ? '—' : (r.value / r.baseline).toFixed(2));
const table = [
  '| benchmark | value | baseline | ratio | target | peak RSS | note |',
  '|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.name} | ${fmt(r.value, r.unit)} | ${r.baseline === undefined ? '—' : `${fmt(r.baseline, r.unit)} (${r.baselineName})`} | ${ratio(r)} | ${r.target ?? '—'} | ${r.peakRssMb === undefined ? '—' : `${r.peakRssMb.toFixed(0)} MB`} | ${r.note ?? ''} |`),
];
const md = ['# samegame benchmarks', '', 'Written by `npm run bench` (bench/run.ts). Each figure is measured beside its baseline in the same invocation; ratio = value / baseline.', '',
  '## Machine', '', ...machine, '', '## Results', '', ...table, ''].join('\n');
if (wanted.length === Object.keys(sections).length) writeFileSync('bench/results.md', md);
console.log(table.join('\n'));
