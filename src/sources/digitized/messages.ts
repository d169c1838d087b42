/**
 * The user-facing messages used only in sources/digitized/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { at, controlCharacterWhat } from '../../core/messages/common.js';
import { q } from '../../core/messages/text.js';

/** A parser's detail on one line: control characters shown as escapes, at most 120 characters. */
const oneLine = (s: string) => {
  const t = s.replace(/[\u0000-\u001f\u007f]/g,
    (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
};


const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0)} MiB`;


export const sourcesDigitizedMsg = {
  controlCharacter: (file: string, line: number, field: string, codepoint: string) => at(file, line, field, controlCharacterWhat(codepoint)),
  notJson: (file: string, detail: string) => `${file}: not a WebPlotDigitizer project (not JSON: ${oneLine(detail)})`,
  anImage: (file: string, kind: string) => `${file}: not a WebPlotDigitizer project (a ${kind} image; give the project .tar or its wpd.json)`,
  field: (file: string, path: string, what: string) => at(file, undefined, path, what),
  notNumber: (file: string, path: string, value: unknown) => at(file, undefined, path,
    `${q(String(typeof value === 'string' ? value : JSON.stringify(value) ?? typeof value))} is not a finite number`),
  missing: (file: string, path: string) => at(file, undefined, path, 'missing'),
  version: (file: string, version: string) => at(file, undefined, 'version', `format ${version} is not a WebPlotDigitizer 4 or 5 project`),
  axesType: (file: string, path: string, type: string) =>
    at(file, undefined, path, `axes type ${q(type)} is not supported (bar charts: BarAxes; XY plots: XYAxes)`),
  calibration: (file: string, path: string, problem: string) => at(file, undefined, path, {
    'equal-points': 'two calibration points are the same pixel: the axis has no direction',
    'equal-values': 'the calibration values are equal: the axis has no scale',
    'log-nonpositive': 'a logarithmic axis needs positive calibration values',
    singular: 'the x and y calibration axes are parallel: no map from pixels to values',
    dates: 'date axes are not supported (rates are numbers)',
  }[problem] ?? problem),
  nameTwice: (file: string, path: string, name: string, firstPath: string, what: string) =>
    at(file, undefined, path, `${what} name ${q(name)} is used twice (also ${firstPath}): rename one in WebPlotDigitizer`),
  unknownAxes: (file: string, path: string, name: string) => at(file, undefined, path, `names no axes of the project (${q(name)})`),
  tooLarge: (file: string, what: string, bytes: number, limit: number) =>
    `${file}: ${what} is ${mib(bytes)}, above the limit of ${mib(limit)}`,
  tarDamaged: (file: string, offset: number, detail: string) => `${file}: not a project .tar or damaged at byte ${offset} (${detail})`,
  tarUnsafePath: (file: string, name: string) => `${file}: member ${q(name)} is an absolute path or leaves the project folder ("..")`,
  tarLink: (file: string, name: string) => `${file}: member ${q(name)} is a link; a project .tar holds regular files only`,
  tarSpecial: (file: string, name: string, type: string) => `${file}: member ${q(name)} is not a regular file (tar type ${q(type)})`,
  tarTooMany: (file: string, limit: number) => `${file}: more than ${limit} members; a project .tar holds info.json, wpd.json and its images`,
  tarNoProject: (file: string) => `${file}: holds no wpd.json (a WebPlotDigitizer project .tar has info.json, wpd.json and the image files)`,
  tarTwoProjects: (file: string, a: string, b: string) => `${file}: holds two projects (${q(a)} and ${q(b)}); give one`,
  tarMissing: (file: string, name: string, by: string) => `${file}: ${by} names ${q(name)}, which the .tar does not hold`,
  layoutNoDataset: (file: string, line: number, name: string, known: readonly string[]) =>
    at(file, line, 'dataset', `the project has no dataset ${q(name)} (its datasets: ${known.map(q).join(', ')})`),
  layoutNoPoint: (file: string, line: number, dataset: string, point: string, count: number) =>
    at(file, line, 'point', `dataset ${q(dataset)} has no point ${q(point)} (a label as WebPlotDigitizer stores it, or a position from 1 to ${count})`),
  layoutSamePoint: (file: string, line: number, first: number) => at(file, line, 'point', `this point is mapped already on line ${first}`),
  layoutSameCell: (file: string, line: number, first: number, cell: string) => at(file, line, undefined,
    `two points for the cell ${cell} (first on line ${first})`),
  pointUnmapped: (file: string, layout: string, dataset: string, point: string) =>
    `${file}: dataset ${q(dataset)}, point ${q(point)} has no row in ${layout} (map every digitized point to a cell, or delete it in WebPlotDigitizer)`,
  outOfRange: (file: string, dataset: string, point: string, value: string, K: number) =>
    (`${file}: dataset ${q(dataset)}, point ${q(point)} reads ${value}, outside [0, 1] by more than ±${K} px: check the calibration (rates are read on a ` +
      `0–1 axis) or the click`),
};
