import type { Cell } from '../../core/cells.js';
import { UserError } from '../../core/errors.js';
import { checkPlannedFramings, FACTORS, type RateRow, type RatesInput } from '../rates-csv.js';
import { barCalibration, valueAt, valueDirection, xyCalibration, type Calibration, type Pixel } from './calibration.js';
import { loadProject, type ProjectImage } from './load.js';
import { readLayout, type MappedPoint } from './layout.js';
import { parseProject, type ProjectAxes } from './project.js';
import { sourcesDigitizedMsg } from './messages.js';

/**
 * A digitized figure as an input (docs/methods.md "From a figure"): every point's value
 * recomputed from its axes' calibration, the rate it gives, the count round(rate · n), and the
 * values and counts ±K px along the value axis (the reading error of the click). The counts are
 * reconstructed (as from rates); the values carry no reported decimals, so the GRIM-style check
 * has no rate to test.
 */
export interface DigitizedPoint {
  readonly line: number;
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly dataset: string;
  readonly point: string;
  readonly px: number;
  readonly py: number;
  readonly n: number;
  readonly value: number;
  /** The values at ±K px along the value axis, ordered. */
  readonly valueLo: number;
  readonly valueHi: number;
  readonly count: number;
  readonly countLo: number;
  readonly countHi: number;
  /** The pixels ±K px along the value axis (lo end, hi end), for the report's whiskers. */
  readonly whisker: readonly [Pixel, Pixel];
}

/** What moving one calibration click ±K/2 px along the value axis does, at most, to the values and counts of its axes' points. */
export interface ClickShift { readonly axes: string; readonly click: number; readonly value: number; readonly count: number }

export interface DigitizedInput {
  readonly path: string;
  readonly sha256: string;
  readonly container: 'json' | 'tar';
  readonly version: string;
  readonly layout: { readonly path: string; readonly sha256: string };
  /** K: the pixel error of a click. */
  readonly pixelError: number;
  readonly points: readonly DigitizedPoint[];
  readonly calibration: readonly ClickShift[];
  readonly images: readonly ProjectImage[];
  /** The cells as a rates input (counts reconstructed), for every analysis and check of rates. */
  readonly rates: RatesInput;
}

export interface ReadDigitizedOptions {
  readonly layout: string;
  readonly layoutDisplay?: string;
  readonly pixelError: number;
  readonly base: string;
  readonly alt: string;
  readonly displayPath?: string;
}

export const DIGITIZED_KIND = 'reconstructed from a digitized figure (WebPlotDigitizer)';

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const countOf = (v: number, n: number) => Math.floor(clamp01(v) * n + 0.5);
const along = (p: Pixel, d: Pixel, k: number): Pixel => ({ x: p.x + k * d.x, y: p.y + k * d.y });

/** One point's value, its ±K px range and counts; refused when even its range lies outside [0, 1]. */
function readPoint(file: string, mp: MappedPoint, cal: Calibration, K: number): DigitizedPoint {
  const p = { x: mp.point.x, y: mp.point.y };
  const d = valueDirection(cal);
  const ends = [along(p, d, -K), along(p, d, K)] as const;
  const v = valueAt(cal, p);
  const [a, b] = ends.map((q) => valueAt(cal, q));
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  const whisker: [Pixel, Pixel] = a <= b ? [ends[0], ends[1]] : [ends[1], ends[0]];
  if (!Number.isFinite(v) || !Number.isFinite(lo) || !Number.isFinite(hi) || hi < 0 || lo > 1) {
    throw new UserError(sourcesDigitizedMsg.outOfRange(file, mp.dataset.name, mp.pointText, Number.isFinite(v) ? v.toPrecision(6) : String(v), K));
  }
  return {
    line: mp.line, ...mp.key, dataset: mp.dataset.name, point: mp.pointText, px: p.x, py: p.y, n: mp.n,
    value: v, valueLo: lo, valueHi: hi, count: countOf(v, mp.n), countLo: countOf(lo, mp.n), countHi: countOf(hi, mp.n), whisker,
  };
}

