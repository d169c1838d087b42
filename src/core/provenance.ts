/**
 * Where an input's numbers come from, carried from its reader to every output (docs/methods.md
 * "Provenance"): synthetic or not (and why), the source and its SHA-256, the run and its design
 * hash, the framing texts, the display names, and the attenuation with where it came from. Every
 * reader's result carries one (`origin`); the outputs of synthetic data are labelled by
 * `labelSynthetic`, in one place, whatever route the data took.
 */
import type { OutputFile } from './atomic.js';
import type { DisplayNames } from './display-names.js';

/** A framing as the run showed it: its id, its template and one prompt rendered from it. */
export interface FramingText {
  readonly id: string;
  readonly template?: string;
  readonly prompt?: string;
}

export interface Origin {
  /** True when the data are synthetic (simulated models): every output says so. */
  readonly synthetic: boolean;
  /** Why they are (or were read as) synthetic: "the simulated provider answered for Sim", "the design says synthetic: true" … */
  readonly syntheticWhy?: readonly string[];
  /** The models whose answers are synthetic, when known. */
  readonly syntheticModels?: readonly string[];
  /** The file read, as given, and its SHA-256. */
  readonly source: { readonly path: string; readonly sha256: string };
  /** The stored run the trials come from (a store, or an export of one). */
  readonly run?: { readonly id: number; readonly design: string; readonly designHash: string };
  readonly framings?: readonly FramingText[];
  /** Display names the input carries (a design's or a log format's `names:` block). */
  readonly names?: DisplayNames;
  /** The flags given that differ from the store's sealed plan: the analysis is exploratory (docs/methods.md §25). */
  readonly exploratory?: readonly string[];
}

/** What the outputs call synthetic data: the models that answered through the simulated provider, else why. */
export function syntheticNotice(o: Origin): string {
  if (o.syntheticModels?.length) return simulatedNotice(o.syntheticModels);
  return `Synthetic data: ${(o.syntheticWhy ?? []).join('; ') || 'the input says so'}; these numbers say nothing about any real model.`;
}

/** The notice of data the simulated provider answered for these models (the reports' banner). */
export const simulatedNotice = (models: readonly string[]): string =>
  `Synthetic data: ${models.join(', ')} answered through the simulated provider; these numbers say nothing about any real model.`;

/** The warning a command prints for synthetic data: why they are synthetic. */
export const syntheticWarning = (o: Origin): string =>
  `synthetic data: ${(o.syntheticWhy ?? []).join('; ') || 'the input says so'}; these numbers say nothing about any real model`;

/** The origin as metrics.json and meta.json record it. */
export function originJson(o: Origin): Record<string, unknown> {
  return {
    synthetic: o.synthetic,
    ...(o.syntheticWhy?.length ? { synthetic_why: o.syntheticWhy } : {}),
    ...(o.syntheticModels?.length ? { synthetic_models: o.syntheticModels } : {}),
    source: o.source,
    ...(o.run ? { run: { id: o.run.id, design: o.run.design, design_hash: o.run.designHash } } : {}),
    ...(o.framings?.length ? { framings: o.framings } : {}),
    ...(o.names && Object.keys(o.names).length ? { names: { ...o.names } } : {}),
    ...(o.exploratory?.length ? { exploratory: o.exploratory } : {}),
  };
}

/** metrics.json's `origin`: recorded when it says more than the input's path and hash (synthetic, a run, framings, names). */
export const originExtra = (o: Origin): Record<string, unknown> =>
  (o.synthetic || o.run || o.framings?.length || (o.names && Object.keys(o.names).length) || o.exploratory?.length ? { origin: originJson(o) } : {});

/** A CSV with a column added (`synthetic`, `exploratory`), `true` on every row (the file's line ending kept). */
function csvWithColumn(text: string, column = 'synthetic'): string {
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const end = text.endsWith(nl) ? nl : '';
  const rows = (end ? text.slice(0, -nl.length) : text).split(nl);
  return rows.map((r, i) => `${r},${i === 0 ? column : 'true'}`).join(nl) + end;
}

/** A LaTeX file: a comment at the top and the notice at the start of every caption. */
function texLabelled(text: string, notice: string): string {
  const escaped = notice.replace(/[\\{}$&#^_%~]/g, (c) => `\\${c}`);
  return `% ${notice}\n${text.split('\\caption{').join(`\\caption{\\textbf{${escaped}} `)}`;
}

/** figures/captions.md: the notice under the heading and after every caption. */
function captionsLabelled(text: string, notice: string): string {
  const lines = text.split('\n');
  const out = lines.map((l) => (l.startsWith('**') ? `${l} ${notice}` : l));
  out.splice(1, 0, '', `**${notice}**`);
  return out.join('\n');
}

const base = (path: string) => path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);

/**
 * The files of an analysis with synthetic data labelled: table2.csv and table3.csv gain a
 * `synthetic` column, every .tex file a comment and a bold notice in its caption, figures/captions.md
 * the notice. Files of real data are returned as they are. An exploratory analysis of a sealed store
 * is labelled as well (labelExploratory).
 */
export function labelSynthetic<F extends OutputFile>(files: readonly F[], origin: Origin | undefined): F[] {
  const synthetic = origin?.synthetic ? labelled(files, syntheticNotice(origin), (name) => name === 'table2.csv' || name === 'table3.csv', 'synthetic')
    : [...files];
  return origin?.exploratory?.length ? labelled(synthetic, exploratoryNotice(origin.exploratory), (name, text) => name.endsWith('.csv') && text.length > 0,
    'exploratory')
    : synthetic;
}

/** What the outputs call an exploratory analysis: the flags that differ from the sealed plan. */
export const exploratoryNotice = (flags: readonly string[]): string =>
  `Exploratory analysis: ${flags.join(', ')} differ${flags.length === 1 ? 's' : ''} from the sealed plan; these numbers are not the preregistered analysis.`;

/**
 * The files labelled with a notice: the CSVs `csv` names gain `column` (`true` on every row), every .tex file a comment and a
 * bold notice in its caption, figures/captions.md the notice. An exploratory analysis (flags that differ from the store's
 * sealed plan, docs/methods.md §25) labels every CSV; synthetic data table2.csv and table3.csv (metrics.json records both in
 * its origin, the report among its provenance facts).
 */
function labelled<F extends OutputFile>(files: readonly F[], notice: string, csv: (name: string, text: string) => boolean, column: string): F[] {
  return files.map((f) => {
    if (typeof f.content !== 'string') return f;
    const name = base(f.path);
    if (csv(name, f.content)) return { ...f, content: csvWithColumn(f.content, column) };
    if (name.endsWith('.tex')) return { ...f, content: texLabelled(f.content, notice) };
    if (name === 'captions.md') return { ...f, content: captionsLabelled(f.content, notice) };
    return f;
  });
}
