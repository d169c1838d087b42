/**
 * The scale of a meta-analysis problem. The fits are equivariant (effects × c: estimates × c,
 * variances × c²), so they run on yᵢ/c and vᵢ/c² with c = √median(vᵢ), the typical sampling SD:
 * the iterations' tolerances are then relative to the data, and variances of 1e-40 or effects of
 * 1e200 are as well conditioned as 0.01 and 0.2. What stays out of double precision's reach after
 * scaling (an effect or variance more than 1e60 times the typical one, in SDs) is not pooled.
 */

/** How far a scaled effect (in typical SDs) or variance (in typical variances) may lie from 1. */
export const SCALE_LIMIT = 1e60;

/** The median of a copy of xs (NaN when empty). */
function median(xs: Float64Array): number {
  const s = Float64Array.from(xs).sort();
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** The typical sampling SD c = √median(vᵢ) (1 when that is not a positive finite number). */
export function effectScale(v: Float64Array): number {
  const c = Math.sqrt(median(v));
  return c > 0 && Number.isFinite(c) ? c : 1;
}

/** Why row i cannot be pooled at scale c, or undefined when it can. */
export function outOfRange(y: number, v: number, c: number): string | undefined {
  const ys = y / c;
  const vs = v / c / c;
  if (!Number.isFinite(y) || !(Math.abs(ys) <= SCALE_LIMIT)) {
    return `yi = ${y} is more than ${SCALE_LIMIT} times the effects' typical sampling SD (${c.toPrecision(3)})`;
  }
  if (!(v > 0) || !Number.isFinite(v) || !(vs <= SCALE_LIMIT && vs >= 1 / SCALE_LIMIT)) {
    return `vi = ${v} is more than ${SCALE_LIMIT} times away from the effects' typical sampling variance (${(c * c).toPrecision(3)})`;
  }
  return undefined;
}

/** The first row (index) that cannot be pooled with the others at scale c (the effects' own by default), with the reason; undefined when all can. */
export function firstOutOfRange(y: Float64Array, v: Float64Array, c = effectScale(v)): { index: number; reason: string } | undefined {
  for (let i = 0; i < y.length; i++) {
    const reason = outOfRange(y[i], v[i], c);
    if (reason) return { index: i, reason };
  }
  return undefined;
}

/** The scaled copies y/c and v/c². */
export function scaled(y: Float64Array, v: Float64Array, c: number): { y: Float64Array; v: Float64Array } {
  return { y: y.map((x) => x / c), v: v.map((x) => x / c / c) };
}


/** A problem on its own scale: c = √median(vᵢ) and the scaled copies y/c, v/c². */
export interface ScaledProblem { readonly c: number; readonly y: Float64Array; readonly v: Float64Array }

/**
 * The preamble of every fit: the scale c (one sort for the median), a check that every row is
 * within reach at that scale, and the scaled copies; undefined when a row is out of reach.
 */
export function scaledProblem(y: Float64Array, v: Float64Array): ScaledProblem | undefined {
  const c = effectScale(v);
  if (firstOutOfRange(y, v, c)) return undefined;
  return { c, ...scaled(y, v, c) };
}
