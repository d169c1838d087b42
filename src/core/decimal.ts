/**
 * Rates are kept as the text that was reported, so that their number of decimals (trailing zeros
 * included) is known and the reconstruction count = round(rate · n) is exact, not subject to
 * binary floating point (0.087 · 300 = 26.099999…).
 */
export interface DecimalText {
  readonly text: string;
  readonly value: number;
  /** Digits after the decimal point as written ("0.130" → 3). */
  readonly decimals: number;
  /**
   * value = units / 10^decimals exactly; units as decimal digits (a string, so the type stays
   * JSON-serializable; arithmetic on it is exact through unitsOf).
   */
  readonly units: string;
}

/** The exact integer units of a decimal, for BigInt arithmetic. */
export const unitsOf = (rate: DecimalText): bigint => BigInt(rate.units);

const DECIMAL = /^[+]?(\d*)(?:\.(\d*))?$/;

/** Parse a plain non-negative decimal ("0.087", "1", ".5"); undefined when it is not one. */
export function parseDecimal(text: string): DecimalText | undefined {
  const t = text.trim();
  const m = DECIMAL.exec(t);
  if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return undefined;
  const frac = m[2] ?? '';
  const units = BigInt((m[1] || '0') + frac).toString();
  return { text: t, value: Number(t), decimals: frac.length, units };
}

/** The decimal written as a percent turned into a rate, at the same precision: "32.3" → "0.323", "87" → "0.87". */
export function percentAsRate(d: DecimalText): string {
  const decimals = d.decimals + 2;
  const digits = d.units.padStart(decimals + 1, '0');
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** round(units/10^d · n), halves rounded up, in exact integer arithmetic. */
export function roundedCount(rate: DecimalText, n: number): number {
  const scale = 10n ** BigInt(rate.decimals);
  const twice = 2n * unitsOf(rate) * BigInt(n) + scale;
  return Number(twice / (2n * scale));
}

/** Does x/n round (halves up) to the reported rate at its number of decimals? */
export function countReproducesRate(x: number, n: number, rate: DecimalText): boolean {
  const scale = 10n ** BigInt(rate.decimals);
  // round(x/n · 10^d) = floor((2·x·10^d + n) / (2n))
  const r = (2n * BigInt(x) * scale + BigInt(n)) / (2n * BigInt(n));
  return r === unitsOf(rate);
}
