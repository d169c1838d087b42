/**
 * The repeated-play analysis of 100,000 decisions (10,000 matches × 10 rounds: 2 models × 2
 * framings × 4 fixed opponents × 625 matches, one seat each) at the default B = 10,000, in
 * process, beside numpy's cluster bootstrap of the same cells (test/analyses/repeated/
 * reference_repeated.py --bench: bincount of the drawn matches, one matmul for every column's
 * totals, nanpercentile), alternating, best of each.
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { analyzeRepeatedPlay } from '../src/analyses/repeated/analysis.js';
import { decisionsCsv, generateDecisions } from '../test/helpers/repeated-decisions.js';
import { DEFAULTS } from '../src/commands/reproduce.js';
import type { BenchRow } from './util.js';

export function benchRepeatedAnalysis(rounds = 3): BenchRow[] {
  const input = generateDecisions({
    models: ['model-a', 'model-bb'], framings: ['business', 'friend-sharing'],
    opponents: ['always-cooperate', 'always-defect', 'tit-for-tat', 'alternate'], matches: 625, rounds: 10, prompts: false,
  });
  const reps = DEFAULTS.reps;
  const csv = decisionsCsv(input.decisions);
  const ours: number[] = [], theirs: number[] = [];
  let numpy = '', failure = '';
  analyzeRepeatedPlay(input.decisions, { seed: 1, reps: 200, interval: 'cluster-bootstrap' }); // warm-up (JIT), as numpy's first run is excluded too
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    analyzeRepeatedPlay(input.decisions, { seed: DEFAULTS.seed, reps, interval: 'cluster-bootstrap' });
    ours.push((performance.now() - t) / 1000);
    const py = spawnSync('python3', ['test/analyses/repeated/reference_repeated.py', '--bench', String(i), String(reps), '1'], { input: csv, encoding: 'utf8', maxBuffer: 1 << 26 });
    if (py.status === 0) { const r = JSON.parse(py.stdout) as { min_s: number; numpy: string }; theirs.push(r.min_s); numpy = r.numpy; } else failure = py.stderr.trim().split('\n').pop() ?? 'python3 failed';
  }
  const row: BenchRow = {
    name: `repeated: analysis of ${input.decisions.length.toLocaleString('en')} decisions (${(input.decisions.length / 10).toLocaleString('en')} matches × 10 rounds, 16 cells, B = ${reps.toLocaleString('en')}), best of ${rounds}, alternating with numpy`,
    value: Math.min(...ours), unit: 's', note: `target ≤ 3 s; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores at the end`,
  };
  if (theirs.length) return [{ ...row, baseline: Math.min(...theirs), baselineName: `numpy ${numpy} cluster bootstrap of the same cells (bincount + matmul), best of ${theirs.length}`, target: '≤ 1.5' }];
  return [{ ...row, note: `${row.note}; numpy baseline unavailable (${failure || 'python3 not found'})` }];
}
