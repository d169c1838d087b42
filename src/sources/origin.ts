/**
 * The provenance of each reader's result (core/provenance.ts `Origin`), built here for every input
 * kind: a stored run (its design: synthetic flag, simulated models, framing texts, names; the run
 * and its design hash), a per-trial file (its `synthetic` column, and the sidecar `export` writes
 * beside it), rates and digitized projects (their file).
 */
import { readRegular } from '../core/input-file.js';
import { displayNames } from '../core/display-names.js';
import type { FramingText, Origin } from '../core/provenance.js';
import type { RunInfo, TrialStore } from '../live/store/store.js';
import { readableDesign } from '../live/store/stored-design.js';
import type { ProvenanceColumn } from './trials.js';
import type { ExportOrder } from './export-layout.js';
import { sourcesMsg } from './messages.js';

/** The models a stored design answers through the simulated provider. */
export const simulatedModels = (run: Pick<RunInfo, 'designJson'>): string[] =>
  (readableDesign(run)?.models ?? []).filter((m) => m.provider === 'simulated').map((m) => m.id ?? '');

/** The framings of a stored design with their templates, and the first stored prompt of each when the store is given. */
function framingTexts(run: RunInfo, store?: TrialStore): FramingText[] {
  const prompts = new Map((store?.framingPrompts(run.id) ?? []).map((p) => [p.framing, p.prompt]));
  return (readableDesign(run)?.framings ?? []).map((f) => {
    const id = typeof f === 'string' ? f : f.id ?? '';
    const template = typeof f === 'string' ? undefined : (f as { template?: unknown }).template;
    const prompt = prompts.get(id);
    return { id, ...(typeof template === 'string' ? { template } : {}), ...(prompt !== undefined ? { prompt } : {}) };
  });
}

/** A stored run's provenance: synthetic when its design says so or a model answered through the simulated provider. */
export function storeOrigin(path: string, sha256: string, run: RunInfo, store?: TrialStore): Origin {
  const design = readableDesign(run);
  const simulated = simulatedModels(run);
  const why = [...(design?.synthetic === true ? [sourcesMsg.syntheticDesign()] : []), ...(simulated.length ? [sourcesMsg.syntheticModels(simulated)] : [])];
  return {
    synthetic: why.length > 0, ...(why.length ? { syntheticWhy: why } : {}), ...(simulated.length ? { syntheticModels: simulated } : {}),
    source: { path, sha256 }, run: { id: run.id, design: run.designName, designHash: run.designHash },
    framings: framingTexts(run, store), ...(design?.names ? { names: displayNames(Object.entries(design.names)) } : {}),
  };
}

/** A file's provenance: its path and hash, not synthetic. */
export const fileOrigin = (path: string, sha256: string): Origin => ({ synthetic: false, source: { path, sha256 } });

/** The sidecar `samegame export` writes beside a file: `<file>.provenance.json` (docs/reference/export.md). */
export const sidecarPath = (file: string): string => `${file}.provenance.json`;

/** What an export's sidecar holds: the exported file's hash, the store, the run, the synthetic flag, names and framings. */
export interface ExportSidecar {
  readonly samegame_export: 1;
  readonly file_sha256: string;
  readonly store: { readonly path: string; readonly sha256: string };
  readonly origin: Record<string, unknown>;
  /** The design's order of models, games and framings (one run exported). */
  readonly order?: ExportOrder;
}

