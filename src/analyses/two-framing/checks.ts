import type { BinaryObservations, CellTable } from '../../core/cells.js';
import { cellRate, cellSize, isDegenerate } from '../../core/cells.js';
import { POOLED, stat } from '../../core/names.js';
import { jsdBernoulli } from '../../stats/jsd.js';
import { FAMILY_R, table3Columns } from '../../stats/table3.js';
import type { BootstrapResult, Interval, IntervalMethod, StatInfo, StatKind } from '../../stats/bootstrap.js';
import type { TwoFramingAnalysis } from './analysis.js';
import type { DecimalText } from '../../core/decimal.js';
import { countReproducesRate } from '../../core/decimal.js';
import { CELL_GRIDS, type CellGridId } from './cell-grids.js';
import { check, makeReport, type Check, type DegenerateCell, type VerificationReport } from '../../core/checks.js';

export interface VerifyInput {
  readonly analysis: TwoFramingAnalysis;
  /** The decisions the input says there are, and how that number was obtained. */
  readonly expectedDecisions: { readonly value: number; readonly source: string };
  /** Rows that reported a rate: the count must reproduce it at its decimals (absent for direct runs). */
  readonly reportedRates?: readonly { cell: string; x: number; n: number; rate: DecimalText }[];
  /** Names of the CSV tables the run writes (e.g. table2, table3, family-robustness, compare). */
  readonly tables: readonly string[];
  /** Tables the user asked for beside the empirical ones (analyze --compare), not counted against the check. */
  readonly requestedComparisons?: readonly string[];
  /** The grid of planned cells the cell count is held to (CELL_GRIDS); the full cross by default. */
  readonly grid?: CellGridId;
}

/** The checks of the two-framing analysis (Same Game, Different Story Appendix C, and range checks of the declared statistics). */
export type CheckId = 'robustness_in_unit_interval' | 'intervals_ordered_and_contain_point' | 'cell_count' | 'decision_count'
  | 'shift_in_range' | 'payoff_sensitivity_in_range' | 'pooled_equals_unrounded_mean' | 'two_empirical_tables' | 'counts_reproduce_rates';

/** One check: a Check, or undefined where it does not apply to this input. */
export type TwoFramingCheck = (v: VerifyInput) => Check | undefined;

const TOL = 1e-12;

/** Indices of the statistics that declare one of the given kinds. */
function ofKind(boot: BootstrapResult, kinds: readonly StatKind[]): number[] {
  return boot.info.flatMap((info, i) => (kinds.includes(info.kind) ? [i] : []));
}

/** Point and ends of the selected statistics outside their declared bounds (NaN allowed where `allowNaN`). */
function outOfBounds(boot: BootstrapResult, idx: readonly number[], allowNaN = false): { bad: string[]; lo: number; hi: number } {
  const bad: string[] = [];
  let lo = Infinity, hi = -Infinity;
  for (const i of idx) {
    const [bl, bh] = boot.info[i].bounds;
    // a statistic resting on fewer than 3 matches of a clustered cell has no interval (both ends NaN)
    const noInterval = Number.isNaN(boot.lo[i]) && Number.isNaN(boot.hi[i]);
    for (const x of noInterval ? [boot.point[i]] : [boot.point[i], boot.lo[i], boot.hi[i]]) {
      if (allowNaN && Number.isNaN(x)) continue;
      lo = Math.min(lo, x); hi = Math.max(hi, x);
      if (!(x >= bl && x <= bh)) bad.push(`${boot.names[i]} = ${x}`);
    }
  }
  return { bad, lo, hi };
}

export function robustnessInUnitInterval(v: VerifyInput): Check {
  const { boot } = v.analysis;
  const idx = ofKind(boot, ['robustness']);
  const { bad, lo, hi } = outOfBounds(boot, idx);
  return check('robustness_in_unit_interval', 'every robustness score and interval endpoint lies in [0, 1]',
    `${idx.length} statistics, range [${lo}, ${hi}]`, bad);
}