/** The axes' calibration with click `i` moved by `shift` px. */
function moved(ax: ProjectAxes, i: number, shift: Pixel): Calibration | undefined {
  const c = ax.clicks.map((q, j) => (j === i ? { x: q.x + shift.x, y: q.y + shift.y } : q));
  const v = ax.values;
  const cal = ax.type === 'BarAxes' ? barCalibration(c[0], c[1], v[0], v[1], ax.flags.isLog)
    : xyCalibration(c as [Pixel, Pixel, Pixel, Pixel], { xmin: v[0], xmax: v[1], ymin: v[2], ymax: v[3] }, ax.flags.isLogX, ax.flags.isLogY,
      ax.flags.noRotation);
  return typeof cal === 'string' ? undefined : cal;
}

/** For each click of each axes its points use: the largest change of a value and of a count when the click moves ±K/2 px along the value axis. */
function clickShifts(axes: readonly ProjectAxes[], points: readonly { mp: MappedPoint; dp: DigitizedPoint }[], K: number): ClickShift[] {
  return axes.filter((ax) => ax.calibration && points.some((q) => q.mp.dataset.axesName === ax.name)).flatMap((ax) => {
    const d = valueDirection(ax.calibration!);
    const mine = points.filter((q) => q.mp.dataset.axesName === ax.name);
    return ax.clicks.map((_, i) => {
      let value = 0, count = 0;
      for (const s of [-K / 2, K / 2]) {
        const cal = moved(ax, i, { x: s * d.x, y: s * d.y });
        for (const { dp } of mine) {
          const v = cal ? valueAt(cal, { x: dp.px, y: dp.py }) : NaN;
          value = Math.max(value, Number.isFinite(v) ? Math.abs(v - dp.value) : Infinity);
          count = Math.max(count, Number.isFinite(v) ? Math.abs(countOf(v, dp.n) - dp.count) : Infinity);
        }
      }
      return { axes: ax.name, click: i + 1, value, count };
    });
  });
}

/** Read a WebPlotDigitizer project (.tar or JSON) with its layout into cells. */
export function readDigitized(path: string, opts: ReadDigitizedOptions): DigitizedInput {
  const file = opts.displayPath ?? path;
  const K = opts.pixelError;
  const loaded = loadProject(path, file);
  const project = parseProject(loaded.text, file);
  const layout = readLayout(opts.layout, opts.layoutDisplay ?? opts.layout, project, file);
  const read = layout.points.map((mp) => {
    const ax = project.axes.find((a) => a.name === mp.dataset.axesName)!;
    return { mp, dp: readPoint(file, mp, ax.calibration!, K) };
  });
  checkPlannedFramings(layout.path, layout.points.map((p) => ({ line: p.line, key: p.key })), opts.base, opts.alt);
  const rows: RateRow[] = read.map(({ mp, dp }) => {
    const cell: Cell = {
      key: { ...mp.key }, obs: { kind: 'binary', n: dp.n, x: dp.count },
      provenance: { ...mp.provenance, dataset: dp.dataset, point: dp.point, value: dp.value.toFixed(6) },
    };
    return { line: mp.line, cell, reconstructed: true };
  });
  const rates: RatesInput = {
    path: file, sha256: loaded.sha256, table: { factors: [...FACTORS], cells: rows.map((r) => r.cell) }, rows,
    provenanceColumns: [...layout.provenanceColumns, 'dataset'], kind: DIGITIZED_KIND,
  };
  return {
    path: file, sha256: loaded.sha256, container: loaded.container, version: project.version,
    layout: { path: layout.path, sha256: layout.sha256 }, pixelError: K, points: read.map((r) => r.dp),
    calibration: clickShifts(project.axes, read, K), images: loaded.images, rates,
  };
}
