/**
 * The verdict on one published number (docs/methods.md "Reproduction verdicts"), in exact decimal
 * arithmetic: a binary double is a finite decimal, so |computed − published| is compared with half
 * a unit of the last published digit (and the published value's rounding interval with the
 * Monte Carlo band of an endpoint) without any floating-point error at the boundary (0.0625 − 0.062
 * is 0.0005 exactly, not 0.00050000000000000044).
 */
import { unitsOf, type DecimalText } from '../../core/decimal.js';

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
  /**
   * The distance from the computed value to the edge of the band of published values it accepts,
   * on the published value's side: h for a point; for an endpoint the band is
   * [Q̂(q − δ) − h, Q̂(q + δ) + h]. A number differs exactly when |difference| > tolerance.
   */
  readonly tolerance: number;
}

/**
 * `exact` when |computed − published| ≤ h, half a unit of the last published digit (the computed
 * value rounds to the published one; a value exactly halfway counts, since the two usual tie rules
 * disagree there). For an interval endpoint, `band` = [Q̂(q − δ), Q̂(q + δ)] of its replicates
 * (docs/methods.md §16): `within-mc` when it is not exact but the published value's rounding
 * interval [p − h, p + h] meets the band (which holds the computed value). `differs` otherwise;
 * points (no band) are exact or differ.
 */
export function judge(computed: number, published: DecimalText, band?: readonly [number, number]): Judgement {
  const half = 5 / 10 ** (comparedDecimals(published) + 1);
  const difference = computed - published.value;
  const tolerance = !band ? half : difference <= 0 ? band[1] + half - computed : computed - (band[0] - half);
  const verdict = judgeInDoubles(computed, published.value, half, band) ?? judgeExact(computed, published, band);
  return { verdict, difference, tolerance };
}

/**
 * The verdict in floating point where every comparison it rests on is decided by more than any
 * rounding of its few operations (1e-12 of the magnitudes involved); undefined near a boundary,
 * where only exact arithmetic decides. Most numbers are far from a boundary: this spares them the
 * exact decimal expansion of every double.
 */
function judgeInDoubles(c: number, p: number, h: number, band?: readonly [number, number]): Exclude<Verdict, 'missing'> | undefined {
  const m = 1e-12 * Math.max(1, Math.abs(c), Math.abs(p), band ? Math.max(Math.abs(band[0]), Math.abs(band[1])) : 0);
  const d = Math.abs(c - p) - h;
  if (!(Math.abs(d) > m)) return undefined;
  if (d < 0) return 'exact';
  if (!band) return 'differs';
  const above = p - h - band[1]; // ≤ 0: the rounding interval starts below the band's top
  const below = band[0] - (p + h); // ≤ 0: it ends above the band's bottom
  if (!(Math.abs(above) > m && Math.abs(below) > m)) return undefined;
  return above < 0 && below < 0 ? 'within-mc' : 'differs';
}

/** The verdict in exact decimal arithmetic (the definition; `judge` reaches it through doubles where they decide). */
export function judgeExact(computed: number, published: DecimalText, band?: readonly [number, number]): Exclude<Verdict, 'missing'> {
  const c = exactDecimal(computed);
  const h = halfUnit(comparedDecimals(published));
  const p = { units: unitsOf(published), scale: published.decimals };
  const [lo, hi] = band ? band.map(exactDecimal) : [c, c];
  const scale = Math.max(c.scale, h.scale, lo.scale, hi.scale, published.decimals);
  const [cs, ps, hs, los, his] = [c, p, h, lo, hi].map((d) => rescale(d, scale));
  if (abs(cs - ps) <= hs) return 'exact';
  return ps - hs <= his && ps + hs >= los ? 'within-mc' : 'differs';
}
