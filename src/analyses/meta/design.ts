/**
 * The design matrix of a meta-regression: an intercept, then per moderator either one numeric
 * column (every value a finite number) or treatment-coded dummies (a column per level after the
 * first to appear; the first level is the reference, the intercept's). A moderator that names no
 * column, or does not vary, is refused; a column that is an exact linear combination of the ones
 * before it (collinear moderators) is dropped, as metafor's rma drops redundant predictors.
 */
import { UserError } from '../../core/errors.js';
import type { EffectRow } from './effects.js';
import type { Design } from '../../stats/meta/wls.js';
import { analysesMetaMsg } from './messages.js';

/** Columns every effect row has, usable as moderators beside the study moderators. */
export const ROW_MODERATORS = ['study', 'model', 'game'] as const;

export const isRowModerator = (name: string): boolean => (ROW_MODERATORS as readonly string[]).includes(name);

/** A row's value of a moderator: study, model, game, or one of its own moderator columns (never a property of Object's prototype). */
export function moderatorValue(row: EffectRow, name: string): string | undefined {
  if (isRowModerator(name)) return row[name as 'study' | 'model' | 'game'];
  return Object.hasOwn(row.moderators, name) ? row.moderators[name] : undefined;
}

const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

export interface MetaDesign {
  readonly X: Design;
  /** Term name per column: "intercept", "ablat", "alloc=random". */
  readonly terms: readonly string[];
  /** How each moderator was coded. */
  readonly coding: readonly { readonly moderator: string; readonly kind: 'numeric' | 'categorical'; readonly reference?: string;
    readonly levels?: readonly string[] }[];
  /** Terms dropped as exact linear combinations of the columns before them. */
  readonly dropped: readonly string[];
}

/** Why a moderator cannot enter the regression (it names no column of some row, or takes one value only), or undefined. */
export function moderatorProblem(rows: readonly EffectRow[], m: string): string | undefined {
  const values = rows.map((r) => moderatorValue(r, m));
  const missing = values.findIndex((v) => v === undefined);
  if (missing >= 0) return analysesMetaMsg.moderatorMissing(m, rows[missing].study);
  const found = values as string[];
  const same = (v: string) => v.trim() === found[0].trim() || (NUMBER.test(v) && NUMBER.test(found[0]) && Number(v) === Number(found[0]));
  if (found.length > 0 && found.every(same)) return analysesMetaMsg.moderatorConstant(m, found[0]);
  return undefined;
}

/** A moderator's values; a UserError when it cannot enter the regression. */
function moderatorValues(rows: readonly EffectRow[], m: string): string[] {
  const problem = moderatorProblem(rows, m);
  if (problem) throw new UserError(problem);
  return rows.map((r) => moderatorValue(r, m)!);
}

/**
 * The columns kept: each in turn unless its residual after projection on the kept ones (modified
 * Gram–Schmidt, unweighted) has norm below 1e-7 of its own — the rule of R's lm (its QR's
 * tolerance), which metafor's rma uses to find redundant predictors.
 */
export function independentColumns(X: Design): boolean[] {
  const basis: Float64Array[] = [];
  return X.map((col) => {
    const r = Float64Array.from(col);
    const norm = norm2(col);
    for (const q of basis) {
      let d = 0;
      for (let i = 0; i < r.length; i++) d += q[i] * r[i];
      for (let i = 0; i < r.length; i++) r[i] -= d * q[i];
    }
    const rest = norm2(r);
    if (!(rest > 1e-7 * norm)) return false;
    basis.push(r.map((x) => x / rest));
    return true;
  });
}

/** The Euclidean norm, scaled by the largest |xᵢ| so that columns of 1e200 or 1e-200 neither overflow nor underflow. */
function norm2(x: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  if (!(m > 0) || !Number.isFinite(m)) return m;
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] / m) * (x[i] / m);
  return m * Math.sqrt(s);
}

export function metaDesign(rows: readonly EffectRow[], moderators: readonly string[]): MetaDesign {
  const k = rows.length;
  const X: Float64Array[] = [new Float64Array(k).fill(1)];
  const terms = ['intercept'];
  const coding: MetaDesign['coding'][number][] = [];
  for (const m of moderators) {
    const values = moderatorValues(rows, m);
    if (values.every((v) => NUMBER.test(v))) {
      X.push(Float64Array.from(values, Number));
      terms.push(m);
      coding.push({ moderator: m, kind: 'numeric' });
      continue;
    }
    const levels = [...new Set(values)];
    for (const level of levels.slice(1)) {
      X.push(Float64Array.from(values, (v) => (v === level ? 1 : 0)));
      terms.push(`${m}=${level}`);
    }
    coding.push({ moderator: m, kind: 'categorical', reference: levels[0], levels });
  }
  const keep = independentColumns(X);
  return { X: X.filter((_, j) => keep[j]), terms: terms.filter((_, j) => keep[j]), coding, dropped: terms.filter((_, j) => !keep[j]) };
}
