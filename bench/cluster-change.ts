/**
 * Benchmark: the clustered intervals of this tree against another build of samegame (today's),
 * on the FAIRGAME-sized log of bench/logs.ts (8,400 match rows, 168,000 decisions), in one run,
 * rounds alternating, best of each: `analyze --trials … --format fairgame` without figures
 * (`repeatedTables`, default cluster-robust intervals, B = 10,000 for the bootstrap that still feeds
 * λ̂). Both builds compiled (this tree's dist/ after `npx tsc -p tsconfig.json`, and another
 * checkout's), e.g. of the commit before the change:
 *   git archive <commit> src tsconfig.json package.json | tar -x -C /tmp/base && ln -s $PWD/node_modules /tmp/base/
 *   (cd /tmp/base && npx tsc -p tsconfig.json) && npx tsx bench/cluster-change.ts /tmp/base/dist
 * Prints one results.md row.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fairgameFile } from './logs.js';
import { alternate, median } from './util.js';

type Tables = typeof import('../src/commands/pipeline/repeated.js').repeatedTables;
type Reader = typeof import('../src/sources/logs/index.js').readLogDecisions;

/** A build's analysis and log reader, from its compiled dist/. */
async function build(dist: string): Promise<{ tables: Tables; read: Reader }> {
  const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(resolve(dist, rel)).href)) as T;
  // commands/pipeline/repeated.js since the one pipeline; commands/analyze-repeated.js in builds before it
  const tables = existsSync(resolve(dist, 'commands/pipeline/repeated.js')) ? 'commands/pipeline/repeated.js' : 'commands/analyze-repeated.js';
  return {
    tables: (await load<{ repeatedTables: Tables }>(tables)).repeatedTables,
    read: (await load<{ readLogDecisions: Reader }>('sources/logs/index.js')).readLogDecisions,
  };
}

async function main(): Promise<void> {
  const base = process.argv[2];
  if (!base) throw new Error('usage: npx tsx bench/cluster-change.ts <other build\'s dist/> [rounds]');
  const old = await build(base), now = await build('dist');
  const path = join(mkdtempSync(join(tmpdir(), 'samegame-bench-change-')), 'all_results.csv');
  const size = fairgameFile(path);
  // dryRun: a build before the one pipeline wrote its tables unless told not to; today's computes them only
  const opts = (seed: number) => ({ seed, reps: 10_000, base: 'en', alt: 'fr', dryRun: true });
  const inputNew = now.read([path], 'fairgame', { displayPaths: [path] });
  const inputOld = old.read([path], 'fairgame', { displayPaths: [path] });
  const rounds = Number(process.argv[3] ?? 5);
  now.tables(inputNew, opts(0)); old.tables(inputOld, opts(0)); // warm-up (JIT)
  const [a, b] = await alternate(rounds, [(r) => { now.tables(inputNew, opts(r + 1)); }, (r) => { old.tables(inputOld, opts(r + 1)); }]);
  const value = Math.min(...a), baseline = Math.min(...b);
  console.log(`| cluster intervals (dominant matches, paired designs): analyze (no figures) of a FAIRGAME-sized log, ${size.rows.toLocaleString('en-US')} rows `
    + `(${size.decisions.toLocaleString('en-US')} decisions), this change vs today's build, best of ${rounds}, alternating | ${value.toFixed(3)} s | `
    + `${baseline.toFixed(3)} s (the same analysis with ${base}) | ${(value / baseline).toFixed(2)} | ratio ≤ 1.05 | — | medians ${median(a).toFixed(3)} s `
    + `vs ${median(b).toFixed(3)} s |`);
}

main().catch((e: unknown) => { console.error(e); process.exit(1); });
