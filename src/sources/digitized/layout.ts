import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import { cellKeyOf, parseN, splitRows } from '../rates-csv.js';
import { controlCharacter, readInputFile } from '../reader-rules.js';
import type { Project, ProjectDataset, ProjectPoint } from './project.js';
import { sourcesDigitizedMsg } from './messages.js';

/**
 * The layout CSV: one row per digitized point, `dataset,point,model,game,framing,n` — `point` the
 * point's label as WebPlotDigitizer stores it (its metadata "label", e.g. "Bar0"), or its 1-based
 * position in the dataset. Every point of the project has exactly one row; every cell at most one
 * point. Other columns are kept as provenance.
 */
export interface MappedPoint {
  readonly line: number;
  readonly dataset: ProjectDataset;
  readonly point: ProjectPoint;
  /** The point as the layout names it. */
  readonly pointText: string;
  readonly key: { readonly model: string; readonly game: string; readonly framing: string };
  readonly n: number;
  readonly provenance: Readonly<Record<string, string>>;
}

const REQUIRED = ['dataset', 'point', 'model', 'game', 'framing', 'n'] as const;
const POSITION = /^\d+$/;

export interface Layout { readonly path: string; readonly sha256: string; readonly points: readonly MappedPoint[];
  readonly provenanceColumns: readonly string[] }

function header(file: string, fields: readonly string[]): string[] {
  const cols = fields.map((h) => h.trim());
  cols.forEach((h, i) => {
    const bad = controlCharacter(h);
    if (bad !== undefined) throw new UserError(sourcesDigitizedMsg.controlCharacter(file, 1, h, bad));
    const first = cols.indexOf(h);
    if (first !== i) throw new UserError(msg.duplicateColumn(file, h, first + 1, i + 1));
  });
  for (const c of REQUIRED) if (!cols.includes(c)) throw new UserError(msg.missingColumn(file, c, cols));
  return cols;
}

function findPoint(ds: ProjectDataset, text: string): ProjectPoint | undefined {
  return ds.points.find((p) => p.label === text) ?? (POSITION.test(text) ? ds.points[Number(text) - 1] : undefined);
}

/** Read the layout and map it onto the project's points (the first problem ends the read). */
export function readLayout(path: string, file: string, project: Project, projectFile: string): Layout {
  const { text, sha256 } = readInputFile(path, file);
  const raw = splitRows(text, file);
  if (raw.length < 2) throw new UserError(msg.emptyTable(file));
  const cols = header(file, raw[0].fields);
  const extra = cols.filter((c) => !(REQUIRED as readonly string[]).includes(c));
  const byPoint = new Map<string, number>();
  const byCell = new Map<string, number>();
  const points = raw.slice(1).map(({ line, fields }): MappedPoint => {
    if (fields.length !== cols.length) throw new UserError(msg.wrongFieldCount(file, line, fields.length, cols.length));
    const get = (c: string) => fields[cols.indexOf(c)].trim();
    const need = (c: string) => { const v = get(c); if (v === '') throw new UserError(msg.missingField(file, line, c)); return v; };
    const dsName = need('dataset');
    const dataset = project.datasets.find((d) => d.name === dsName);
    if (!dataset) throw new UserError(sourcesDigitizedMsg.layoutNoDataset(file, line, dsName, project.datasets.map((d) => d.name)));
    const pointText = need('point');
    const point = findPoint(dataset, pointText);
    if (!point) throw new UserError(sourcesDigitizedMsg.layoutNoPoint(file, line, dsName, pointText, dataset.points.length));
    const pid = JSON.stringify([dsName, point.position]);
    if (byPoint.has(pid)) throw new UserError(sourcesDigitizedMsg.layoutSamePoint(file, line, byPoint.get(pid)!));
    byPoint.set(pid, line);
    const key = cellKeyOf(file, line, need);
    const cid = JSON.stringify([key.model, key.game, key.framing]);
    if (byCell.has(cid)) throw new UserError(sourcesDigitizedMsg.layoutSameCell(file, line, byCell.get(cid)!, `${key.model} / ${key.game} / ${key.framing}`));
    byCell.set(cid, line);
    const n = parseN(file, line, need('n'));
    return { line, dataset, point, pointText, key, n, provenance: Object.fromEntries(extra.map((c) => [c, get(c)])) };
  });
  for (const ds of project.datasets) {
    for (const p of ds.points) {
      if (!byPoint.has(JSON.stringify([ds.name, p.position]))) throw new UserError(sourcesDigitizedMsg.pointUnmapped(projectFile, file, ds.name,
        p.label ?? String(p.position)));
    }
  }
  return { path: file, sha256, points, provenanceColumns: extra };
}