/** The order of a stored run's design (its models, games and framings by id), which an export's sidecar records. */
export function designOrder(run: Pick<RunInfo, 'designJson'>): ExportOrder {
  const d = readableDesign(run);
  const id = (x: string | { id?: string }) => (typeof x === 'string' ? x : x.id ?? '');
  return { models: (d?.models ?? []).map(id).filter(Boolean), games: (d?.games ?? []).map(id).filter(Boolean),
    framings: (d?.framings ?? []).map(id).filter(Boolean) };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

/** The origin a sidecar records (fields of another shape are left out). */
function sidecarOrigin(o: Record<string, unknown>, source: Origin['source']): Origin {
  const run = isObject(o.run) && typeof o.run.id === 'number' && typeof o.run.design === 'string' && typeof o.run.design_hash === 'string'
    ? { id: o.run.id, design: o.run.design, designHash: o.run.design_hash } : undefined;
  const names = isObject(o.names) ? displayNames(Object.entries(o.names).filter((e): e is [string, string] => typeof e[1] === 'string')) : undefined;
  const framings = Array.isArray(o.framings) ? o.framings.filter((f): f is FramingText => isObject(f) && typeof f.id === 'string') : undefined;
  return {
    synthetic: o.synthetic === true, ...(strings(o.synthetic_why) ? { syntheticWhy: strings(o.synthetic_why) } : {}),
    ...(strings(o.synthetic_models) ? { syntheticModels: strings(o.synthetic_models) } : {}),
    source, ...(run ? { run } : {}), ...(framings ? { framings } : {}), ...(names ? { names } : {}),
  };
}

/** A sidecar is a few kilobytes (the origin, the framing texts); anything above this is not one. */
const SIDECAR_MAX_BYTES = 16 * 1024 * 1024;

/** The sidecar beside `path` written for these bytes, or the note saying why it is left out (none when there is no sidecar). */
function sidecarOf(path: string, display: string, sha256: string, expected = false): { doc?: Record<string, unknown>; notes: string[] } {
  // Read through the input guard: a FIFO or device named like a sidecar is not waited on, only noted.
  const read = readRegular(sidecarPath(path), SIDECAR_MAX_BYTES);
  if ('reason' in read && read.reason === 'ENOENT') return { notes: expected ? [sourcesMsg.noSidecar(sidecarPath(path))] : [] };
  let doc: unknown;
  try { doc = 'bytes' in read ? JSON.parse(read.bytes.toString('utf8')) : undefined; } catch { doc = undefined; }
  if (!isObject(doc) || doc.samegame_export !== 1 || !isObject(doc.origin)) return { notes: [sourcesMsg.sidecarUnread(sidecarPath(display))] };
  if (doc.file_sha256 !== sha256) {
    return { notes: [expected ? sourcesMsg.sidecarOtherFiles(sidecarPath(path), display) : sourcesMsg.sidecarStale(sidecarPath(display), display)] };
  }
  return { doc, notes: [] };
}

/** The design order an export's sidecar records for these bytes, if any. */
export function sidecarOrder(path: string, sha256: string): ExportOrder | undefined {
  const o = sidecarOf(path, path, sha256).doc?.order;
  if (!isObject(o)) return undefined;
  const [models, games, framings] = [strings(o.models), strings(o.games), strings(o.framings)];
  return models && games && framings ? { models, games, framings } : undefined;
}

/**
 * A per-trial file's provenance: the sidecar of `export` when one is beside it and was written
 * for these bytes (else a note says it was left out); synthetic as well when the file's own
 * `synthetic` column says true on a row.
 */
export function trialsOrigin(path: string, display: string, sha256: string, columns: readonly ProvenanceColumn[], o: { expected?: boolean } = {}):
  { origin: Origin; notes: string[] } {
  const source = { path: display, sha256 };
  const column = columns.find((c) => c.name === 'synthetic')?.values.some((v) => v.value === 'true') === true;
  const fromColumn = (o: Origin): Origin => (column && !o.synthetic
    ? { ...o, synthetic: true, syntheticWhy: [...(o.syntheticWhy ?? []), sourcesMsg.syntheticColumn()] } : o);
  const { doc, notes } = sidecarOf(path, display, sha256, o.expected === true);
  return { origin: fromColumn(doc ? sidecarOrigin(doc.origin as Record<string, unknown>, source) : fileOrigin(display, sha256)), notes };
}
