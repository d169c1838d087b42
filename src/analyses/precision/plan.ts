import type { CellTable } from '../../core/cells.js';
import { cellRate } from '../../core/cells.js';
import { POOLED, stat } from '../../core/names.js';
import { analyzeTwoFraming, type TwoFramingSettings } from '../two-framing/index.js';
import type { Logger } from '../../core/logger.js';
import { table3Column, table3Columns } from '../../stats/table3.js';

/** A Table 3 column (stats/table3.ts: R, shift and any registered one): its pooled and per-model conservative values are planned. */
export type PlanStatistic = string;

/** The statistics the planner takes: Table 3's columns, registered ones included. */
export const planStatistics = (): string[] => table3Columns().map((c) => c.column);

export interface PlanOptions {
  readonly settings: TwoFramingSettings;
  readonly statistic: PlanStatistic;
  /** Target half-width of the 95 % interval. */
  readonly halfWidth: number;
  /** Largest trials per cell considered. */
  readonly maxN?: number;
  readonly logger?: Logger;
}

export interface PlanResult {
  readonly statistic: PlanStatistic;
  readonly halfWidth: number;
  /** Trials per cell so that the pooled interval reaches the half-width (undefined: not within maxN). */
  readonly nPooled?: number;
  /** Trials per cell so that every per-model interval (and the pooled one) reaches it. */
  readonly nModels?: number;
  /** Half-widths at the planned n, per target and group, from the planning simulation. */
  readonly achieved: readonly { target: PlanTarget; group: string; n: number; halfWidth: number }[];
}

/** What an n is planned for: the pooled interval alone, or every model's and the pooled one. */
export const PLAN_TARGETS = { pooled: 'pooled', models: 'every model and pooled' } as const;
export type PlanTarget = typeof PLAN_TARGETS[keyof typeof PLAN_TARGETS];

/** The same cells at n trials each, with the expected count round(p · n) (binary cells). */
export function scaleTable(table: CellTable, n: number): CellTable {
  return {
    factors: table.factors,
    cells: table.cells.map((c) => ({ key: c.key, obs: { kind: 'binary' as const, n, x: Math.round(cellRate(c.obs) * n) } })),
  };
}

/** Half-widths (hi − lo)/2 of the statistic for each model and pooled at n trials per cell. */
export function halfWidthsAt(table: CellTable, n: number, opts: PlanOptions): Map<string, number> {
  const a = analyzeTwoFraming(scaleTable(table, n), opts.settings);
  const name = table3Column(opts.statistic).names.groupConservative;
  const out = new Map<string, number>();
  for (const g of [...a.layout.models, POOLED]) {
    const v = a.boot.get(stat(name, g));
    out.set(g, (v.hi - v.lo) / 2);
  }
  return out;
}

/**
 * Precision planner: the smallest trials per cell at which the bootstrap interval of the pooled
 * (and of every per-model) statistic has half-width ≤ H, at the observed rates. Found by
 * bisection over n; each step runs the same bootstrap engine as the analysis on a table with the
 * expected counts, with a fixed seed, so the answer is deterministic. Bisection assumes the
 * half-width falls with n; rounding and Monte Carlo noise make that only nearly true, so the answer
 * is the smallest n the bisection finds, checked at that n (reported in `achieved`). Probability
 * cells are planned as binary cells at their mean rate, which overstates the n they need when
 * their per-call probabilities vary less than Bernoulli trials do.
 */
export function planTrials(table: CellTable, opts: PlanOptions): PlanResult {
  const maxN = opts.maxN ?? 100_000;
  if (!(opts.halfWidth > 0)) throw new RangeError(`half-width must be positive: ${opts.halfWidth}`);
  const known = planStatistics();
  if (!known.includes(opts.statistic)) throw new RangeError(`statistic must be a Table 3 column (${known.join(', ')}): ${opts.statistic}`);
  const cache = new Map<number, Map<string, number>>();
  const hw = (n: number) => {
    let m = cache.get(n);
    if (!m) { m = halfWidthsAt(table, n, opts); cache.set(n, m); opts.logger?.progress?.('planning', cache.size, cache.size + 1); }
    return m;
  };
  const search = (ok: (m: Map<string, number>) => boolean): number | undefined => {
    if (!ok(hw(maxN))) return undefined;
    let lo = 1, hi = maxN; // invariant: ok(hi), and n < lo are not known to be ok
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (ok(hw(mid))) hi = mid; else lo = mid + 1;
    }
    return hi;
  };
  const H = opts.halfWidth;
  const nPooled = search((m) => m.get(POOLED)! <= H);
  const nModels = search((m) => [...m.values()].every((v) => v <= H));
  const achieved: { target: PlanTarget; group: string; n: number; halfWidth: number }[] = [];
  for (const [n, label] of [[nPooled, 'pooled'], [nModels, 'models']] as const) {
    if (n === undefined) continue;
    for (const [group, h] of hw(n)) if (label === 'models' || group === POOLED) achieved.push({ target: PLAN_TARGETS[label], group, n, halfWidth: h });
  }
  return { statistic: opts.statistic, halfWidth: H, nPooled, nModels, achieved };
}
