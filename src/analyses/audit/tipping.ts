import type { CellTable } from '../../core/cells.js';
import { POOLED, stat, statLabel } from '../../core/names.js';
import { analyzeTwoFraming, type TwoFramingSettings } from '../two-framing/index.js';
import { interval as fmtInterval, fixed } from '../../core/format.js';
import type { Interval } from '../../stats/bootstrap.js';
import { inConclusionOrder, noun, type Table3Audit, type Table3Column } from '../../stats/table3.js';
import type { HeadlineKind, ReplicateState } from './replicate-state.js';
import { changesOf, type CellChange, type ReadingErrorResult } from './reading-error.js';
import { findTippingSet, type TippingProblem } from './tipping-search.js';
import { orderTipping, type GainCache } from './tipping-order.js';

/**
 * Tipping points of the seed's conclusions: for each, the fewest single-count
 * changes that overturn it, which cells, whether the search is exact, a verification by re-running
 * the two-framing pipeline on the changed table, and a comparison with the reading error ±K. The
 * conclusions are those the Table 3 columns declare (stats/table3.ts `audit`): an interval that
 * excludes a value (`shift-excludes-0`, `R-excludes-1`), and the models' order by a column (`order-by-R`).
 */
export type ConclusionKind = `${string}-excludes-${number}` | `order-by-${string}`;

export interface TippingResult {
  readonly id: string;
  readonly kind: ConclusionKind;
  readonly statement: string;
  readonly holds: boolean;
  readonly observed: string;
  /** exact: exhaustive at this seed; exact-dp: exact on point estimates; greedy, dp-grid: an upper bound. */
  readonly method: 'exact' | 'exact-dp' | 'dp-grid' | 'greedy' | 'constructive' | 'not-found' | 'not-held';
  readonly changes?: number;
  readonly cells: readonly CellChange[];
  readonly maxPerCell?: number;
  /** The conclusion's value recomputed by the pipeline on the changed table, and whether it flipped. */
  readonly after?: string;
  readonly verified?: boolean;
  /** Cells that can move the statistic, and what reading error ±K can do to it. */
  readonly scopeCells: number;
  readonly readingError: { readonly K: number; readonly budget: number; readonly worstCase: string; readonly overturned: boolean; readonly exact: boolean };
  readonly evaluations: number;
}

/** Whether a found count is the exact minimum (otherwise an upper bound, or nothing found). */
export const isExactMinimum = (m: TippingResult['method']): boolean => m === 'exact' || m === 'exact-dp';

export interface TippingOptions {
  readonly settings: TwoFramingSettings;
  readonly readingError: ReadingErrorResult;
  /** Cells reconstructed from rates (the only ones reading error can move); all when absent. */
  readonly reconstructed?: ArrayLike<boolean>;
}

/** What reading error can do when every count was given: nothing. */
const GIVEN = { K: 0, budget: 0, exact: true, worstCase: 'counts given: no reading error', overturned: false };

/**
 * Reading error's budget over a set of cells: K for each reconstructed cell among them; with
 * per-cell ranges, each cell's larger allowance (down or up).
 */
const budgetOf = (re: ReadingErrorResult, scope: readonly number[], reconstructed?: ArrayLike<boolean>) =>
  (re.perCell ? scope.reduce((s, i) => s + Math.max(re.perCell!.down[i], re.perCell!.up[i]), 0)
    : re.K * (reconstructed ? scope.filter((i) => reconstructed[i]).length : scope.length));

const rangeOf = (re: ReadingErrorResult, group: string, kind: HeadlineKind, which: 'point' | 'lo' | 'hi') =>
  re.ranges.find((r) => r.group === group && r.kind === kind && r.which === which)!;

/**
 * The table with the given counts, restricted to the cells a group's statistics read (all cells for
 * Pooled). A cell's replicates come from its own (seed, cell id) stream, so the group's statistic
 * is the same, bit for bit, as on the whole table — and a verification of one model's conclusion
 * does not bootstrap every other model.
 */
