/**
 * Benchmark: `samegame meta` on 10,000 cells — 20 studies (rates files) × 5 models × 100 games,
 * REML with Hartung–Knapp per model, per study and overall, the three-level model of cells within
 * studies and leave-one-study-out (20 three-level refits) — beside `reproduce` of the same 10,000
 * model–game pairs in one rates file, in the same run (library calls, no figures; reproduce at
 * 1,000 bootstrap replicates, a tenth of its default, so the ratio is a conservative one).
 * Target: the meta-analysis well under a second.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runMeta } from '../src/commands/meta.js';
import { reproduceTables } from '../src/commands/reproduce.js';
import { meta } from '../src/analyses/meta/index.js';
import { META_DEFAULTS } from '../src/stats/meta/univariate.js';
import { streamFor } from '../src/stats/rng.js';
import { median, type BenchRow } from './util.js';

const STUDIES = 20, MODELS = 5, GAMES = 100, N = 300, REPS = 1000;

/** Rates of one study: each model–game's base rate and shift drawn from a seeded stream (study effects included). */
function studyRows(s: number, model: (m: number) => string): string[] {
  const rows: string[] = [];
  const studyShift = 0.1 * (streamFor(3, `study ${s}`).next() - 0.5);
  for (let m = 0; m < MODELS; m++) for (let g = 0; g < GAMES; g++) {
    const rng = streamFor(3, `${s}|${m}|${g}`);
    const base = 0.1 + 0.6 * rng.next();
    const alt = Math.min(0.99, Math.max(0.01, base + 0.2 + studyShift + 0.15 * (rng.next() - 0.5)));
    rows.push(`${model(m)},game-${g},business,${N},${Math.round(base * N)}`, `${model(m)},game-${g},friend-sharing,${N},${Math.round(alt * N)}`);
  }
  return rows;
}

function writeData(dir: string): { manifest: string; all: string } {
  const header = 'model,game,framing,n,cooperate';
  const studies: string[] = [];
  const all = [header];
  for (let s = 0; s < STUDIES; s++) {
    writeFileSync(join(dir, `study-${s}.csv`), `${[header, ...studyRows(s, (m) => `model-${m}`)].join('\n')}\n`);
    all.push(...studyRows(s, (m) => `s${s}-model-${m}`));
    studies.push(`  - { id: study-${s}, data: study-${s}.csv, base: business, alt: friend-sharing }`);
  }
  writeFileSync(join(dir, 'meta.yaml'), `tau2: REML\ntest: knha\nstudies:\n${studies.join('\n')}\n`);
  writeFileSync(join(dir, 'all.csv'), `${all.join('\n')}\n`);
  return { manifest: join(dir, 'meta.yaml'), all: join(dir, 'all.csv') };
}

/** Wall and CPU seconds of one call (CPU time is less sensitive to other load on a shared machine). */
function time(f: () => void, cpu: number[]): number {
  const c = process.cpuUsage();
  const t = performance.now();
  f();
  const u = process.cpuUsage(c);
  cpu.push((u.user + u.system) / 1e6);
  return (performance.now() - t) / 1000;
}

export function benchMeta(rounds = 5): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-bench-meta-'));
  const { manifest, all } = writeData(dir);
  const first = runMeta({ manifest });
  if (first.analysis.effects.length !== STUDIES * MODELS * GAMES || !first.analysis.multilevel) throw new Error('bench data: expected 10,000 cells and a three-level fit');
  const whole: number[] = [], pooling: number[] = [], repro: number[] = [];
  const wholeCpu: number[] = [], poolingCpu: number[] = [], reproCpu: number[] = [];
  for (let r = 0; r < rounds; r++) {
    whole.push(time(() => runMeta({ manifest }), wholeCpu));
    pooling.push(time(() => meta.analyze(first.analysis.effects, { ...META_DEFAULTS, effect: 'shift', moderators: [] }), poolingCpu));
    repro.push(time(() => reproduceTables({ data: all, reps: REPS }), reproCpu));
  }
  const ml = first.analysis.multilevel;
  const note = `${STUDIES} studies × ${MODELS} models × ${GAMES} games; ${first.analysis.pooled.length} pooled rows, three-level σ²_study ${ml.sigma2_outer.toExponential(2)}, σ²_cell ${ml.sigma2_inner.toExponential(2)}, ${first.analysis.leaveOneOut.length} leave-one-study-out refits`;
  return [
    { name: 'meta: 10,000 cells (read 20 rates files, effects, REML per model/study/overall, three-level, leave-one-study-out), median of 5', value: median(whole), unit: 's',
      baseline: median(repro), baselineName: `reproduce of the same 10,000 model–game pairs, ${REPS.toLocaleString('en-US')} reps, median of 5`, target: '≤ 1 s', note },
    { name: 'meta: the same, CPU time of the process (user + system), median of 5', value: median(wholeCpu), unit: 's', baseline: median(reproCpu), baselineName: 'reproduce, CPU time', target: '≤ 1 s', note: '' },
    { name: 'meta: the pooling alone on the 10,000 effects (no reading), median of 5', value: median(pooling), unit: 's', baseline: median(whole), baselineName: 'the whole meta call', note: `CPU ${median(poolingCpu).toFixed(3)} s` },
  ];
}
