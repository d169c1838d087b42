import type { BinaryObservations } from '../../core/cells.js';
import { cellRate, cellSize } from '../../core/cells.js';
import { ALL_GAMES, POOLED, stat } from '../../core/names.js';
import { shown as shownName, withNameColumns, type DisplayNames } from '../../core/display-names.js';
import type { TwoFramingAnalysis } from './analysis.js';
import { toCsv } from '../../render/csv.js';
import { allTable3Variants, andList, table3Columns, table3Statistics, table3Variants, variantStatistics, type Table3Column,
  type Table3Variant, BUILTIN_COLUMNS, FAMILY_R, withInterval } from '../../stats/table3.js';
import { framingTestRows, simultaneousTestRows, type FramingTestRow } from './framing-tests.js';
import { INVALID_BOUND_COLUMNS, invalidBounds, knowsInvalid, type InvalidBounds } from './invalid-bounds.js';

export interface Table2Row {
  model: string; game: string;
  base_rate: number; base_count: number; alt_rate: number; alt_count: number; difference: number;
}
/** A row of Table 3: the model, then each column's point and interval ends (stats/table3.ts: R, shift, …). */
export interface Table3Row {
  model: string; R: number; R_lo: number; R_hi: number; shift: number; shift_lo: number; shift_hi: number;
  readonly [statistic: string]: string | number;
}
export interface FamilyRow { model: string; game: string; R: number; R_lo: number; R_hi: number }

export const TABLE2_COLUMNS = ['model', 'game', 'base_rate', 'base_count', 'alt_rate', 'alt_count', 'difference'] as const;
/** The columns of table3.csv: the model, then each Table 3 column's point and ends, then those of the variants that apply. */
export const table3CsvColumns = (a?: TwoFramingAnalysis): string[] =>
  ['model', ...table3Statistics(), ...(a ? shownVariants(a).flatMap(variantStatistics) : [])];
/** The family robustness table's columns: R and its interval under the robustness column's name. */
export const FAMILY_COLUMNS: readonly string[] = ['model', 'game', ...withInterval(BUILTIN_COLUMNS.robustness.column)];

/** Count of a cell: x for binary cells, the summed probabilities for probability cells. */
function count(a: TwoFramingAnalysis, i: number): number {
  const obs = a.table.cells[i].obs;
  return obs.kind === 'binary' ? (obs as BinaryObservations).x : cellRate(obs) * cellSize(obs);
}

/** Table 2 of Same Game, Different Story: the rates the estimands use (x/n), counts, and the difference alt − base. */
export function table2Rows(a: TwoFramingAnalysis): Table2Row[] {
  return a.layout.pairs.map((p) => {
    const pb = cellRate(a.table.cells[p.baseIndex].obs);
    const ps = cellRate(a.table.cells[p.altIndex].obs);
    return {
      model: p.model, game: p.game,
      base_rate: pb, base_count: count(a, p.baseIndex),
      alt_rate: ps, alt_count: count(a, p.altIndex),
      difference: ps - pb,
    };
  });
}

/**
 * A statistic as Table 3 shows it: its simultaneous band under --simultaneous (per-model rows), else
 * its interval. With count cells the band spans the Bonferroni variant's too (R: the test
 * inversion's, shift: MOVER-Wilson's, simultaneousTestRows), so no band of a rate inside (0, 1) has
 * zero width where every replicate is alike (cells at 0/n).
 */
function shown(a: TwoFramingAnalysis, column: Table3Column, model: string, test?: FramingTestRow) {
  const name = stat(column.names.groupConservative, model);
  const v = a.boot.get(name);
  const band = a.bands?.ends.get(name);
  if (!band) return v;
  const variant = allTable3Variants().find((x) => x.of === column.column);
  const [, lo, hi] = test && variant ? variantValues(variant, test) : [NaN, NaN, NaN];
  return { point: v.point, lo: Number.isFinite(lo) ? Math.min(band[0], lo) : band[0], hi: Number.isFinite(hi) ? Math.max(band[1], hi) : band[1] };
}

/** Table 3's variants for this analysis (stats/table3.ts `table3Variants`: the one rule, by the kinds of its cells). */
export const shownVariants = (a: TwoFramingAnalysis): readonly Table3Variant[] => table3Variants(a.table.cells.map((c) => c.obs.kind));

/** The caption's words for the variants shown: "; R corrected with its 95 % test-inversion interval, …" (empty when none). */
export function variantsNote(variants: readonly Table3Variant[]): string {
  if (!variants.length) return '';
  const each = variants.map((v) => (v.point ? `${v.label} with its` : `the ${v.label.toLowerCase()}'s`) + ` ${v.interval} interval`);
  return `; beside them ${andList(each)} (methods.md §8.5)`;
}