function tableWith(table: CellTable, counts: ArrayLike<number>, keep?: ReadonlySet<number>): CellTable {
  const cells = table.cells.map((c, i) => (c.obs.kind === 'binary' ? { ...c, obs: { kind: 'binary' as const, n: c.obs.n, x: counts[i] } } : c));
  return { factors: table.factors, cells: keep ? cells.filter((_, i) => keep.has(i)) : cells };
}

/** A conclusion's verification: the two-framing pipeline on the changed table, restricted to the groups concerned. */
function verifier(full: ReplicateState, settings: TwoFramingSettings) {
  return (counts: Int32Array, groups: readonly string[]) => {
    const keep = groups.includes(POOLED) ? undefined : new Set(groups.flatMap((g) => full.scopeCells(g)));
    return analyzeTwoFraming(tableWith(full.table, counts, keep), settings).boot;
  };
}

/**
 * An interval conclusion's tipping point, without what reading error can do to it
 * (`intervalReading`), and the sign of the interval (+1 above 0, −1 below).
 */
export type IntervalFinding = Omit<TippingResult, 'readingError'> & { readonly sign: 1 | -1 };

/** The conclusion a column declares, of the column named `kind`. */
const declared = (st: ReplicateState, kind: HeadlineKind): Table3Audit => {
  const a = st.column(kind).audit;
  if (!a) throw new Error(`Table 3 column ${kind} declares no audit conclusion`);
  return a;
};

/** Whether an interval excludes the value: on either side, or lying below it. */
const excludes = (x: Table3Audit['excludes'], iv: Pick<Interval, 'lo' | 'hi'>): boolean =>
  (x.side === 'either' ? iv.lo > x.value || iv.hi < x.value : iv.hi < x.value);

const conclusionKind = (col: Table3Column): ConclusionKind => `${col.column}-excludes-${col.audit!.excludes.value}`;

/**
 * A conclusion's margin (> 0 while it holds) and its tie-break on the point estimate: the
 * distance of the interval end that must cross the value (the lower end of an interval above it,
 * the upper end of one below it).
 */
function problemOf(full: ReplicateState, group: string, kind: HeadlineKind, sign: 1 | -1): TippingProblem {
  const { excludes: x, valueAtEqualRates } = declared(full, kind), v = x.value;
  const scope = full.scopeCells(group);
  const pairs = valueAtEqualRates ? { pairs: full.groupPairs(group).map((j) => [full.layout.pairs[j].baseIndex, full.layout.pairs[j].altIndex]) } : {};
  if (x.side === 'either' && sign > 0) return { scope, ...pairs, margin: (s) => s.endpoint(group, kind, 'lo') - v, tiebreak: (s) => s.point(group, kind) - v };
  return { scope, ...pairs, margin: (s) => v - s.endpoint(group, kind, 'hi'), tiebreak: (s) => v - s.point(group, kind) };
}

/**
 * The tipping point of "the group's interval of column `kind` excludes its value" (the shift's
 * excludes 0, R's excludes 1): the search, then a verification by the pipeline. A pure function of
 * the observed table and settings (the states are left at the observed counts), so conclusions may
 * be searched in any order, on any thread.
 */
export function intervalFinding(full: ReplicateState, search: ReplicateState, group: string, kind: HeadlineKind,
  settings: TwoFramingSettings): IntervalFinding {
  const col = full.column(kind), audit = declared(full, kind);
  const iv = full.interval(group, kind);
  const scope = full.scopeCells(group);
  const who = group === POOLED ? 'pooled' : group;
  const statement = `the ${who} ${noun(col).replace(/ /g, '-')} interval excludes ${audit.excludes.value}`;
  const observedText = `${statLabel(kind, group)} = ${fixed(iv.point, 4)} ${fmtInterval(iv.lo, iv.hi, 4)}`;
  const sign = iv.lo > audit.excludes.value ? 1 : -1;
  const holds = excludes(audit.excludes, iv);
  const common = { sign: sign as 1 | -1, id: `${conclusionKind(col)}[${group}]`, kind: conclusionKind(col), statement, holds, observed: observedText,
    scopeCells: scope.length };
  if (!holds) return { ...common, method: 'not-held' as const, cells: [], evaluations: 0 };
  const observed = Int32Array.from(full.counts);
  const found = findTippingSet(search, full, problemOf(full, group, kind, sign), { start: audit.valueAtEqualRates ? equalDegeneratePlan(full,
    group) : undefined });
  if (!found.counts) return { ...common, method: 'not-found' as const, cells: [], evaluations: found.evaluations };
  const after = verifier(full, settings)(found.counts, [group]).get(stat(col.names.groupConservative, group));
  const flipped = !excludes(audit.excludes, after);
  const cells = changesOf(full, observed, found.counts);
  return {
    ...common, method: found.method, changes: found.changes, cells, maxPerCell: Math.max(...cells.map((c) => Math.abs(c.to - c.from))),
    after: `${fixed(after.point, 4)} ${fmtInterval(after.lo, after.hi, 4)}`, verified: flipped, evaluations: found.evaluations,
  };
}

