/**
 * Table 3's statistics as one column spec (Same Game, Different Story §4.2): for each column its
 * name, declared bounds, per-cell formula, conservative transform, how it is shown and named, and
 * the conclusion the provenance audit tests on it. The two-framing estimand, table3.csv, the
 * terminal table, the report, metrics.json, the checks, the published-value names of `--expect`,
 * the coverage study, the Table 3 figures, table3.tex and the audit all derive from this list; a
 * new statistic is one entry here (`registerTable3Column` adds one at run time).
 */
import { ROBUSTNESS, SHIFT, type StatInfo } from './bootstrap.js';
import { robustness2 } from './jsd.js';

export interface Table3Column {
  /** table3.csv's columns `<column>`, `<column>_lo`, `<column>_hi`; the statistic of a published value. */
  readonly column: string;
  /** Its header in the terminal and report tables. */
  readonly label: string;
  /** Declared bounds (checks select statistics by them). */
  readonly info: StatInfo;
  /** The raw value of one model–game from its base and alternative rates. */
  cell(pBase: number, pAlt: number): number;
  /**
   * The conservative transform with attenuation a. Affine, so the mean of the transformed cells is
   * the transform of the mean of the raw ones (a group's value is computed from its raw mean).
   */
  conservative(raw: number, a: number): number;
  /**
   * The names of a cell's raw and conservative value and of a group's (model, pooled), one spelling
   * each for the bootstrap statistics and the keys of metrics.json: a raw value ends in `_raw` (R2
   * is the paper's name of a cell's raw R), a cell's conservative value in `_conservative`, and a
   * group's conservative values are Table 3's columns.
   */
  readonly names: { readonly cell: string; readonly cellConservative: string; readonly group: string; readonly groupConservative: string };
  /** How prose, the figures and LaTeX name it (`noun`, `named`). */
  readonly text: Table3Text;
  /** What the provenance audit searches of it; a column without one is left out of the audit. */
  readonly audit?: Table3Audit;
  /**
   * How `--pooling random` pools it over games (analyses/meta/table3-random.ts): as the risk
   * difference of metafor's escalc (`difference`: the formula is p_alt − p_base), on the
   * Jensen–Shannon distance √(1 − value) mapped back (`distance`: R); absent, its per-pair
   * conservative values with delta-method variances of the formula.
   */
  readonly pooling?: 'difference' | 'distance';
}

/** The words for a column: the quantity and its symbol ("robustness", "R"), and a short table header. */
export interface Table3Text {
  /** The quantity in running text, lower case: "robustness", "action shift". */
  readonly quantity: string;
  /** Its symbol, when it has one ("R"): running text then says the symbol, a title "robustness R". */
  readonly symbol?: string;
  /** The header of LaTeX Table 3 ("R", "Shift"; "<short> low", "<short> high" for the interval). */
  readonly short: string;
  /** The conservative transform as written in the audit's attenuation sweep ("R_c = 1 − a(1 − R2)"). */
  readonly formula: string;
}

/**
 * The conclusion the audit tests on a column (the shift differs from 0; R lies below 1), whose
 * tipping point it searches, and what its searches may use (docs/methods.md, the audit).
 */
export interface Table3Audit {
  /**
   * The conclusion: the group's interval excludes `value` — on either side (`either`: the shift
   * excludes 0, its sign is the observed one), or from below (`below`: R excludes 1; R ≤ 1).
   */
  readonly excludes: { readonly value: number; readonly side: 'either' | 'below' };
  /** Whose conclusion is searched: Pooled only, or Pooled and every model. */
  readonly groups: 'pooled' | 'every';
  /** Its place in the report's list of conclusions (lower first; ties in column order). */
  readonly order: number;
  /**
   * The per-cell formula increases with p_alt and decreases with p_base (the shift): its point
   * extremes under reading error are at the corners of each pair's box, where otherwise every
   * table of the box is tried.
   */
  readonly monotone?: boolean;
  /**
   * The formula costs more than a table read (R2's logarithms): the searches look it up in a table
   * per (n_base, n_alt) of every pair of counts; a cheap one (the shift's difference) is evaluated
   * per replicate. The values are the same bits either way.
   */
  readonly tabulate?: boolean;
  /**
   * The formula equals `excludes.value` exactly when a pair's two rates are equal (R2 = 1, |Δ| = 0),
   * its extreme: the conclusion falls only when enough replicates have equal rates in every pair.
   * The search then starts from every pair at equal rates at 0/n or n/n and may move a pair's two
   * cells together, as greedy single-count steps stall short of equal replicate rates.
   */
  readonly valueAtEqualRates?: boolean;
  /**
   * The models' order by this column's point value is a conclusion too, its tipping point found
   * exactly by dynamic programming (tipping-order.ts). The formula must be concave in the two
   * rates, as R2 = 1 − JSD/ln 2 is: the search of large budgets relies on it.
   */
  readonly ordersModels?: boolean;
}

const R: Table3Column = {
  column: 'R', label: 'R', info: ROBUSTNESS,
  cell: robustness2,
  conservative: (r, a) => 1 - a * (1 - r),
  names: { cell: 'R2', cellConservative: 'R2_conservative', group: 'R_raw', groupConservative: 'R' },
  text: { quantity: 'robustness', symbol: 'R', short: 'R', formula: 'R_c = 1 − a(1 − R2)' },
  audit: { excludes: { value: 1, side: 'below' }, groups: 'pooled', order: 1, tabulate: true, valueAtEqualRates: true, ordersModels: true },
  pooling: 'distance',
};