/** A variant's point and ends from the R = 1 test's row of the same group (framing-tests.ts): the one mapping of variants to the test's fields. */
function variantValues(v: Table3Variant, t: FramingTestRow): [number, number, number] {
  return v.of === BUILTIN_COLUMNS.robustness.column ? [t.R_corrected, t.R_test_lo, t.R_test_hi] : [t.shift, t.shift_wilson_lo, t.shift_wilson_hi];
}

/** A variant's table3.csv entries from the R = 1 test's row of the same group. */
function variantEntries(v: Table3Variant, t: FramingTestRow): [string, number][] {
  const [point, lo, hi] = variantValues(v, t);
  return [...(v.point ? [[v.column, point] as [string, number]] : []), [`${v.column}_lo`, lo], [`${v.column}_hi`, hi]];
}

/**
 * Table 3 of Same Game, Different Story: each column's conservative value per model (input order),
 * then Pooled; then the variants that apply (`shownVariants`), each under its own name.
 */
export function table3Rows(a: TwoFramingAnalysis): Table3Row[] {
  const variants = shownVariants(a);
  const tests = variants.length ? new Map(framingTestRows(a).filter((r) => r.game === ALL_GAMES).map((r) => [r.model, r])) : undefined;
  // --simultaneous: the per-model variants at their Bonferroni level (Pooled stays pointwise)
  if (tests && a.bands) for (const r of simultaneousTestRows(a)) tests.set(r.model, r);
  return [...a.layout.models, POOLED].map((m) => Object.fromEntries([['model', m], ...table3Columns().flatMap((c) => {
    const v = shown(a, c, m, tests?.get(m));
    return [[c.column, v.point], [`${c.column}_lo`, v.lo], [`${c.column}_hi`, v.hi]];
  }), ...variants.flatMap((v) => variantEntries(v, tests!.get(m)!))]) as Table3Row);
}

/** Family robustness over every framing present: per model–game, per model (All), pooled. */
export function familyRows(a: TwoFramingAnalysis): FamilyRow[] {
  if (!a.family) return [];
  const row = (model: string, game: string, name: string): FamilyRow => {
    const v = a.boot.get(name);
    return { model, game, R: v.point, R_lo: v.lo, R_hi: v.hi };
  };
  return [
    ...a.family.groups.map((g) => row(g.model, g.game, stat(FAMILY_R, g.model, g.game))),
    ...a.family.models.map((m) => row(m, 'All', stat(FAMILY_R, m))),
    row(POOLED, 'All', stat(FAMILY_R, POOLED)),
  ];
}

/** The display name of a level: Pooled and All are the tables' own rows and keep their words (as in the LaTeX). */
const levelName = (names: DisplayNames | undefined, v: string) => (v === POOLED || v === ALL_GAMES ? v : shownName(names, v));

/** A table's CSV: the ids, and with display names a `<column>_name` column (after the others) per key column (model, game) with a named level. */
function rowsCsv<T extends object>(columns: readonly (keyof T & string)[] | readonly string[], rows: readonly T[], names?: DisplayNames): string {
  const keys = ['model', 'game'].filter((c) => (columns as readonly string[]).includes(c));
  const t = withNameColumns(names, columns, rows.map((r) => columns.map((c) => (r as Record<string, unknown>)[c] as string | number)), keys,
    (v) => levelName(names, v));
  return toCsv(t.header, t.rows);
}

/** Table 2's CSV; a direct run adds each cell's invalid share and the worst-case bounds (new columns after the paper's); display names last. */
export function table2Csv(a: TwoFramingAnalysis, names?: DisplayNames): string {
  if (!knowsInvalid(a.table)) return rowsCsv<Table2Row>(TABLE2_COLUMNS, table2Rows(a), names);
  const rows = table2Rows(a).map((r, i) => ({ ...r, ...invalidBounds(a.table, a.layout.pairs[i]) }));
  return rowsCsv<Table2Row & InvalidBounds>([...TABLE2_COLUMNS, ...INVALID_BOUND_COLUMNS], rows, names);
}
export const table3Csv = (a: TwoFramingAnalysis, names?: DisplayNames) => rowsCsv<Table3Row>(table3CsvColumns(a), table3Rows(a), names);
export const familyCsv = (a: TwoFramingAnalysis, names?: DisplayNames) => rowsCsv<FamilyRow>(FAMILY_COLUMNS, familyRows(a), names);
