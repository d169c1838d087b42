/**
 * Reading the studies of a meta-analysis manifest: each study's source through the reader the
 * other commands use for it (rates, per-trial files and logs, digitized projects through the
 * source registry; a trial store as analyze reads it), then its effect table. A source's own
 * error is told at the manifest's line and field, in one line.
 */
import { dirname, resolve } from 'node:path';
import type { CellTable } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { metaMsg } from '../core/messages/meta.js';
import { sha256File } from '../core/hash.js';
import { formatPath, type Path } from '../core/doc-problems.js';
import { DEFAULT_ATTENUATION, SOURCES, type AnalysisInput, type InputChoice, type SourceKind } from '../sources/input.js';
import { oneShotCells, openRun } from '../sources/open-run.js';
import { readInputFile } from '../sources/reader-rules.js';
import { meta, type EffectRow, type Manifest, type StudySourceKind, type StudySpec } from '../analyses/meta/index.js';
import type { EffectMeasure } from '../stats/meta/effect-size.js';
import { commandsMsg } from './messages.js';

export interface StudySource {
  readonly study: string;
  readonly kind: StudySourceKind;
  /** Files as the manifest names them (relative to it), with their SHA-256. */
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
  /** What the cells are ("reconstructed from rates", "per-trial decisions" …). */
  readonly what: string;
  readonly attenuation: number;
  readonly synthetic: boolean;
}

export interface ManifestEffects {
  readonly effects: EffectRow[];
  readonly sources: StudySource[];
  readonly notes: string[];
}

interface Located { readonly manifest: string; readonly lineAt: (path: Path) => number | undefined }

const fail = (loc: Located, path: Path, what: string) => new UserError(metaMsg.manifestField(loc.manifest, loc.lineAt(path), formatPath(path), what));

/** The kind of a validated study (exactly one is given). */
const kindOf = (s: StudySpec): StudySourceKind => meta.sourceKinds.find((k) => s[k] !== undefined)!;

function readStoreTable(path: string, run: number | undefined): { table: CellTable; what: string; synthetic: boolean } {
  const r = openRun(path, { runId: run });
  return { table: oneShotCells(r).folded, what: 'stored trials of a direct run', synthetic: r.origin.synthetic };
}

/** The study's cells through its reader; paths resolved against the manifest's folder. */
function readSource(s: StudySpec, dir: string): { table: CellTable; what: string; files: StudySource['files']; synthetic: boolean } {
  const at = (p: string) => resolve(dir, p);
  const kind = kindOf(s);
  if (kind === 'store') {
    const t = readStoreTable(at(s.store!), s.run);
    return { ...t, files: [{ path: s.store!, sha256: sha256File(at(s.store!)) }] };
  }
  const trials = typeof s.trials === 'string' ? [s.trials] : s.trials;
  const choice: InputChoice = {
    format: s.format !== undefined && /\.ya?ml$/i.test(s.format) ? at(s.format) : s.format,
    rounds: s.rounds === undefined ? undefined : String(s.rounds),
    cluster: s.cluster, factors: s.factors,
    layout: s.layout === undefined ? undefined : at(s.layout), pixelError: s.pixel_error,
  };
  const input = readFileSource(s, kind, trials?.map(at) ?? [], choice, at);
  const named = kind === 'trials' ? trials! : kind === 'digitized' ? [s.digitized!, s.layout!] : [s.data!];
  return { table: input.table, what: input.kind, files: named.map((p) => ({ path: p, sha256: sha256File(at(p)) })), synthetic: input.origin.synthetic };
}

