/**
 * The verdict on one published number (docs/methods.md "Reproduction verdicts"), in exact decimal
 * arithmetic: a binary double is a finite decimal, so |computed − published| is compared with half
 * a unit of the last published digit (plus 2 × the Monte Carlo standard error) without any
 * floating-point error at the boundary (0.0625 − 0.062 is 0.0005 exactly, not 0.00050000000000000044).
 */
import { unitsOf, type DecimalText } from '../../core/decimal.js';
import { defaultBatches, mcErrorOfQuantile } from '../../stats/mc-error.js';

export type Verdict = 'exact' | 'within-mc' | 'differs' | 'missing';
export const VERDICTS: readonly Verdict[] = ['exact', 'within-mc', 'differs', 'missing'];

/** value = units / 10^scale, exactly. */
export interface ExactDecimal { readonly units: bigint; readonly scale: number }

/** The exact decimal value of a finite double (every double is m · 2^e, and 2^−k = 5^k / 10^k). */
export function exactDecimal(x: number): ExactDecimal {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  let mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  let e2 = (biased === 0 ? 1 : biased) - 1075;
  if (mantissa === 0n) return { units: 0n, scale: 0 };
  // Shortest form: an odd mantissa times 5^k has no trailing decimal zero.
  while (e2 < 0 && (mantissa & 1n) === 0n) { mantissa >>= 1n; e2++; }
  const sign = negative ? -1n : 1n;
  if (e2 >= 0) return { units: sign * (mantissa << BigInt(e2)), scale: 0 };
  return { units: sign * mantissa * 5n ** BigInt(-e2), scale: -e2 };
}

const rescale = (d: ExactDecimal, scale: number): bigint => d.units * 10n ** BigInt(scale - d.scale);
const abs = (x: bigint) => (x < 0n ? -x : x);

/** Significant decimal digits a double carries through a decimal round trip (DBL_DIG). */
export const DOUBLE_DIGITS = 15;

/**
 * The decimals of a published number that are compared: those written, but no more than a
 * double carries (15 significant digits) — "0.6" written with 60 zeros is compared at 15
 * decimals, as the computed double cannot say more. Never below 0.
 */
export function comparedDecimals(published: DecimalText): number {
  const digits = published.units.replace(/^-/, '').replace(/^0+/, '').length; // 0 for a zero
  const integerDigits = digits - published.decimals;
  return Math.max(0, Math.min(published.decimals, digits === 0 ? DOUBLE_DIGITS : DOUBLE_DIGITS - integerDigits));
}

/** Half a unit of the last digit of a number printed with `decimals` decimals: 5 / 10^(decimals+1). */
export const halfUnit = (decimals: number): ExactDecimal => ({ units: 5n, scale: decimals + 1 });

export interface Judgement {
  readonly verdict: Exclude<Verdict, 'missing'>;
  /** computed − published (a double, for display). */
  readonly difference: number;
  /** Half a unit of the last published digit + 2 × the Monte Carlo standard error (a double, for display). */
  readonly tolerance: number;
}

/**
 * `exact` when |computed − published| ≤ half a unit of the last published digit (the computed
 * value rounds to the published one; a value exactly halfway counts, since the two usual tie rules
 * disagree there); `within-mc` when it is not exact but within that half unit plus 2 × mcSe;
 * `differs` otherwise. Points have mcSe = 0, so they are exact or differ.
 */
export function judge(computed: number, published: DecimalText, mcSe: number): Judgement {
  if (!(mcSe >= 0) || !Number.isFinite(mcSe)) throw new RangeError(`Monte Carlo standard error must be finite and ≥ 0: ${mcSe}`);
  const c = exactDecimal(computed);
  const d = comparedDecimals(published);
  const h = halfUnit(d);
  const twoSe = exactDecimal(2 * mcSe); // doubling a double is exact
  const scale = Math.max(c.scale, h.scale, twoSe.scale, published.decimals);
  const diff = abs(rescale(c, scale) - rescale({ units: unitsOf(published), scale: published.decimals }, scale));
  const half = rescale(h, scale);
  const verdict = diff <= half ? 'exact' : diff <= half + rescale(twoSe, scale) ? 'within-mc' : 'differs';
  return { verdict, difference: computed - published.value, tolerance: 5 / 10 ** (d + 1) + 2 * mcSe };
}

/**
 * Monte Carlo standard error of a bootstrap percentile endpoint: the audit's batch-means error
 * (docs/methods.md §10.6) on the replicates of that statistic. Fewer than two replicates cannot
 * be split into batches; their error is taken as 0.
 */
export function endpointMcSe(replicates: ArrayLike<number>, q: number): number {
  if (replicates.length < 2) return 0;
  return mcErrorOfQuantile(replicates, q, defaultBatches(replicates.length)).se;
}
