/**
 * Benchmark: a FAIRGAME-shaped results file of 8,400 match rows (168,000 decisions, generated,
 * seeded) read through the `fairgame` log format and Table 3 reproduced with the bootstrap
 * clustered by match (10,000 replicates, every statistic), beside numpy reading the same file and
 * running the same cluster bootstrap, in the same invocation, rounds alternating.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInput } from '../src/sources/input.js';
import { analyzeTwoFraming } from '../src/analyses/two-framing/analysis.js';
import { BUILTIN_LOG_FORMATS } from '../src/sources/logs/index.js';
import { uniforms } from '../test/helpers/uniforms.js';
import { alternateWithNumpy, median, type BenchRow } from './util.js';

const GAMES = ['prisoner-dilemma', 'snow-drift', 'stag-hunt', 'harmony-game'];
const COOP: Record<string, string> = { 'prisoner-dilemma': 'OptionB', 'snow-drift': 'OptionA', 'stag-hunt': 'OptionA', 'harmony-game': 'OptionA' };

/** 7 models × 2 languages × 4 games × 3 payoff types × 50 matches = 8,400 rows of 10 rounds, both agents. */
export function fairgameFile(path: string, matches = 50): { rows: number; decisions: number } {
  const u = uniforms(7);
  const models = ['m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7'];
  const lines = [BUILTIN_LOG_FORMATS.fairgame.columns.join(';')];
  let id = 0;
  for (const model of models) for (const language of ['en', 'fr']) for (const game of GAMES) for (const payoff of ['conventional', 'harsh', 'mild']) {
    const p = 0.2 + 0.6 * u();
    for (let k = 0; k < matches; k++) {
      const q = Math.min(1, Math.max(0, p + 0.2 * (u() - 0.5)));
      const list = () => `[${Array.from({ length: 10 }, () => `'${u() < q ? COOP[game] : COOP[game] === 'OptionA' ? 'OptionB' : 'OptionA'}'`).join(', ')}]`;
      lines.push([String(id++ % 40), language, 'True', '10', '10', 'False', 'A', model, 'cooperative', '1.0', list(), '[]', '[]',
        'B', model, 'selfish', '1.0', list(), '[]', '[]', game, 'True', payoff].join(';'));
    }
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { rows: lines.length - 1, decisions: (lines.length - 1) * 20 };
}

export function benchLogs(rounds = 3, runs = 3): BenchRow[] {
  const path = join(mkdtempSync(join(tmpdir(), 'samegame-bench-logs-')), 'all_results.csv');
  const size = fairgameFile(path);
  const reps = 10_000;
  const settings = { seed: 1, reps, attenuation: 1, base: 'en', alt: 'fr' };
  const once = (seed: number) => {
    const input = readInput({ trials: path, format: 'fairgame' }, 'en', 'fr');
    return analyzeTwoFraming(input.table, { ...settings, seed });
  };
  once(0); // warm-up (JIT), as numpy's first call is excluded too
  const { ours, theirs, numpy, failure } = alternateWithNumpy(rounds, runs, once, 'bench/numpy_cluster_bootstrap.py', [path, String(reps), String(runs), 'en', 'fr']);
  const row: BenchRow = {
    name: `logs: FAIRGAME-shaped file, ${size.rows.toLocaleString('en-US')} rows (${size.decisions.toLocaleString('en-US')} decisions) read + Table 3 clustered by match (168 cells × 10,000 reps), best of ${rounds * runs}`,
    value: Math.min(...ours), unit: 's', target: '≤ 3 s; ratio ≤ 1.5', note: `median ${median(ours).toFixed(3)} s`,
  };
  if (theirs.length) return [{ ...row, baseline: Math.min(...theirs), baselineName: `numpy ${numpy}: csv + literal_eval read, Generator.integers cluster bootstrap, best of ${theirs.length * runs}` }];
  return [{ ...row, note: `${row.note}; numpy baseline unavailable (${failure})` }];
}