export function shiftInRange(v: VerifyInput): Check {
  const { boot } = v.analysis;
  const idx = ofKind(boot, ['shift']);
  return check('shift_in_range', 'every action shift and interval endpoint lies in [−1, 1]', `${idx.length} statistics`, outOfBounds(boot, idx).bad);
}

/** λ̂ within its clamp [0, 20] and V_λ within [0, 100] (direct runs with payoff gaps only). */
export function payoffSensitivityInRange(v: VerifyInput): Check | undefined {
  const { boot } = v.analysis;
  const idx = ofKind(boot, ['lambda', 'lambda-variance']);
  if (idx.length === 0) return undefined;
  const undefinedCount = idx.filter((i) => Number.isNaN(boot.point[i])).length;
  return check('payoff_sensitivity_in_range',
    'every λ̂ and its interval endpoints lie in its clamp [0, 20], and every V_λ in [0, 100] (NaN where a game has no payoff gap)',
    `${idx.length} statistics, ${undefinedCount} undefined (no payoff gap)`, outOfBounds(boot, idx, true).bad);
}

/** How an interval stands to its point: what the containment check makes of it. */
export type Containment =
  | { readonly kind: 'contained' }
  | { readonly kind: 'at-bound' }
  | { readonly kind: 'warn'; readonly text: string }
  | { readonly kind: 'fail'; readonly text: string };

/**
 * Classify one reported interval. Unordered, NaN, or a point outside its interval on a side where
 * the statistic has no boundary bias: a defect (fail). A statistic declared biased away from a
 * bound (R below 1, V_λ above 0) whose point lies outside on the side that bias explains: warn,
 * with the reason. The point exactly at that bound with its interval inside: the bound itself.
 */
export function classifyContainment(name: string, s: Interval, info: StatInfo, method: IntervalMethod, fellBack = false): Containment {
  const where = `${name}: ${s.point} not in [${s.lo}, ${s.hi}]`;
  if (!(s.lo <= s.hi)) return { kind: 'fail', text: where };
  const above = s.point > s.hi + TOL;
  const below = s.point < s.lo - TOL;
  if (!above && !below) return s.lo <= s.point + TOL ? { kind: 'contained' } : { kind: 'fail', text: where };
  const [bl, bh] = info.bounds;
  if (info.biasedAwayFrom === 'upper' && above && s.point === bh && s.hi <= bh) return { kind: 'at-bound' };
  if (info.biasedAwayFrom === 'lower' && below && s.point === bl && s.lo >= bl) return { kind: 'at-bound' };
  // Percentile: the replicates sit on the far side of the point from the bound. BCa: the bias
  // correction moves the interval past the point toward the bound.
  const pointNearer = method === 'percentile' || fellBack;
  const advice = fellBack ? ('BCa fell back to the percentile interval: every replicate lies on one side of the point (z0 ' +
    'infinite)') : 'decide R = 1 by the R = 1 test (reports/framing-tests.csv), whose inverted interval is Table 3\'s default for a direct run at a = 1';
  if (info.biasedAwayFrom === 'upper' && (pointNearer ? above : below)) {
    return { kind: 'warn', text: pointNearer
      ? `${where}: boundary bias (bounded above by ${bh}, sampling noise only lowers it, so the percentile replicates lie below the point); ${advice}`
      : `${where}: bias correction (BCa moves the interval toward the bound ${bh}, above a point that sampling noise biases downward)` };
  }
  if (info.biasedAwayFrom === 'lower' && (pointNearer ? below : above)) {
    return { kind: 'warn', text: pointNearer
      ? `${where}: boundary bias (bounded below by ${bl}, sampling noise only raises it, so the percentile replicates lie above the point); ${advice}`
      : `${where}: bias correction (BCa moves the interval toward the bound ${bl}, below a point that sampling noise biases upward)` };
  }
  return { kind: 'fail', text: where };
}

/** The reported statistics: Table 3 per model and pooled, and the family table when present. */
function reportedNames(a: TwoFramingAnalysis): string[] {
  const reported = [...a.layout.models, POOLED].flatMap((g) => table3Columns().map((c) => stat(c.names.groupConservative, g)));
  if (a.family) reported.push(...a.family.groups.map((g) => stat(FAMILY_R, g.model, g.game)), ...a.family.models.map((m) => stat(FAMILY_R, m)), stat(FAMILY_R,
    POOLED));
  return reported;
}

