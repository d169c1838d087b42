/**
 * Pooling an effect table (docs/methods.md, "Meta-analysis"): per model over its games and
 * studies, per study, and overall (random effects by default); the three-level model of cells
 * within studies when there are two studies or more and one holds two cells; a meta-regression on the moderators; the
 * overall estimate with each study left out.
 */
import { canonicalGameName } from '../../core/games.js';
import { fileNumber } from '../../core/format.js';
import { fitUnivariate, type MetaSettings, type UnivariateFit } from '../../stats/meta/univariate.js';
import { fitMultilevel, MIN_GROUPS_INTERVAL, type MultilevelFit } from '../../stats/meta/multilevel.js';
import { tau2Interval } from '../../stats/meta/tau2-interval.js';
import { multilevelIntervals } from '../../stats/meta/multilevel-profile.js';
import { EFFECT_RANGE, type EffectMeasure } from '../../stats/meta/effect-size.js';
import type { EffectRow } from './effects.js';
import { metaDesign, type MetaDesign } from './design.js';
import { analysesMetaMsg } from './messages.js';
import { cellInfluence, type CellInfluence } from './influence.js';
import { smallStudy, type SmallStudy } from './small-study.js';
import { multilevelRegression, type MultilevelRegressionResult } from './regression-multilevel.js';

/** What the effects alone do not tell: whether every study is a direct run of the user's own (then no small-study tests). */
export interface MetaContext { readonly directRuns?: boolean }

export interface MetaAnalysisSettings extends MetaSettings {
  readonly effect: EffectMeasure;
  /** Moderators of the meta-regression (none: no regression). */
  readonly moderators: readonly string[];
}

/** A pooled estimate with its confidence and prediction intervals. */
interface PooledEstimate {
  readonly k: number;
  readonly estimate: number;
  readonly se: number;
  readonly ci_lo: number;
  readonly ci_hi: number;
  readonly pi_lo: number;
  readonly pi_hi: number;
}

/** A prediction interval that may have been cut at the effect's range. */
interface Clipped { readonly pi_clipped: boolean }

/** Below this many cells (studies, for the three-level model) a prediction interval comes with a warning; below 3 there is none. */
export const PI_FEW = 5;

export interface PooledRow extends PooledEstimate, Clipped {
  /** "overall", "model: GPT-4", "study: lore-heydari-2024". */
  readonly scope: string;
  readonly tau2: number;
  readonly I2: number;
  readonly H2: number;
  readonly Q: number;
  readonly Q_df: number;
  readonly Q_p: number;
  /** The Q-profile interval of τ² and the I² interval it gives (stats/meta/tau2-interval.ts); NaN under fixed pooling. */
  readonly tau2_lo: number;
  readonly tau2_hi: number;
  readonly I2_lo: number;
  readonly I2_hi: number;
  readonly H2_lo: number;
  readonly H2_hi: number;
}

export interface MultilevelRow extends MultilevelFit, Clipped {
  readonly studies: number;
  /** Profile-likelihood intervals of σ²_study and σ²_cell (stats/meta/multilevel-profile.ts); NaN when not found. */
  readonly sigma2_study_lo: number;
  readonly sigma2_study_hi: number;
  readonly sigma2_cell_lo: number;
  readonly sigma2_cell_hi: number;
  readonly Q: number;
  readonly Q_df: number;
  readonly Q_p: number;
}

export interface Regression {
  readonly design: MetaDesign;
  readonly fit: UnivariateFit;
  /** The same moderators in the three-level model, when it is identified (random pooling). */
  readonly multilevel?: MultilevelRegressionResult;
}

export interface LeaveOneOutRow extends PooledEstimate {
  readonly left_out: string;
  readonly fit: 'three-level' | 'random effects' | 'fixed effect';
}

export interface MetaAnalysis {
  readonly settings: MetaAnalysisSettings;
  readonly effects: readonly EffectRow[];
  readonly pooled: readonly PooledRow[];
  readonly multilevel?: MultilevelRow;
  readonly regression?: Regression;
  readonly leaveOneOut: readonly LeaveOneOutRow[];
  /** Each cell's influence on the overall estimate (influence.ts); empty below 3 cells. */
  readonly influence: readonly CellInfluence[];
  /** The small-study tests over the cells, or why they were not run (small-study.ts). */
  readonly smallStudy: SmallStudy;
  /** What was not pooled, and why, in words. */
  readonly notes: readonly string[];
}

/** What a printed fit's τ² iteration did that a reader must know: it did not converge, or τ² was set to 0 at the boundary. */
function tau2Notes(scope: string, f: UnivariateFit, s: MetaAnalysisSettings, notes: string[]): void {
  if (s.pooling === 'fixed') return;
  if (!f.tau2Converged) notes.push(analysesMetaMsg.notConverged(scope, s.tau2));
  if (f.tau2Boundary) notes.push(analysesMetaMsg.tau2Boundary(scope, s.tau2));
}

