/**
 * Significant digits of every number samegame writes to a CSV or JSON file (README, "Numbers in
 * the files"). A double carries 15–17; the last few of a computed value are binary noise
 * (0.7 − 0.4 = 0.29999999999999993), so each value is rounded to 12 and written in its shortest
 * form: a rate of counts prints as its exact decimal (7/10 → 0.7), a count as an integer.
 */
export const FILE_DIGITS = 12;

/**
 * A number as the files write it: integers up to 2^53 (counts) as they are, others rounded to FILE_DIGITS
 * significant digits (a computed 1.6000000000000002e198 is a whole number too, written 1.6e+198).
 * With a scale (the largest magnitude among the numbers the value is computed with and
 * written beside, e.g. a regression's estimates), a value below the scale's FILE_DIGITS-th
 * significant digit is float noise and written 0: an estimate of 0 computed as 0.3068 − 0.3068
 * comes out 2.8e−16, a few ulps of 0.3, not a number the data can tell from 0.
 */
export function fileNumber(x: number, scale = 0): number {
  if (!Number.isFinite(x)) return x;
  if (Number.isFinite(scale) && Math.abs(x) < Math.abs(scale) * 10 ** -FILE_DIGITS) return 0;
  if (Number.isSafeInteger(x)) return x;
  const r = Number(x.toPrecision(FILE_DIGITS));
  return r === 0 ? 0 : r;
}

/** The scale of a set of numbers for fileNumber: the largest finite magnitude (0 when none). */
export function scaleOf(xs: readonly number[]): number {
  return xs.reduce((m, x) => (Number.isFinite(x) ? Math.max(m, Math.abs(x)) : m), 0);
}

/**
 * Fixed number formatting for every file samegame writes, so that outputs are byte-identical for
 * a given seed: the shortest form of the value rounded to FILE_DIGITS significant digits; NaN
 * is written empty.
 */
export function full(x: number, scale = 0): string {
  return Number.isFinite(x) ? String(fileNumber(x, scale)) : '';
}

/** JSON text of a value with every number written by the files' rule (fileNumber). */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' ? fileNumber(v) : v), indent);
}

/** A number for a JSON value: NaN and ±∞ as null. */
export const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Rounded for people (terminal, Markdown): fixed decimals (0 to 100, what toFixed takes), "−0.000" avoided. */
export function fixed(x: number, digits = 3): string {
  if (!Number.isFinite(x)) return 'NA';
  const s = x.toFixed(Math.max(0, Math.min(100, Math.trunc(digits))));
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** fixed with its sign: "+0.0123" above 0, "-0.0123" below; a value that rounds to 0 unsigned. */
export const signed = (x: number, d = 4): string => (x > 0 && fixed(x, d) !== fixed(0, d) ? `+${fixed(x, d)}` : fixed(x, d));

export function interval(lo: number, hi: number, digits = 3): string {
  return `[${fixed(lo, digits)}, ${fixed(hi, digits)}]`;
}