/** What reading error ±K can do to an interval conclusion (from the reading-error ranges). */
function intervalReading(full: ReplicateState, re: ReadingErrorResult, group: string, kind: HeadlineKind, sign: 1 | -1,
  reconstructed?: ArrayLike<boolean>): TippingResult['readingError'] {
  if (re.given) return GIVEN;
  const K = re.K;
  const x = declared(full, kind).excludes;
  const lower = x.side === 'either' && sign > 0; // the lower end must not fall to the value
  const rr = rangeOf(re, group, kind, lower ? 'lo' : 'hi');
  const worst = lower ? rr.min : rr.max;
  return {
    K, budget: budgetOf(re, full.scopeCells(group), reconstructed), exact: false,
    worstCase: `${rr.which === 'lo' ? 'lowest lower' : 'highest upper'} end within ${re.label}: ${fixed(worst, 4)} (coordinate search)`,
    overturned: x.side === 'either' ? sign * (worst - x.value) <= 0 : worst >= x.value,
  };
}

/**
 * The interval conclusions whose tipping points are searched, in report order: the audited columns
 * (`columns`) by their declared order, each for Pooled (and every model, when it declares so).
 */
export function intervalConclusions(models: readonly string[], columns: readonly Table3Column[]): { group: string; kind: HeadlineKind }[] {
  return inConclusionOrder(columns).flatMap((c) => (c.audit!.groups === 'every' ? [POOLED, ...models] : [POOLED]).map((group) => ({ group, kind: c.column })));
}

/**
 * Every conclusion's tipping point, in report order, from the interval conclusions' findings (by
 * index in `intervalConclusions`; searched in any order, on any thread) and the orderings', found
 * here: the models' order by a column that declares one comes before that column's interval conclusions.
 */
export function tippingPoints(full: ReplicateState, opts: TippingOptions, findings: readonly IntervalFinding[]): TippingResult[] {
  const re = opts.readingError;
  const conclusions = intervalConclusions(full.layout.models, full.columns);
  const out: TippingResult[] = [];
  conclusions.forEach(({ group, kind }, i) => {
    if (full.column(kind).audit?.ordersModels && conclusions[i - 1]?.kind !== kind) {
      out.push(orderConclusion(full, kind, re, opts.settings, verifier(full, opts.settings), opts.reconstructed));
    }
    const { sign, ...finding } = findings[i];
    out.push({ ...finding, readingError: intervalReading(full, re, group, kind, sign, opts.reconstructed) });
  });
  return out;
}

/**
 * "Pooled R interval excludes 1" falls only when R = 1 in at least 2.5 % of replicates, i.e. when
 * every pair has equal replicate rates that often. Greedy single-count steps stall short of that
 * (pairs drift to equal interior rates, whose draws still differ). The constructive plan moves
 * each pair of the group to equal rates at 0/n or n/n, whichever is fewer counts away, so R2 = 1
 * in every replicate; pruning then takes back what is not needed.
 */
function equalDegeneratePlan(st: ReplicateState, group: string): Int32Array {
  const counts = Int32Array.from(st.counts);
  for (const j of st.groupPairs(group)) {
    const { baseIndex: b, altIndex: s } = st.layout.pairs[j];
    const down = counts[b] + counts[s];
    const up = st.ns[b] - counts[b] + st.ns[s] - counts[s];
    const top = up < down;
    counts[b] = top ? st.ns[b] : 0;
    counts[s] = top ? st.ns[s] : 0;
  }
  return counts;
}