const column = (rows: readonly EffectRow[], f: 'yi' | 'vi') => Float64Array.from(rows, (r) => r[f]);

function pooledRow(scope: string, rows: readonly EffectRow[], s: MetaAnalysisSettings, notes: string[]): PooledRow | undefined {
  if (rows.length < 2) { notes.push(analysesMetaMsg.tooFewCells(scope, rows.length)); return undefined; }
  const f = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), s);
  if (!f) { notes.push(analysesMetaMsg.notFitted(scope)); return undefined; }
  tau2Notes(scope, f, s, notes);
  const c = f.coefficients[0];
  const qp = s.pooling === 'random' ? tau2Interval(column(rows, 'yi'), column(rows, 'vi'), s.level) : undefined;
  return {
    scope, k: f.k, estimate: c.estimate, se: c.se, ci_lo: c.ci_lo, ci_hi: c.ci_hi, ...withinRange(f.pi_lo, f.pi_hi, s.effect),
    tau2: f.tau2, I2: f.I2, H2: f.H2, Q: f.Q, Q_df: f.Q_df, Q_p: f.Q_p,
    tau2_lo: qp?.tau2_lo ?? NaN, tau2_hi: qp?.tau2_hi ?? NaN, I2_lo: qp?.I2_lo ?? NaN, I2_hi: qp?.I2_hi ?? NaN,
    H2_lo: qp?.H2_lo ?? NaN, H2_hi: qp?.H2_hi ?? NaN,
  };
}

/** A prediction interval kept inside the effect's range (a shift within [−1, 1]), and whether it was cut. */
function withinRange(lo: number, hi: number, effect: EffectMeasure): { pi_lo: number; pi_hi: number; pi_clipped: boolean } {
  const [min, max] = EFFECT_RANGE[effect];
  const clipped = lo < min || hi > max;
  return { pi_lo: Math.max(min, lo), pi_hi: Math.min(max, hi), pi_clipped: clipped };
}

/** One note each for the prediction intervals cut at the effect's range and for those from fewer than 5 cells (or studies). */
function predictionNotes(a: { pooled: readonly PooledRow[]; multilevel?: MultilevelRow }, effect: EffectMeasure): string[] {
  const rows: { scope: string; k: number; pi_lo: number; pi_clipped: boolean }[] = [...a.pooled];
  if (a.multilevel) rows.push({ ...a.multilevel, scope: 'three-level', k: a.multilevel.studies });
  const few = rows.filter((r) => Number.isFinite(r.pi_lo) && r.k < PI_FEW).map((r) => r.scope);
  const cut = rows.filter((r) => r.pi_clipped).map((r) => r.scope);
  return [
    ...(few.length ? [analysesMetaMsg.fewForPrediction(few, PI_FEW)] : []),
    ...(cut.length ? [analysesMetaMsg.predictionClipped(cut, EFFECT_RANGE[effect])] : []),
  ];
}

/** Rows grouped by a key, groups in first-appearance order. */
function groupBy(rows: readonly EffectRow[], key: (r: EffectRow) => string): Map<string, EffectRow[]> {
  const m = new Map<string, EffectRow[]>();
  for (const r of rows) { const k = key(r); if (!m.has(k)) m.set(k, []); m.get(k)!.push(r); }
  return m;
}

/** The three-level model of cells within studies, with the fixed-effect Q of its cells; none (said) when it is not identified. */
function multilevel(rows: readonly EffectRow[], s: MetaAnalysisSettings, notes: string[]): MultilevelRow | undefined {
  if (!identified(rows)) { notes.push(analysesMetaMsg.multilevelNotIdentified()); return undefined; }
  const fit = threeLevel(rows, s);
  const q = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), { ...s, pooling: 'fixed', test: 'z' });
  if (!fit || !q) { notes.push(analysesMetaMsg.notFitted('three-level')); return undefined; }
  if (fit.studies < MIN_GROUPS_INTERVAL) notes.push(analysesMetaMsg.multilevelNoInterval(fit.studies));
  const pl = multilevelIntervals(column(rows, 'yi'), column(rows, 'vi'), studyIndex(rows), s.level);
  return {
    ...fit, ...withinRange(fit.pi_lo, fit.pi_hi, s.effect), Q: q.Q, Q_df: q.Q_df, Q_p: q.Q_p,
    sigma2_study_lo: pl?.sigma2_outer.lo ?? NaN, sigma2_study_hi: pl?.sigma2_outer.hi ?? NaN,
    sigma2_cell_lo: pl?.sigma2_inner.lo ?? NaN, sigma2_cell_hi: pl?.sigma2_inner.hi ?? NaN,
  };
}

/** Whether the study and cell variances can be told apart: some study holds two cells. */
function identified(rows: readonly EffectRow[]): boolean {
  return [...groupBy(rows, (r) => r.study).values()].some((cells) => cells.length >= 2);
}

