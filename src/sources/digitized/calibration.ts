/**
 * The two pixel → value maps of WebPlotDigitizer projects (docs/methods.md "From a figure"),
 * recomputed here from the calibration clicks: a project's stored `value` is never used.
 *
 * - Bar axes: two clicks (x1, y1) → v1 and (x2, y2) → v2 on the value axis. A pixel's value is
 *   v1 + (v2 − v1)·t, with t the projection of (x − x1, y − y1) on (x2 − x1, y2 − y1) over its
 *   squared length (on log10 values when the axis is logarithmic). Only the component along the
 *   axis matters, so rotated images read the same.
 * - XY axes: clicks 1, 2 on the x axis (data xmin, xmax), 3, 4 on the y axis (ymin, ymax); the
 *   affine map A = D·P⁻¹ with D = diag(xmin − xmax, ymin − ymax) and P = [[x1 − x2, x3 − x4],
 *   [y1 − y2, y3 − y4]], offsets c = (xmin − A₀·(x1, y1), ymin − A₁·(x3, y3)); `noRotation`
 *   snaps A to the nearer axis-aligned map, as WPD does.
 */
export interface Pixel { readonly x: number; readonly y: number }

export interface BarCalibration {
  readonly kind: 'bar';
  readonly p1: Pixel;
  readonly p2: Pixel;
  /** The calibration values, as log10 when `log`. */
  readonly v1: number;
  readonly v2: number;
  readonly log: boolean;
}

export interface XYCalibration {
  readonly kind: 'xy';
  /** Row-major 2 × 2 matrix A and offsets c: data = A·pixel + c (log10 data on a log axis). */
  readonly a: readonly [number, number, number, number];
  readonly c: readonly [number, number];
  readonly logX: boolean;
  readonly logY: boolean;
}

export type Calibration = BarCalibration | XYCalibration;

/** Why a calibration cannot be used (the reader turns it into a message naming the axes). */
export type CalibrationProblem = 'equal-points' | 'equal-values' | 'log-nonpositive' | 'singular';

const lg = (v: number) => Math.log10(v);

export function barCalibration(p1: Pixel, p2: Pixel, v1: number, v2: number, log: boolean): BarCalibration | CalibrationProblem {
  if (p1.x === p2.x && p1.y === p2.y) return 'equal-points';
  if (log && !(v1 > 0 && v2 > 0)) return 'log-nonpositive';
  const c: BarCalibration = { kind: 'bar', p1, p2, v1: log ? lg(v1) : v1, v2: log ? lg(v2) : v2, log };
  return c.v1 === c.v2 ? 'equal-values' : c;
}

const det = (m: readonly number[]) => m[0] * m[3] - m[1] * m[2];
const inv2 = (m: readonly number[]): [number, number, number, number] => {
  const d = det(m);
  return [m[3] / d, -m[1] / d, -m[2] / d, m[0] / d];
};
const mul2 = (a: readonly number[], b: readonly number[]): [number, number, number, number] =>
  [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]];

/** The XY map from four clicks: `p` the pixels, `xmin`, `xmax` the x values of clicks 1, 2, `ymin`, `ymax` the y values of 3, 4. */
export function xyCalibration(p: readonly [Pixel, Pixel, Pixel, Pixel], data: { xmin: number; xmax: number; ymin: number; ymax: number },
  logX: boolean, logY: boolean, noRotation: boolean): XYCalibration | CalibrationProblem {
  if (logX && !(data.xmin > 0 && data.xmax > 0)) return 'log-nonpositive';
  if (logY && !(data.ymin > 0 && data.ymax > 0)) return 'log-nonpositive';
  const [xmin, xmax] = logX ? [lg(data.xmin), lg(data.xmax)] : [data.xmin, data.xmax];
  const [ymin, ymax] = logY ? [lg(data.ymin), lg(data.ymax)] : [data.ymin, data.ymax];
  if (xmin === xmax || ymin === ymax) return 'equal-values';
  if ((p[0].x === p[1].x && p[0].y === p[1].y) || (p[2].x === p[3].x && p[2].y === p[3].y)) return 'equal-points';
  const P = [p[0].x - p[1].x, p[2].x - p[3].x, p[0].y - p[1].y, p[2].y - p[3].y];
  // Parallel axes (|det| small against the lengths): no map.
  if (Math.abs(det(P)) <= 1e-9 * Math.hypot(P[0], P[2]) * Math.hypot(P[1], P[3])) return 'singular';
  let a = mul2([xmin - xmax, 0, 0, ymin - ymax], inv2(P));
  if (noRotation) {
    a = Math.abs(a[0] * a[3]) > Math.abs(a[1] * a[2])
      ? [(xmax - xmin) / (p[1].x - p[0].x), 0, 0, (ymax - ymin) / (p[3].y - p[2].y)]
      : [0, (xmax - xmin) / (p[1].y - p[0].y), (ymax - ymin) / (p[3].x - p[2].x), 0];
    if (!a.every(Number.isFinite) || det(a) === 0) return 'singular';
  }
  const c: [number, number] = [xmin - a[0] * p[0].x - a[1] * p[0].y, ymin - a[2] * p[2].x - a[3] * p[2].y];
  return { kind: 'xy', a, c, logX, logY };
}

