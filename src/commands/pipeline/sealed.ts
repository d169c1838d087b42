/**
 * `analyze` of a sealed store (preregister.ts): the plan's analysis settings are the defaults of
 * the flags, a flag given that differs makes the analysis exploratory (labelled so), and each
 * hypothesis is adjudicated (reports/verdicts.csv, reports/verdicts.md) with the deviations from
 * the plan listed: trials lost or invalid beyond the stated rate, model snapshots that changed,
 * trials stored before the seal.
 */
import { sealedRun, storedDesign } from '../../sources/store.js';
import { storeReader } from '../../sources/open-run.js';
import { storeGuard } from '../../live/store/integrity.js';
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { Logger } from '../../core/logger.js';
import type { TrialStore } from '../../live/store/store.js';
import { modelSnapshots, promptRegistry, readSeal, runTimes, type StoreSeal } from '../../live/store/seal.js';
import { preregistration, type Plan } from '../../analyses/preregistration/index.js';
import type { StoreAnalyzeOptions } from './store-settings.js';
import { defaultAnalyzeOut } from './store-settings.js';
import { pipelineMsg } from './messages.js';

/** The analysis settings of a plan, as analyze's options and the flags that give them. */
const SETTINGS = [['base', '--base'], ['alt', '--alt'], ['seed', '--seed'], ['reps', '--reps'], ['interval', '--interval'],
  ['attenuation', '--attenuation']] as const;

export interface SealedAnalysis {
  readonly seal: StoreSeal;
  readonly plan: Plan;
  /** The flags given that differ from the plan. */
  readonly exploratory: readonly string[];
  /** The options with the plan's settings where no flag was given. */
  readonly opts: StoreAnalyzeOptions;
}

/** The seal of the store and the options it implies, or undefined for a store without a seal. */
export function sealedOptions(opts: StoreAnalyzeOptions): SealedAnalysis | undefined {
  const seal: StoreSeal | undefined = storeGuard(opts.store, (store) => readSeal(store.database), storeReader(opts.store));
  if (!seal) return undefined;
  const plan = JSON.parse(seal.planJson) as Plan;
  const exploratory: string[] = [];
  const merged: Record<string, unknown> = { ...opts };
  for (const [key, flag] of SETTINGS) {
    const planned = plan.analysis[key];
    const given = opts[key];
    if (given !== undefined && given !== planned) exploratory.push(`${flag} ${String(given)}`);
    if (given === undefined && planned !== undefined) merged[key] = planned;
  }
  return { seal, plan, exploratory, opts: merged as unknown as StoreAnalyzeOptions };
}

/** The deviations of the sealed run from the plan, one line each. */
function deviations(store: TrialStore, runId: number, s: SealedAnalysis, times: { first: string | null }): string[] {
  const out: string[] = [];
  const d = storedDesign(s.seal); // the design sealed with the plan, read as the store's designs are
  const planned = (d.trials ?? 0) * (d.models?.length ?? 0) * (d.games?.length ?? 0) * (d.framings?.length ?? 0);
  const c = store.statusCounts(runId);
  const lost = Math.max(0, planned - c.ok - c.invalid);
  const rate = planned > 0 ? (lost + c.invalid) / planned : 0;
  if (rate > s.plan.max_lost_rate) {
    out.push(`${lost} of ${planned} planned trials lost and ${c.invalid} invalid (${(100 * rate).toFixed(1)}%), ` +
      `beyond the stated ${100 * s.plan.max_lost_rate}%`);
  }
  for (const [model, snaps] of modelSnapshots(store.database, runId)) {
    if (snaps.length > 1) out.push(`model ${model}'s snapshot changed during the run: ${snaps.join(', ')}`);
  }
  if (times.first !== null && times.first < s.seal.sealed) out.push(`a trial was stored (${times.first}) before the seal (${s.seal.sealed})`);
  if (s.exploratory.length > 0) out.push(pipelineMsg.exploratory(s.exploratory));
  return out;
}

/** Adjudicate the plan on the sealed run: reports/verdicts.csv and reports/verdicts.md, written with the analysis's files (store-analysis.ts). */
export function verdictFiles(s: SealedAnalysis, opts: StoreAnalyzeOptions, logger: Logger): OutputFile[] {
  return storeGuard(opts.store, (store) => {
    const run = sealedRun(store, opts.store, s.seal)!;
    const cells = store.cellCounts(run.id).map((c) => ({ model: c.model, game: c.game, framing: c.framing, x: c.validC, n: c.validC + c.validD }));
    const rows = preregistration.adjudicate(s.plan, cells);
    const times = runTimes(store.database, run.id);
    const report = {
      planSha256: s.seal.planSha256, sealed: s.seal.sealed, firstTrial: times.first, lastTrial: times.last, alpha: s.plan.alpha,
      correction: s.plan.correction, deviations: deviations(store, run.id, s, times), exploratory: s.exploratory,
      prompts: promptRegistry(store.database, run.id),
    };
    const dir = join(opts.out ?? defaultAnalyzeOut(opts.store), 'reports');
    const csv = join(dir, 'verdicts.csv');
    if (s.exploratory.length > 0) logger.warn(pipelineMsg.exploratory(s.exploratory));
    logger.info(pipelineMsg.verdictsLine(rows.filter((r) => r.verdict === 'supported').length, rows.length, csv));
    return [{ path: csv, content: preregistration.verdictsCsv(rows, report) },
      { path: join(dir, 'verdicts.md'), content: preregistration.verdictsSection(rows, report) }];
  }, storeReader(opts.store));
}