/** The three-level fit alone, with its number of studies. */
function threeLevel(rows: readonly EffectRow[], s: MetaSettings): (MultilevelFit & { studies: number }) | undefined {
  const group = studyIndex(rows);
  const fit = fitMultilevel(column(rows, 'yi'), column(rows, 'vi'), group, s.level);
  return fit && { ...fit, studies: fit.groups };
}

/** Each row's study numbered 0, 1, … in first-appearance order. */
export function studyIndex(rows: readonly EffectRow[]): Int32Array {
  const index = new Map<string, number>();
  for (const r of rows) if (!index.has(r.study)) index.set(r.study, index.size);
  return Int32Array.from(rows, (r) => index.get(r.study)!);
}

function regression(rows: readonly EffectRow[], s: MetaAnalysisSettings, notes: string[]): Regression | undefined {
  if (s.moderators.length === 0) return undefined;
  const design = metaDesign(rows, s.moderators);
  if (design.dropped.length) notes.push(analysesMetaMsg.collinearDropped(design.dropped));
  const fit = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), s, design.X);
  if (!fit) { notes.push(analysesMetaMsg.regressionNotFitted(rows.length, design.terms.length)); return undefined; }
  tau2Notes('meta-regression', fit, s, notes);
  const three = s.pooling === 'random' && groupBy(rows, (r) => r.study).size >= 2 && identified(rows);
  return { design, fit, multilevel: three ? multilevelRegression(rows, design, studyIndex(rows), s, notes) : undefined };
}

/**
 * The overall estimate without each study: three-level while the studies left can give it an
 * interval (3 or more, one with two cells), else univariate.
 */
function leaveOneOut(rows: readonly EffectRow[], s: MetaAnalysisSettings): LeaveOneOutRow[] {
  const studies = [...groupBy(rows, (r) => r.study).keys()];
  if (studies.length < 2) return [];
  const out: LeaveOneOutRow[] = [];
  for (const left of studies) {
    const kept = rows.filter((r) => r.study !== left);
    const three = studies.length - 1 >= MIN_GROUPS_INTERVAL && s.pooling === 'random' && identified(kept);
    const m = three ? threeLevel(kept, s) : pooledRow('', kept, s, []);
    if (!m) continue;
    const fit = three ? 'three-level' : s.pooling === 'fixed' ? 'fixed effect' : 'random effects';
    const pi = withinRange(m.pi_lo, m.pi_hi, s.effect);
    out.push({ left_out: left, fit, k: m.k, estimate: m.estimate, se: m.se, ci_lo: m.ci_lo, ci_hi: m.ci_hi, pi_lo: pi.pi_lo, pi_hi: pi.pi_hi });
  }
  return out;
}

/**
 * A note for each pair of studies whose effects are identical: the same model × game cells with
 * the same yi and vi (as the files write them). Such a pair is usually one study's data read
 * twice (a figure digitized from the same counts), which pooling counts twice.
 */
function identicalStudies(effects: readonly EffectRow[]): string[] {
  const key = (rows: readonly EffectRow[]) => JSON.stringify(rows.map((r) => [r.model, r.game, fileNumber(r.yi), fileNumber(r.vi)]).sort());
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const [study, rows] of groupBy(effects, (r) => r.study)) {
    const k = key(rows);
    const first = seen.get(k);
    if (first === undefined) seen.set(k, study);
    else out.push(analysesMetaMsg.identicalStudies(first, study, rows.length));
  }
  return out;
}

/**
 * Pool an effect table. Games are keyed by their canonical name whatever the source calls them
 * (core/games.ts: a direct run's "prisoners-dilemma" and a paper's "Prisoner's Dilemma" are one
 * game), for every source kind and an effect table alike.
 */
export function metaAnalyze(given: readonly EffectRow[], settings: MetaAnalysisSettings, notes: string[] = [], context: MetaContext = {}): MetaAnalysis {
  const effects = given.map((r) => ({ ...r, game: canonicalGameName(r.game) }));
  const out = [...notes, ...identicalStudies(effects)];
  const pooled: PooledRow[] = [];
  const add = (r: PooledRow | undefined) => { if (r) pooled.push(r); };
  for (const [model, rows] of groupBy(effects, (r) => r.model)) add(pooledRow(`model: ${model}`, rows, settings, out));
  const byStudy = groupBy(effects, (r) => r.study);
  for (const [study, rows] of byStudy) add(pooledRow(`study: ${study}`, rows, settings, out));
  add(pooledRow('overall', effects, settings, out));
  const ml = byStudy.size >= 2 && settings.pooling === 'random' ? multilevel(effects, settings, out) : undefined;
  if (byStudy.size >= 2 && settings.pooling === 'fixed') out.push(analysesMetaMsg.noMultilevelFixed());
  out.push(...predictionNotes({ pooled, multilevel: ml }, settings.effect));
  const reg = regression(effects, settings, out);
  const influence = cellInfluence(effects, settings, out);
  const small = smallStudy(effects, settings, context.directRuns === true, out);
  return { settings, effects, pooled, multilevel: ml, regression: reg, leaveOneOut: leaveOneOut(effects, settings), influence, smallStudy: small, notes: out };
}