export function intervalsOrderedAndContainPoint(v: VerifyInput): Check {
  const { boot } = v.analysis;
  const reported = reportedNames(v.analysis);
  const bad: string[] = [];
  const warn: string[] = [];
  const atBoundary: string[] = [];
  const none = reported.filter((n) => { const x = boot.get(n); return Number.isNaN(x.lo) && Number.isNaN(x.hi); });
  for (const n of reported) {
    if (none.includes(n)) continue;
    const c = classifyContainment(n, boot.get(n), boot.info[boot.names.indexOf(n)], boot.method, boot.fellBack.has(n));
    if (c.kind === 'at-bound') atBoundary.push(n);
    else if (c.kind === 'warn') warn.push(c.text);
    else if (c.kind === 'fail') bad.push(c.text);
  }
  const note = atBoundary.length ? `; ${atBoundary.length} at the bound R = 1, where the interval lies below its point: ${atBoundary.join(', ')}` : '';
  const warned = warn.length ? `; ${warn.length} beside a bound, outside their interval by boundary bias (warn)` : '';
  const without = none.length ? `; ${none.length} without an interval (fewer than 3 matches)` : '';
  return check('intervals_ordered_and_contain_point', 'every reported interval is ordered and contains its point estimate (R = 1 exactly excepted: see value)',
    `${reported.length - none.length} reported intervals${note}${warned}${without}`, bad, warn);
}

export function cellCount(v: VerifyInput): Check {
  const { table } = v.analysis;
  const grid = CELL_GRIDS[v.grid ?? 'crossed'];
  const { expected, missing } = grid.expected(table);
  const got = table.cells.length;
  return check('cell_count', grid.description, `${got} cells, expected ${expected}`,
    got === expected ? [] : [`${got} ≠ ${expected}${missing.length ? `; missing: ${missing.join(', ')}` : ''}`]);
}

export function decisionCount(v: VerifyInput): Check {
  const got = v.analysis.table.cells.reduce((s, c) => s + cellSize(c.obs), 0);
  const want = v.expectedDecisions;
  return check('decision_count', `decisions analysed = ${want.source}`, `${got} decisions, expected ${want.value}`,
    got === want.value ? [] : [`${got} ≠ ${want.value}`]);
}

/** Independent recomputation: straight from the counts, per model then pooled, no estimand code. */
export function pooledEqualsUnroundedMean(v: VerifyInput): Check {
  const { boot, layout, table, settings } = v.analysis;
  const bad: string[] = [];
  const byModel = new Map<string, number[][]>();
  const all: number[][] = [];
  const key = (m: string, g: string, f: string) => JSON.stringify([m, g, f]);
  const rateOf = new Map(table.cells.map((c) => [key(c.key.model, c.key.game, c.key.framing), cellRate(c.obs)]));
  for (const p of layout.pairs) {
    const pb = rateOf.get(key(p.model, p.game, layout.base))!;
    const ps = rateOf.get(key(p.model, p.game, layout.alt))!;
    const pair = [1 - jsdBernoulli(pb, ps) / Math.LN2, ps - pb];
    all.push(pair);
    if (!byModel.has(p.model)) byModel.set(p.model, []);
    byModel.get(p.model)!.push(pair);
  }
  const att = settings.attenuation;
  const compare = (g: string, vals: number[][]) => {
    const r = vals.reduce((s, x) => s + x[0], 0) / vals.length;
    const d = vals.reduce((s, x) => s + x[1], 0) / vals.length;
    const want = { R: 1 - att * (1 - r), shift: att * d, R_raw: r, shift_raw: d };
    for (const [k, w] of Object.entries(want)) {
      const got = boot.get(stat(k, g)).point;
      if (Math.abs(got - w) > 1e-12) bad.push(`${stat(k, g)} = ${got}, mean gives ${w}`);
    }
  };
  for (const [m, vals] of byModel) compare(m, vals);
  compare(POOLED, all);
  return check('pooled_equals_unrounded_mean', 'per-model and pooled values equal the unrounded means of the model–game values (recomputed from the counts)',
    `${layout.pairs.length} model–game values, ${byModel.size} models`, bad);
}