const unlog = (v: number, log: boolean) => (log ? 10 ** v : v);

/** The bar axis's coordinate t of a pixel (0 at click 1, 1 at click 2) and its signed distance off the axis line. */
function barCoordinates(cal: BarCalibration, p: Pixel): { t: number; off: number } {
  const dx = cal.p2.x - cal.p1.x, dy = cal.p2.y - cal.p1.y;
  const len2 = dx * dx + dy * dy;
  const rx = p.x - cal.p1.x, ry = p.y - cal.p1.y;
  return { t: (rx * dx + ry * dy) / len2, off: (rx * -dy + ry * dx) / Math.sqrt(len2) };
}

/** The value a pixel reads: a bar axis's value, an XY axis's y (the x is `xyData`'s). */
export function valueAt(cal: Calibration, p: Pixel): number {
  if (cal.kind === 'bar') return unlog(cal.v1 + (cal.v2 - cal.v1) * barCoordinates(cal, p).t, cal.log);
  return xyData(cal, p).y;
}

/** Both data coordinates of a pixel on XY axes. */
export function xyData(cal: XYCalibration, p: Pixel): { x: number; y: number } {
  return {
    x: unlog(cal.a[0] * p.x + cal.a[1] * p.y + cal.c[0], cal.logX),
    y: unlog(cal.a[2] * p.x + cal.a[3] * p.y + cal.c[1], cal.logY),
  };
}

/** The pixel of XY data (x, y): the inverse of xyData. */
export function xyPixel(cal: XYCalibration, d: { x: number; y: number }): Pixel {
  const u = (cal.logX ? lg(d.x) : d.x) - cal.c[0], v = (cal.logY ? lg(d.y) : d.y) - cal.c[1];
  const m = inv2(cal.a);
  return { x: m[0] * u + m[1] * v, y: m[2] * u + m[3] * v };
}

/** The pixel of value `v` at signed distance `off` from the bar axis line: the inverse of (valueAt, offAxis). */
export function barPixel(cal: BarCalibration, v: number, off: number): Pixel {
  const t = ((cal.log ? lg(v) : v) - cal.v1) / (cal.v2 - cal.v1);
  const dx = cal.p2.x - cal.p1.x, dy = cal.p2.y - cal.p1.y;
  const len = Math.hypot(dx, dy);
  return { x: cal.p1.x + t * dx - (off * dy) / len, y: cal.p1.y + t * dy + (off * dx) / len };
}

/** A pixel's signed distance from the bar axis line (what the value does not depend on). */
export const offAxis = (cal: BarCalibration, p: Pixel): number => barCoordinates(cal, p).off;

/**
 * The unit pixel direction along which the value changes and nothing else does: the bar axis
 * itself; on XY axes the direction that moves y and keeps x (A⁻¹·(0, 1), normalised). For an
 * upright chart it is the image's vertical, so ±K px along it is py ± K.
 */
export function valueDirection(cal: Calibration): Pixel {
  const d = cal.kind === 'bar'
    ? { x: cal.p2.x - cal.p1.x, y: cal.p2.y - cal.p1.y }
    : (() => { const m = inv2(cal.a); return { x: m[1], y: m[3] }; })();
  const len = Math.hypot(d.x, d.y);
  return { x: d.x / len, y: d.y / len };
}
