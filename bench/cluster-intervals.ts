/**
 * Benchmark: the cost of the default intervals of clustered data (cluster-robust: CR2 with
 * Satterthwaite df, docs/methods.md §8.3, §21) against today's cluster bootstrap (B = 10,000), on
 * the FAIRGAME-sized log of bench/logs.ts (8,400 match rows, 168,000 decisions), in one run,
 * rounds alternating, best of each:
 *
 * - `analyze --trials … --format fairgame` without figures (`repeatedTables`): the repeated
 *   analysis (cells, rounds, reactions, end game) and the two-framing tables of en against fr;
 * - the two-framing analysis alone (Table 3 clustered by match): the bootstrap still runs there
 *   (its replicates feed the figures and λ̂), the cluster-robust R and shift are added on top.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLogDecisions } from '../src/sources/logs/index.js';
import { readInput } from '../src/sources/input.js';
import { repeatedTables } from '../src/commands/pipeline/repeated.js';
import { analyzeTwoFraming } from '../src/analyses/two-framing/analysis.js';
import { fairgameFile } from './logs.js';
import { median, type BenchRow } from './util.js';

function alternate(rounds: number, a: (seed: number) => void, b: (seed: number) => void): { a: number[]; b: number[] } {
  const out = { a: [] as number[], b: [] as number[] };
  a(0); b(0); // warm-up (JIT)
  for (let r = 0; r < rounds; r++) {
    let t = performance.now(); a(r + 1); out.a.push((performance.now() - t) / 1000);
    t = performance.now(); b(r + 1); out.b.push((performance.now() - t) / 1000);
  }
  return out;
}

export function benchClusterIntervals(rounds = 3): BenchRow[] {
  const path = join(mkdtempSync(join(tmpdir(), 'samegame-bench-cluster-')), 'all_results.csv');
  const size = fairgameFile(path);
  const reps = 10_000;
  const input = readLogDecisions([path], 'fairgame', { displayPaths: [path] });
  const analyze = (clusterInterval?: 'cluster-bootstrap') => (seed: number) => {
    repeatedTables(input, { seed, reps, base: 'en', alt: 'fr', ...(clusterInterval ? { clusterInterval } : {}) });
  };
  const whole = alternate(rounds, analyze(), analyze('cluster-bootstrap'));
  const table = readInput({ trials: path, format: 'fairgame' }, 'en', 'fr').table;
  const settings = { reps, attenuation: 1, base: 'en', alt: 'fr' };
  const two = alternate(rounds, (seed) => { analyzeTwoFraming(table, { ...settings, seed }); }, (seed) => { analyzeTwoFraming(table, { ...settings, seed, clusterInterval: 'cluster-bootstrap' }); });
  const what = `FAIRGAME-sized log, ${size.rows.toLocaleString('en-US')} rows (${size.decisions.toLocaleString('en-US')} decisions)`;
  return [
    {
      name: `cluster intervals: analyze (no figures) of a ${what}, default cluster-robust intervals vs the cluster bootstrap (B = 10,000), best of ${rounds}, alternating`,
      value: Math.min(...whole.a), unit: 's', baseline: Math.min(...whole.b), baselineName: `the same analysis with --interval cluster-bootstrap, best of ${rounds}`,
      target: 'ratio ≤ 1', note: `medians ${median(whole.a).toFixed(3)} s vs ${median(whole.b).toFixed(3)} s`,
    },
    {
      name: `cluster intervals: Table 3 of the ${what} clustered by match, cluster-robust R and shift added to the bootstrap (B = 10,000) vs the bootstrap alone, best of ${rounds}, alternating`,
      value: Math.min(...two.a), unit: 's', baseline: Math.min(...two.b), baselineName: `analyzeTwoFraming with the cluster bootstrap's intervals, best of ${rounds}`,
      target: 'ratio ≤ 1.05', note: `medians ${median(two.a).toFixed(3)} s vs ${median(two.b).toFixed(3)} s`,
    },
  ];
}
