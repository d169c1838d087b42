/**
 * Display names on a selective-robustness analysis (`--names FILE`, a design's `names:` block): the
 * models as the figure, the report and the terminal show them. The CSV files keep the ids the store
 * holds and add a `model_name` column, selective.json a `names` map (outputs.ts), the Markdown keeps
 * the ids; the conditions keep theirs (their descriptions are keyed by id).
 */
import { shown, type DisplayNames } from '../../core/display-names.js';
import type { SelectiveAnalysis } from './types.js';

type Named = Pick<SelectiveAnalysis, 'facts' | 'layout' | 'rows' | 'cells' | 'imputation'>;

/** The analysis with its models shown by their display names (unchanged without names). */
export function namedSelective<A extends Named>(a: A, names: DisplayNames | undefined): A {
  if (names === undefined || Object.keys(names).length === 0) return a;
  const name = (id: string) => shown(names, id);
  const model = <R extends { readonly model: string }>(r: R): R => ({ ...r, model: name(r.model) });
  return {
    ...a,
    facts: { ...a.facts, models: a.facts.models.map(name), simulated: a.facts.simulated.map(name) },
    layout: { ...a.layout, models: a.layout.models.map(name), groups: a.layout.groups.map(model) },
    rows: a.rows.map(model), cells: a.cells.map(model), imputation: { ...a.imputation, rows: a.imputation.rows.map(model) },
  };
}