/** A file study through the reader of its kind in the source registry (a log when the trials have a format). */
function readFileSource(s: StudySpec, kind: Exclude<StudySourceKind, 'store'>, files: readonly string[], choice: InputChoice,
  at: (p: string) => string): AnalysisInput {
  if (kind === 'data') return SOURCES.rates.read({ kind: 'rates', file: at(s.data!) }, s.base, s.alt);
  if (kind === 'digitized') return SOURCES.digitized.read({ kind: 'digitized', file: at(s.digitized!), choice }, s.base, s.alt);
  if (choice.format !== undefined) return SOURCES.log.read({ kind: 'log', files, format: choice.format, choice }, s.base, s.alt);
  return SOURCES.trials.read({ kind: 'trials', files, choice }, s.base, s.alt);
}

/** The registry's kind of a study: how its cells were observed decides its default attenuation there. */
const registryKind = (s: StudySpec, kind: StudySourceKind): SourceKind =>
  (kind === 'data' ? 'rates' : kind === 'trials' && s.format !== undefined ? 'log' : kind);

/** A reader's error at the study's field: the framing it lacks (base or alt), else the source. */
function sourceError(e: unknown, s: StudySpec, i: number, loc: Located): unknown {
  if (!(e instanceof UserError)) return e;
  for (const f of ['base', 'alt'] as const) {
    if (e.message.includes(`has no ${JSON.stringify(s[f])} row`)) return fail(loc, ['studies', i, f], commandsMsg.framingNotHeld(s[f], e.message));
  }
  return fail(loc, ['studies', i, kindOf(s)], commandsMsg.sourceProblem(e.message));
}

/** The framings a table holds; a contrast framing it lacks entirely is the manifest's error. */
function checkFramings(table: CellTable, s: StudySpec, i: number, loc: Located): void {
  const held = new Set(table.cells.map((c) => c.key.framing));
  for (const f of ['base', 'alt'] as const) {
    if (!held.has(s[f])) throw fail(loc, ['studies', i, f], commandsMsg.framingNotHeld(s[f],
      `its framings are ${[...held].map((x) => JSON.stringify(x)).join(', ')}`));
  }
}

/** Every study's effects, in manifest order. */
export function manifestEffects(m: Manifest, manifestPath: string, loc: Located, measure: EffectMeasure): ManifestEffects {
  const dir = dirname(resolve(manifestPath));
  const effects: EffectRow[] = [];
  const sources: StudySource[] = [];
  const notes: string[] = [];
  m.studies.forEach((s, i) => {
    let src: ReturnType<typeof readSource>;
    try { src = readSource(s, dir); } catch (e) { throw sourceError(e, s, i, loc); }
    checkFramings(src.table, s, i, loc);
    const kind = kindOf(s);
    const attenuation = s.attenuation ?? DEFAULT_ATTENUATION[SOURCES[registryKind(s, kind)].observed];
    const moderators = Object.fromEntries(Object.entries(s.moderators ?? {}).map(([k, v]) => [k, String(v)]));
    const r = meta.studyEffects(src.table, { study: s.id, base: s.base, alt: s.alt, attenuation, moderators }, measure);
    // Synthetic when the manifest says so or its reader does (a simulated run, an export of one).
    const synthetic = s.synthetic === true || src.synthetic;
    effects.push(...r.rows.map((row) => (synthetic ? { ...row, synthetic } : row)));
    notes.push(...r.notes);
    sources.push({ study: s.id, kind, files: src.files, what: src.what, attenuation, synthetic });
  });
  const byAttenuation = new Map<number, string[]>();
  for (const s of sources) byAttenuation.set(s.attenuation, [...(byAttenuation.get(s.attenuation) ?? []), s.study]);
  if (byAttenuation.size > 1) notes.push(commandsMsg.mixedAttenuations([...byAttenuation]));
  return { effects, sources, notes };
}

/** Read (within the readers' size limit) and validate a manifest file. */
export function loadManifest(path: string): { manifest: Manifest; loc: Located; sha256: string } {
  const { text, sha256 } = readInputFile(resolve(path), path);
  const { manifest, lineAt } = meta.parseManifest(text, path);
  return { manifest, loc: { manifest: path, lineAt }, sha256 };
}
