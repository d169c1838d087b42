/**
 * The design matrix of a meta-regression: an intercept, then per moderator either one numeric
 * column (every value a finite number) or treatment-coded dummies (a column per level after the
 * first to appear; the first level is the reference, the intercept's).
 */
import type { EffectRow } from './effects.js';
import type { Design } from '../../stats/meta/wls.js';

/** Columns every effect row has, usable as moderators beside the study moderators. */
export const ROW_MODERATORS = ['study', 'model', 'game'] as const;

/** A row's value of a moderator: study, model, game, or one of its moderator columns. */
export function moderatorValue(row: EffectRow, name: string): string | undefined {
  if ((ROW_MODERATORS as readonly string[]).includes(name)) return row[name as 'study' | 'model' | 'game'];
  return row.moderators[name];
}

const NUMBER = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

export interface MetaDesign {
  readonly X: Design;
  /** Term name per column: "intercept", "ablat", "alloc=random". */
  readonly terms: readonly string[];
  /** How each moderator was coded. */
  readonly coding: readonly { readonly moderator: string; readonly kind: 'numeric' | 'categorical'; readonly reference?: string; readonly levels?: readonly string[] }[];
}

export function metaDesign(rows: readonly EffectRow[], moderators: readonly string[]): MetaDesign {
  const k = rows.length;
  const X: Float64Array[] = [new Float64Array(k).fill(1)];
  const terms = ['intercept'];
  const coding: MetaDesign['coding'][number][] = [];
  for (const m of moderators) {
    const values = rows.map((r) => moderatorValue(r, m) ?? '');
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
  return { X, terms, coding };
}
