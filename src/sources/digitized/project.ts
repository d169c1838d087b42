import { UserError } from '../../core/errors.js';
import { barCalibration, xyCalibration, type Calibration, type Pixel } from './calibration.js';
import { sourcesDigitizedMsg } from './messages.js';

/**
 * A WebPlotDigitizer project (format 4.x, as WPD 4 and 5 save it; docs/methods.md "From a
 * figure"), validated field by field: `axesColl` (BarAxes, XYAxes), `datasetColl` with each
 * point's click in image pixels and its label. Every number is checked (JSON numbers for pixels;
 * the calibration values as the user typed them, strings or numbers); the first problem ends the
 * read with one line naming the file and the field's path. The stored `value` of a point is not read.
 */
export interface ProjectPoint {
  /** 1-based position in its dataset. */
  readonly position: number;
  readonly label?: string;
  readonly x: number;
  readonly y: number;
}

export interface ProjectDataset { readonly name: string; readonly axesName: string; readonly points: readonly ProjectPoint[] }

export interface ProjectAxes {
  readonly name: string;
  readonly type: string;
  /** The calibration of a supported type (BarAxes, XYAxes); undefined for other types, refused when a dataset uses them. */
  readonly calibration?: Calibration;
  /** Path of the axes in the file, for messages. */
  readonly path: string;
  /** The calibration clicks and values as the user gave them (for the sensitivity to moving a click). */
  readonly clicks: readonly Pixel[];
  readonly flags: Readonly<Record<string, boolean>>;
  readonly values: readonly number[];
}

export interface Project { readonly version: string; readonly axes: readonly ProjectAxes[]; readonly datasets: readonly ProjectDataset[] }

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A typed calibration value: a plain decimal or exponent form, nothing else ("NaN", "0x1", "" refused). */
const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

class Reader {
  constructor(readonly file: string) {}
  fail(path: string, what: string): never { throw new UserError(sourcesDigitizedMsg.field(this.file, path, what)); }
  get(o: Record<string, Json>, key: string, path: string): Json {
    if (!Object.hasOwn(o, key) || o[key] === undefined) throw new UserError(sourcesDigitizedMsg.missing(this.file, `${path}${path ? '.' : ''}${key}`));
    return o[key];
  }
  object(v: Json, path: string): Record<string, Json> {
    if (!isObject(v)) this.fail(path, 'not a JSON object');
    return v;
  }
  array(v: Json, path: string): Json[] {
    if (!Array.isArray(v)) this.fail(path, 'not a JSON array');
    return v;
  }
  string(v: Json, path: string): string {
    if (typeof v !== 'string') this.fail(path, 'not a string');
    return v;
  }
  /** A pixel coordinate: a finite JSON number (WPD writes numbers). */
  pixel(v: Json, path: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new UserError(sourcesDigitizedMsg.notNumber(this.file, path, v));
    return v;
  }
  /** A calibration value as typed: a number, or a string holding one. */
  typed(v: Json, path: string): number {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && NUMBER_TEXT.test(v) && Number.isFinite(Number(v))) return Number(v);
    throw new UserError(sourcesDigitizedMsg.notNumber(this.file, path, v));
  }
  flag(o: Record<string, Json>, key: string, path: string): boolean {
    const v = o[key];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') this.fail(`${path}.${key}`, 'not true or false');
    return v;
  }
}

const AXES_FLAGS: Record<string, readonly string[]> = { BarAxes: ['isLog', 'isRotated'], XYAxes: ['isLogX', 'isLogY', 'noRotation', 'isXDate', 'isYDate'] };
const CLICKS: Record<string, number> = { BarAxes: 2, XYAxes: 4 };

function readAxes(r: Reader, v: Json, path: string): ProjectAxes {
  const o = r.object(v, path);
  const name = r.string(r.get(o, 'name', path), `${path}.name`);
  const type = r.string(r.get(o, 'type', path), `${path}.type`);
  if (CLICKS[type] === undefined) return { name, type, path, clicks: [], flags: {}, values: [] };
  const flags = Object.fromEntries(AXES_FLAGS[type].map((k) => [k, r.flag(o, k, path)]));
  const cps = r.array(r.get(o, 'calibrationPoints', path), `${path}.calibrationPoints`);
  if (cps.length !== CLICKS[type]) r.fail(`${path}.calibrationPoints`, `${type} needs ${CLICKS[type]} calibration points, the file has ${cps.length}`);
  const pts = cps.map((c, i) => r.object(c, `${path}.calibrationPoints[${i}]`));
  const clicks = pts.map((c, i) => ({ x: r.pixel(r.get(c, 'px', `${path}.calibrationPoints[${i}]`), `${path}.calibrationPoints[${i}].px`), y: r.pixel(r.get(c,
    'py', `${path}.calibrationPoints[${i}]`), `${path}.calibrationPoints[${i}].py`) }));
  const typed = (i: number, key: 'dx' | 'dy') => r.typed(r.get(pts[i], key, `${path}.calibrationPoints[${i}]`), `${path}.calibrationPoints[${i}].${key}`);
  let cal: Calibration | string;
  let values: number[];
  if (type === 'BarAxes') {
    values = [typed(0, 'dy'), typed(1, 'dy')];
    cal = barCalibration(clicks[0], clicks[1], values[0], values[1], flags.isLog);
  } else {
    if (flags.isXDate || flags.isYDate) throw new UserError(sourcesDigitizedMsg.calibration(r.file, path, 'dates'));
    values = [typed(0, 'dx'), typed(1, 'dx'), typed(2, 'dy'), typed(3, 'dy')];
    cal = xyCalibration(clicks as [Pixel, Pixel, Pixel, Pixel], { xmin: values[0], xmax: values[1], ymin: values[2], ymax: values[3] },
      flags.isLogX, flags.isLogY, flags.noRotation);
  }
  if (typeof cal === 'string') throw new UserError(sourcesDigitizedMsg.calibration(r.file, `${path}.calibrationPoints`, cal));
  return { name, type, path, calibration: cal, clicks, flags, values };
}