/**
 * Same Game, Different Story Appendix C: exactly two empirical tables (Tables 2 and 3) and no external numeric
 * comparison table. Family robustness and per-cell diagnostics are supplementary, not
 * empirical tables of their own; a comparison the user asked for (--compare) is allowed.
 */
export function twoEmpiricalTables(v: VerifyInput): Check {
  const bad: string[] = [];
  const empirical = v.tables.filter((t) => /^table\d+$/.test(t));
  const requested = new Set(v.requestedComparisons ?? []);
  const comparisons = v.tables.filter((t) => /compar/.test(t));
  const external = comparisons.filter((t) => !requested.has(t));
  const asked = comparisons.filter((t) => requested.has(t));
  if (empirical.length !== 2) bad.push(`${empirical.length} empirical tables: ${empirical.join(', ')}`);
  if (external.length) bad.push(`external comparison tables: ${external.join(', ')}`);
  // The description says what was written: with --compare the comparison tables are there, as requested.
  const description = asked.length
    ? `the report has exactly two empirical tables; its comparison tables (${asked.join(', ')}) are the ones requested with --compare, and no other`
    : 'the report has exactly two empirical tables and no external comparison table';
  return check('two_empirical_tables', description,
    (`empirical: ${empirical.join(', ')}; ` +
      `external: ${external.length ? external.join(', ') : 'none'}${requested.size ? ` (requested: ${[...requested].join(', ')})` : ''}`), bad);
}

/** Reconstructed input only: every count reproduces its reported rate at its decimals. */
export function countsReproduceRates(v: VerifyInput): Check | undefined {
  if (!v.reportedRates) return undefined;
  const bad = v.reportedRates.filter((r) => !countReproducesRate(r.x, r.n, r.rate)).map((r) => `${r.cell}: ${r.x}/${r.n} does not round to ${r.rate.text}`);
  return check('counts_reproduce_rates', 'every reconstructed count reproduces its reported rate at the reported decimals',
    `${v.reportedRates.length} rates checked`, bad);
}

/** Every check, in report order. */
export const TWO_FRAMING_CHECKS: Readonly<Record<CheckId, TwoFramingCheck>> = {
  robustness_in_unit_interval: robustnessInUnitInterval,
  intervals_ordered_and_contain_point: intervalsOrderedAndContainPoint,
  cell_count: cellCount,
  decision_count: decisionCount,
  shift_in_range: shiftInRange,
  payoff_sensitivity_in_range: payoffSensitivityInRange,
  pooled_equals_unrounded_mean: pooledEqualsUnroundedMean,
  two_empirical_tables: twoEmpiricalTables,
  counts_reproduce_rates: countsReproduceRates,
};

/** The cells resampling cannot move, with a note each. */
export function degenerateCells(table: CellTable): DegenerateCell[] {
  return table.cells.filter((c) => isDegenerate(c.obs)).map((c) => {
    const o = c.obs as BinaryObservations;
    const x = o.kind === 'binary' ? o.x : NaN;
    const n = cellSize(c.obs);
    return {
      cell: `${c.key.model} / ${c.key.game} / ${c.key.framing}`, x, n,
      note: (`${o.kind === 'binary' ? `${x}/${n}` : 'all trials equal'}: the bootstrap cannot vary this cell; its statistics carry no sampling uncertainty ` +
        `from it`),
    };
  });
}

/**
 * The numerical checks of Same Game, Different Story Appendix C, each a function of the registry.
 * Each names what it saw; a failed check makes the command exit 3, a warning does not.
 */
export function verifyTwoFraming(v: VerifyInput): VerificationReport {
  const checks = Object.values(TWO_FRAMING_CHECKS).map((f) => f(v)).filter((c): c is Check => c !== undefined);
  return makeReport(checks, degenerateCells(v.analysis.table));
}
