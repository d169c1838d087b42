/**
 * Display names in a meta-analysis (`--names FILE`, the manifest's `names:` block): the figures,
 * the report and the terminal show a study's, model's or game's name; the CSVs and meta.json keep
 * the ids and add the names (`*_name` columns, a `names` map).
 */
import { displayNames, shown, type DisplayNames } from '../../core/display-names.js';
import type { MetaAnalysis } from './pool.js';

/** The fields of an effect row a display name can name. */
export const NAMED_FIELDS = ['study', 'model', 'game'] as const;

const SCOPE = /^(model|study): (.*)$/s;

/** A pooled row's scope with its id shown by name ("model: GPT-4" for "model: act_gpt4"). */
export function shownScope(names: DisplayNames | undefined, scope: string): string {
  const m = SCOPE.exec(scope);
  return m ? `${m[1]}: ${shown(names, m[2])}` : scope;
}

/** The scopes of the pooled rows named (scope → its shown scope), for meta.csv's scope_name column. */
export function scopeNames(a: MetaAnalysis, names: DisplayNames | undefined): DisplayNames | undefined {
  if (!names) return undefined;
  return displayNames(a.pooled.map((p) => [p.scope, shownScope(names, p.scope)] as const).filter(([id, name]) => id !== name));
}

/** The analysis with display names in place of ids (for figures, the report and the terminal; the tables keep the ids). */
export function namedMeta(a: MetaAnalysis, names: DisplayNames | undefined): MetaAnalysis {
  if (!names || Object.keys(names).length === 0) return a;
  const n = (id: string) => shown(names, id);
  return {
    ...a,
    effects: a.effects.map((r) => ({ ...r, study: n(r.study), model: n(r.model), game: n(r.game) })),
    pooled: a.pooled.map((p) => ({ ...p, scope: shownScope(names, p.scope) })),
    leaveOneOut: a.leaveOneOut.map((r) => ({ ...r, left_out: n(r.left_out) })),
    influence: a.influence.map((r) => ({ ...r, study: n(r.study), model: n(r.model), game: n(r.game) })),
  };
}