/** Reading error on the ordering: exact on points — A ahead of B can swap within ±K iff min R_A < max R_B. */
function orderReading(re: ReadingErrorResult, kind: HeadlineKind, ranked: readonly string[], K: number, budget: number) {
  let swap: string | undefined;
  for (let i = 0; i < ranked.length; i++) for (let j = i + 1; j < ranked.length; j++) {
    const a = rangeOf(re, ranked[i], kind, 'point'), b = rangeOf(re, ranked[j], kind, 'point');
    if (a.min < b.max && swap === undefined) swap = `${ranked[j]} can overtake ${ranked[i]} (${fixed(b.max, 4)} vs ${fixed(a.min, 4)})`;
  }
  const closest = ranked.slice(1).map((m, i) => [ranked[i], m] as const)
    .map(([a, b]) => `${a} ≥ ${fixed(rangeOf(re, a, kind, 'point').min, 4)} vs ${b} ≤ ${fixed(rangeOf(re, b, kind, 'point').max, 4)}`);
  return { K, budget, exact: true, worstCase: swap ?? `no swap within ${re.label}: ${closest.join('; ')}`, overturned: swap !== undefined };
}

/** The models' order by the point value of column `kind` (R) and its tipping point. */
function orderConclusion(full: ReplicateState, kind: HeadlineKind, re: ReadingErrorResult, settings: TwoFramingSettings,
  verify: (c: Int32Array, groups: readonly string[]) => { get(name: string): { point: number } }, reconstructed?: ArrayLike<boolean>): TippingResult {
  const K = re.K;
  const observed = Int32Array.from(full.counts);
  const models = [...full.layout.models];
  const R = new Map(models.map((m) => [m, full.point(m, kind)]));
  const ranked = [...models].sort((a, b) => R.get(b)! - R.get(a)!);
  const strict = ranked.every((m, i) => i === 0 || R.get(ranked[i - 1])! > R.get(m)!);
  const observedText = ranked.map((m) => `${m} (${fixed(R.get(m)!, 4)})`).join(' > ');
  const scopeCells = full.scopeCells(POOLED);
  const scope = scopeCells.length;
  const reading = re.given ? GIVEN : orderReading(re, kind, ranked, K, budgetOf(re, scopeCells, reconstructed));
  const id = `order-by-${kind}` as const;
  const common = { id, kind: id, statement: `the ordering of the models by ${noun(full.column(kind))}`, observed: observedText, scopeCells: scope,
    readingError: reading };
  if (!strict || models.length < 2 || settings.attenuation === 0) return { ...common, holds: false, method: 'not-held', cells: [], evaluations: 0 };
  let best: ReturnType<typeof orderTipping> | undefined;
  const gains: GainCache = new Map();
  for (let i = 0; i < ranked.length; i++) for (let j = i + 1; j < ranked.length; j++) {
    // Only a comparison that beats the best so far matters (ties keep the first, as before).
    const t = orderTipping(full, kind, ranked[i], ranked[j], gains, best?.changes === undefined ? Infinity : best.changes - 1);
    if (t.changes !== undefined && (best?.changes === undefined || t.changes < best.changes)) best = t;
  }
  if (!best?.counts) return { ...common, holds: true, method: 'not-found', cells: [], evaluations: 0 };
  const boot = verify(best.counts, [best.ahead, best.behind]);
  const name = full.column(kind).names.groupConservative;
  const ra = boot.get(stat(name, best.ahead)).point, rb = boot.get(stat(name, best.behind)).point;
  const cells = changesOf(full, observed, best.counts);
  return {
    ...common, holds: true, method: best.unit !== undefined && best.unit > 1 ? 'dp-grid' : 'exact-dp', changes: best.changes, cells,
      maxPerCell: Math.max(...cells.map((c) => Math.abs(c.to - c.from))),
    after: `${best.behind} ${fixed(rb, 4)} > ${best.ahead} ${fixed(ra, 4)}`, verified: rb > ra, evaluations: 0,
  };
}