const SHIFT_COLUMN: Table3Column = {
  column: 'shift', label: 'Action shift', info: SHIFT,
  cell: (pBase, pAlt) => pAlt - pBase,
  conservative: (d, a) => a * d,
  names: { cell: 'shift_raw', cellConservative: 'shift_conservative', group: 'shift_raw', groupConservative: 'shift' },
  text: { quantity: 'action shift', short: 'Shift', formula: 'shift_c = a·Δ' },
  audit: { excludes: { value: 0, side: 'either' }, groups: 'every', order: 0, monotone: true },
  pooling: 'difference',
};

const COLUMNS: Table3Column[] = [R, SHIFT_COLUMN];

/** The built-in columns, by their role, for the places that name one (a default, a statistic's own machinery). */
export const BUILTIN_COLUMNS = { robustness: R, shift: SHIFT_COLUMN } as const;

/**
 * The family robustness over every framing present (analyses/two-framing/family.ts), a statistic
 * beside Table 3's columns: stat(FAMILY_R, model, game), stat(FAMILY_R, model), stat(FAMILY_R, Pooled).
 */
export const FAMILY_R = 'Rfam';

/** Table 3's columns, in order. */
export const table3Columns = (): readonly Table3Column[] => COLUMNS;

/** Add a column after the others (a plug-in statistic, a test); returns the function that removes it again. */
export function registerTable3Column(c: Table3Column): () => void {
  if (COLUMNS.some((x) => x.column === c.column)) throw new Error(`Table 3 already has a column ${c.column}`);
  COLUMNS.push(c);
  return () => { const i = COLUMNS.indexOf(c); if (i >= 0) COLUMNS.splice(i, 1); };
}

/** The statistics of table3.csv (and of published Table 3 values): each column's point, lower and upper end. */
/** A column with its interval's ends: `<column>`, `<column>_lo`, `<column>_hi`. */
export const withInterval = (column: string): string[] => [column, `${column}_lo`, `${column}_hi`];
export const table3Statistics = (): string[] => COLUMNS.flatMap((c) => withInterval(c.column));

/** The columns the audit searches (those that declare a conclusion), in column order. */
export const auditedColumns = (): readonly Table3Column[] => COLUMNS.filter((c) => c.audit !== undefined);

/** The audited columns in the order of their conclusions (`audit.order`; ties in column order). */
export const inConclusionOrder = (columns: readonly Table3Column[]): Table3Column[] =>
  columns.filter((c) => c.audit).sort((a, b) => a.audit!.order - b.audit!.order);

/** The column named `column`; throws when Table 3 has none (a name from another thread's spec, a typo). */
export function table3Column(column: string): Table3Column {
  const c = COLUMNS.find((x) => x.column === column);
  if (!c) throw new Error(`Table 3 has no column ${column}`);
  return c;
}

/** A column in running text ("R", "action shift"). */
export const noun = (c: Table3Column): string => c.text.symbol ?? c.text.quantity;
/** A column where a title first names it ("robustness R", "action shift"). */
export const named = (c: Table3Column): string => (c.text.symbol ? `${c.text.quantity} ${c.text.symbol}` : c.text.quantity);
/** Words joined as prose: "a", "a and b", "a, b and c". */
export const andList = (words: readonly string[]): string =>
  (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);

/**
 * A second estimator or interval of a Table 3 column, shown beside the column under its own name
 * (docs/methods.md §8.5, "One meaning per column"): `R` is always the plug-in R with the interval
 * of the analysis' method, `R_corrected` the bias-corrected R with its test-inversion interval,
 * and `shift_wilson` the ends of the shift's MOVER-Wilson interval (its point is `shift`'s).
 */
export interface Table3Variant {
  /** table3.csv's columns: `<column>` (when it has a point of its own), `<column>_lo`, `<column>_hi`. */
  readonly column: string;
  /** The Table 3 column it estimates. */
  readonly of: string;
  /** Its header in the terminal and report tables. */
  readonly label: string;
  /** How its interval is made, for captions. */
  readonly interval: string;
  /** Its interval's header in the terminal and report tables. */
  readonly header: string;
  /** False when the variant is an interval only (its point is the column's own). */
  readonly point: boolean;
}

/** The header of R corrected's interval: each end a one-sided 95 % bound, at the level of the R = 1 test. */
export const TEST_INVERSION_HEADER = '90% CI (test inversion; each end one-sided 95%)';

const VARIANTS: readonly Table3Variant[] = [
  {
    column: 'R_corrected', of: 'R', label: 'R corrected', interval: 'test-inversion (each end a one-sided 95 % bound)',
    header: TEST_INVERSION_HEADER, point: true,
  },
  { column: 'shift_wilson', of: 'shift', label: 'Action shift', interval: '95 % MOVER-Wilson', header: '95% CI (MOVER-Wilson)', point: false },
];

/**
 * The one rule that decides which estimators Table 3 shows, on every route (analyze, analyze
 * --compare, reproduce, reproduce --trials, report): the registry's columns always; the count
 * variants besides when every cell is a count (binary cells: the G-test and Wilson intervals
 * need x of n).
 */
export const table3Variants = (cellKinds: readonly string[]): readonly Table3Variant[] =>
  (cellKinds.length > 0 && cellKinds.every((k) => k === 'binary') ? VARIANTS : []);

/** Every variant, whether or not it applies (readers of Table 3's rows find theirs by their columns). */
export const allTable3Variants = (): readonly Table3Variant[] => VARIANTS;

/** A variant's table3.csv columns. */
export const variantStatistics = (v: Table3Variant): string[] => [...(v.point ? [v.column] : []), `${v.column}_lo`, `${v.column}_hi`];
