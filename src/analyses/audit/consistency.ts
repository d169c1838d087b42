import type { RateRow } from '../../sources/rates-csv.js';
import { countReproducesRate, unitsOf, type DecimalText } from '../../core/decimal.js';

/**
 * GRIM-style consistency of reported rates (Brown & Heathers 2017, "The GRIM test"): a rate
 * reported at d decimals from n trials must equal round(k/n, d) for some integer k. The
 * consistent counts form one contiguous run because rounding k/n is monotone in k.
 */
export type ConsistencyStatus =
  /** Some count reproduces the rate (and the given count, if any, is one of them). */
  | 'consistent'
  /** No integer count out of n rounds to the reported rate: the rate cannot be right. */
  | 'impossible-rate'
  /** A count was given and does not round to the reported rate. */
  | 'count-mismatch'
  /** n ≥ 10^d: every rate at d decimals has a consistent count, so the test cannot fail. */
  | 'not-discriminating'
  /** The row gave a count and no rate: nothing to test. */
  | 'no-rate';

export interface NearbyCount { readonly count: number; readonly rate: string }

export interface CellConsistency {
  readonly line: number;
  readonly cell: string;
  readonly n: number;
  readonly rate?: string;
  readonly decimals?: number;
  /** The count the analysis uses (given, or reconstructed as round(rate·n)). */
  readonly count: number;
  readonly countGiven: boolean;
  /** Smallest and largest consistent count; absent when there is none. */
  readonly consistent?: { readonly min: number; readonly max: number; readonly size: number };
  /** For an impossible rate: the counts just below and above it, with the rates they give. */
  readonly nearby?: readonly NearbyCount[];
  readonly status: ConsistencyStatus;
}

/** k/n rounded half up to d decimals, as text ("0.090"): exact integer arithmetic. */
export function rateText(k: number, n: number, d: number): string {
  const scale = 10n ** BigInt(d);
  const units = (2n * BigInt(k) * scale + BigInt(n)) / (2n * BigInt(n));
  if (d === 0) return units.toString();
  const s = units.toString().padStart(d + 1, '0');
  return `${s.slice(0, -d)}.${s.slice(-d)}`;
}

/**
 * The run of counts k in [0, n] with round(k/n, d) = rate; undefined when there is none.
 * With u = rate·10^d and round-half-up r(k) = floor((2k·10^d + n) / 2n) (src/core/decimal.ts):
 * r(k) ≥ u ⇔ k ≥ n(2u − 1) / (2·10^d), and r(k) ≤ u ⇔ k < n(2u + 1) / (2·10^d).
 */
export function consistentCounts(rate: DecimalText, n: number): { min: number; max: number } | undefined {
  const scale2 = 2n * 10n ** BigInt(rate.decimals);
  const N = BigInt(n);
  const ceilDiv = (a: bigint, b: bigint) => (a <= 0n ? -((-a) / b) : (a + b - 1n) / b);
  const lo = ceilDiv(N * (2n * unitsOf(rate) - 1n), scale2);
  const hi = ceilDiv(N * (2n * unitsOf(rate) + 1n), scale2) - 1n;
  const min = Number(lo < 0n ? 0n : lo);
  const max = Number(hi > N ? N : hi);
  if (min > max) return undefined;
  if (!countReproducesRate(min, n, rate) || !countReproducesRate(max, n,
    rate)) throw new Error(`consistent run [${min}, ${max}] does not reproduce ${rate.text}`);
  return { min, max };
}

/** Check every row of a rates file. */
export function checkConsistency(rows: readonly RateRow[]): CellConsistency[] {
  return rows.map((r) => {
    const { model, game, framing } = r.cell.key;
    const obs = r.cell.obs;
    if (obs.kind !== 'binary') throw new Error('rates rows are binary cells');
    const base = { line: r.line, cell: `${model} / ${game} / ${framing}`, n: obs.n, count: obs.x, countGiven: !r.reconstructed };
    if (!r.rate) return { ...base, status: 'no-rate' as const };
    const rate = r.rate;
    const info = { ...base, rate: rate.text, decimals: rate.decimals };
    const run = consistentCounts(rate, obs.n);
    const notDiscriminating = BigInt(obs.n) >= 10n ** BigInt(rate.decimals);
    if (!run) {
      // Counts around the rate: floor(rate·n) and the next one, each with the rate it would give.
      const k = Number((unitsOf(rate) * BigInt(obs.n)) / 10n ** BigInt(rate.decimals));
      const nearby = [k, k + 1].filter((c) => c >= 0 && c <= obs.n).map((c) => ({ count: c, rate: rateText(c, obs.n, rate.decimals) }));
      return { ...info, nearby, status: 'impossible-rate' as const };
    }
    const consistent = { min: run.min, max: run.max, size: run.max - run.min + 1 };
    if (!r.reconstructed && !countReproducesRate(obs.x, obs.n, rate)) return { ...info, consistent, status: 'count-mismatch' as const };
    return { ...info, consistent, status: notDiscriminating ? 'not-discriminating' as const : 'consistent' as const };
  });
}

export function consistencyFlags(c: readonly CellConsistency[]): CellConsistency[] {
  return c.filter((x) => x.status === 'impossible-rate' || x.status === 'count-mismatch');
}