/** A point's label: `metadata.label` (current files), or the value under "label" of an array `metadata` (older ones). */
function labelOf(r: Reader, p: Record<string, Json>, keys: readonly string[], path: string): string | undefined {
  const meta = p.metadata;
  if (meta === undefined || meta === null) return undefined;
  const raw = Array.isArray(meta) ? (keys.indexOf('label') >= 0 ? meta[keys.indexOf('label')] : undefined) : r.object(meta, `${path}.metadata`).label;
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return r.string(raw, `${path}.metadata${Array.isArray(meta) ? `[${keys.indexOf('label')}]` : '.label'}`);
}

function readDataset(r: Reader, v: Json, path: string): ProjectDataset {
  const o = r.object(v, path);
  const name = r.string(r.get(o, 'name', path), `${path}.name`);
  const axesName = r.string(r.get(o, 'axesName', path), `${path}.axesName`);
  const keys = o.metadataKeys === undefined || o.metadataKeys === null ? [] : r.array(o.metadataKeys, `${path}.metadataKeys`).map((k, i) => r.string(k,
    `${path}.metadataKeys[${i}]`));
  const data = r.array(r.get(o, 'data', path), `${path}.data`);
  const points = data.map((d, i) => {
    const pp = `${path}.data[${i}]`;
    const p = r.object(d, pp);
    return { position: i + 1, label: labelOf(r, p, keys, pp), x: r.pixel(r.get(p, 'x', pp), `${pp}.x`), y: r.pixel(r.get(p, 'y', pp), `${pp}.y`) };
  });
  return { name, axesName, points };
}

/** A name used twice (two axes, or two datasets, of one name) is refused naming both: which one a layout or a dataset means would be a guess. */
function onceEach(file: string, coll: string, names: readonly string[], what: 'axes' | 'dataset'): void {
  const first = new Map<string, number>();
  names.forEach((n, i) => {
    const j = first.get(n);
    if (j !== undefined) throw new UserError(sourcesDigitizedMsg.nameTwice(file, `${coll}[${i}].name`, n, `${coll}[${j}].name`, what));
    first.set(n, i);
  });
}

/** Parse and validate a project's JSON text. */
export function parseProject(text: string, file: string): Project {
  let json: Json;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UserError(sourcesDigitizedMsg.notJson(file, (e as Error).message));
  }
  const r = new Reader(file);
  const top = r.object(json, '(top level)');
  const ver = r.array(r.get(top, 'version', ''), 'version');
  if (ver.length < 1 || !ver.every((x) => typeof x === 'number' && Number.isInteger(x)) || (ver[0] !== 4 && ver[0] !== 5)) {
    throw new UserError(sourcesDigitizedMsg.version(file, JSON.stringify(ver)));
  }
  const axes = r.array(r.get(top, 'axesColl', ''), 'axesColl').map((a, i) => readAxes(r, a, `axesColl[${i}]`));
  const datasets = r.array(r.get(top, 'datasetColl', ''), 'datasetColl').map((d, i) => readDataset(r, d, `datasetColl[${i}]`));
  onceEach(file, 'axesColl', axes.map((a) => a.name), 'axes');
  onceEach(file, 'datasetColl', datasets.map((d) => d.name), 'dataset');
  datasets.forEach((d, i) => {
    const a = axes.find((x) => x.name === d.axesName);
    if (!a) throw new UserError(sourcesDigitizedMsg.unknownAxes(file, `datasetColl[${i}].axesName`, d.axesName));
    if (!a.calibration && d.points.length > 0) throw new UserError(sourcesDigitizedMsg.axesType(file, `${a.path}.type`, a.type));
  });
  return { version: ver.join('.'), axes, datasets };
}
