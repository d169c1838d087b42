import { join, resolve } from 'node:path';
import type { CellTable } from '../core/cells.js';
import { ratesFacts, ratesProvenance, trialCounts, type InputFacts } from './input-facts.js';
import { SHIPPED_PUBLISHED } from './published.js';
import { packageRoot, SHIPPED_RATES } from '../core/paths.js';
import { readRates, type RatesInput } from './rates-csv.js';
import { foldExtraFactors, readTrials, type ProvenanceColumn, type TrialsInput } from './trials.js';
import type { RoundRange } from '../core/decisions.js';
import { UserError } from '../core/errors.js';
import { checkAttenuation } from '../core/attenuation.js';
import { logsMsg } from '../core/messages/logs.js';
import { recognizeLogFormat } from './logs/index.js';
import { readLogTrials } from './logs/table.js';
import type { ShortMatches } from './logs/index.js';
import { readDigitized, type DigitizedInput } from './digitized/index.js';
import { sourcesMsg } from './messages.js';
import type { Origin } from '../core/provenance.js';
import { fileOrigin, sidecarOrder, trialsOrigin } from './origin.js';
import { isParquetInput, sidecarBase } from './parquet/files.js';
import { withExportCsv } from './parquet/export-read.js';
import { framingPair, type FramingPair } from './framing-pair.js';

/** Where the cells come from: a rates/counts file (--data) or a per-trial file (--trials). */
export interface InputChoice {
  /** Rates file; the shipped Same Game, Different Story data when neither it nor trials is given. */
  readonly data?: string;
  /** Per-trial file (CSV or JSONL), one row per decision; or published logs read through `format`, in order. */
  readonly trials?: string | readonly string[];
  /** The log format of the --trials files: a built-in name (akata, fairgame) or a description file. */
  readonly format?: string;
  /** Rounds of repeated play to keep (`1`, `1-3`), for a log read through a format. */
  readonly rounds?: string | RoundRange;
  /** A log's short matches: left out (default) or kept. */
  readonly shortMatches?: ShortMatches;
  /** Cluster column of a per-trial file (default "cluster" when present). */
  readonly cluster?: string;
  /** Columns of a per-trial file that become factors. */
  readonly factors?: readonly string[];
  /** An aggregates table (CSV or Parquet: the result of `samegame sql`'s query, docs/reference/aggregates.md), for `analyze`. */
  readonly aggregates?: string;
  /** A WebPlotDigitizer project (.tar or its wpd.json) the rates were read from. */
  readonly digitized?: string;
  /** The layout CSV mapping a digitized project's points to cells. */
  readonly layout?: string;
  /** Pixel error of a click on the digitized figure (default 1 px). */
  readonly pixelError?: number;
}

/**
 * The input of a command, read once from its flags: its kind and the files that kind reads. Every
 * per-kind decision is its entry in SOURCES; a command reads `source.kind` to pick the entry and
 * never asks which optional flag was given.
 */
export type Source =
  | { readonly kind: 'rates'; readonly file?: string }
  | { readonly kind: 'trials'; readonly files: readonly string[]; readonly choice: InputChoice }
  | { readonly kind: 'log'; readonly files: readonly string[]; readonly format: string; readonly choice: InputChoice }
  | { readonly kind: 'digitized'; readonly file: string; readonly choice: InputChoice }
  | { readonly kind: 'store'; readonly file: string; readonly runId?: number }
  | { readonly kind: 'aggregates'; readonly file: string; readonly format?: string };

export type SourceKind = Source['kind'];
export type SourceOf<K extends SourceKind> = Extract<Source, { readonly kind: K }>;

export type { InputFacts } from './input-facts.js';

/** What a source's reader read, by kind. */
export type SourceData =
  | { readonly kind: 'rates'; readonly rates: RatesInput }
  | { readonly kind: 'trials'; readonly trials: TrialsInput; readonly notes: readonly string[] }
  | { readonly kind: 'log'; readonly trials: TrialsInput & { readonly logs: NonNullable<TrialsInput['logs']> } }
  | { readonly kind: 'digitized'; readonly rates: RatesInput; readonly digitized: DigitizedInput };

export type DataOf<K extends SourceData['kind']> = Extract<SourceData, { readonly kind: K }>;

/** An input of the two-framing commands, whichever reader read it. */
export interface AnalysisInput {
  readonly path: string;
  readonly sha256: string;
  /** What the cells are: "observed counts", "reconstructed from rates", "per-trial decisions" … */
  readonly kind: string;
  /** model × game × framing (a per-trial file's extra factors folded into the game). */
  readonly table: CellTable;
  /** What the reader read, tagged with the source's kind. */
  readonly data: SourceData;
  readonly provenance: readonly ProvenanceColumn[];
  /** Where the numbers come from (synthetic or not, source, run and design hash, framings, names): core/provenance.ts. */
  readonly origin: Origin;
  /** The planned framing pair read: the one given, else the one the data imply (framing-pair.ts). */
  readonly pair: FramingPair;
}

/** The per-decision reader (one file); a file in a built-in log format is named as such. */
function perDecision(files: readonly string[], choice: InputChoice, base?: string, alt?: string): TrialsInput {
  if (files.length > 1) throw new UserError(logsMsg.severalTrialsNeedFormat());
  if (choice.rounds !== undefined) throw new UserError(logsMsg.roundsNeedFormat());
  const opts = { base, alt, cluster: choice.cluster, factors: choice.factors, displayPath: files[0] };
  // A Parquet export (a folder, or a glob of its files) is read as the CSV export of the same trials, in its design's order.
  if (isParquetInput(files[0])) {
    return withExportCsv(files[0], files[0], (e) => ({ ...readTrials(e.csv, { ...opts, orderOf: () => e.order }),
      sha256: e.sha256 }));
  }
  const seen = recognizeLogFormat(resolve(files[0]));
  if (seen) throw new UserError(sourcesMsg.looksLike(files[0], seen.what, seen.id));
  return readTrials(resolve(files[0]), { ...opts, orderOf: (sha256) => sidecarOrder(resolve(files[0]), sha256) });
}

/** The flag that names each file kind's file on reproduce, report and audit (the CLI adds one per entry). */
export const FILE_FLAGS = {
  trials: { help: ('per-trial CSV or JSONL, one row per decision (model, game, framing, action|cooperate|p_cooperate), or the folder export --format ' +
    'parquet wrote (or a glob of its files); or a published log with --format (repeatable); instead of --data'), repeatable: true },
  data: { help: 'rates CSV (model, game, framing, n, rate|cooperate)' },
  digitized: { help: 'WebPlotDigitizer project (.tar, or its wpd.json) of the figure the rates were read from; with --layout (instead of --data)' },
} as const satisfies Readonly<Record<'data' | 'trials' | 'digitized', { readonly help: string; readonly repeatable?: true }>>;

export type SourceId = keyof typeof FILE_FLAGS;

/**
 * The default attenuation of the conservative transform, by how the cells were observed: none
 * (a = 1) for decisions observed directly (a per-trial file, a published log, a trial store); the
 * paper's a = 0.70 for rates reconstructed from a published figure (Same Game, Different Story §4.2).
 */
export const DEFAULT_ATTENUATION = { direct: 1, reconstructed: 0.7 } as const;
export type Observation = keyof typeof DEFAULT_ATTENUATION;

/** The analyses a kind of input adds to the two-framing ones (composed by the commands). */
export type SourceAnalysis = 'digitization';

/** The decisions every kind makes, the trial store included. */
export interface SourceEntry<K extends SourceKind> {
  /** How the cells were observed, which sets the attenuation when --attenuation is not given (DEFAULT_ATTENUATION). */
  readonly observed: Observation;
  /** The published values compared with when --expect is not given (a path inside the package), if any. */
  published(source: SourceOf<K>): string | undefined;
  /** The analyses this kind adds to the two-framing ones. */
  readonly analyses: readonly SourceAnalysis[];
}

/** A kind read from files: its reader and what the two-framing commands read off what it read. */
export interface FileSourceEntry<K extends FileKind> extends SourceEntry<K> {
  read(source: SourceOf<K>, base?: string, alt?: string): AnalysisInput;
  /** The flags that name this input again (the regenerate command). */
  flags(data: DataOf<K>, path: string): Readonly<Record<string, unknown>>;
  /** The decisions the cells represent, the rates the file reported and the cell grid (Appendix C checks). */
  facts(data: DataOf<K>, table: CellTable): InputFacts;
  /** The input as counts (the audit moves counts); a kind without counts is refused. */
  counts(data: DataOf<K>, input: AnalysisInput): RatesInput;
  /** Notes of the reader shown after the outputs are written. */
  notes(data: DataOf<K>): readonly string[];
}

export type FileKind = SourceData['kind'];

const none = (): undefined => undefined;
const noNotes = (): readonly string[] => [];
const fromTrials = (t: TrialsInput, base?: string, alt?: string): Omit<AnalysisInput, 'data'> =>
  ({ path: t.path, sha256: t.sha256, kind: t.kind, table: foldExtraFactors(t.table), provenance: t.provenanceColumns,
    origin: fileOrigin(t.path, t.sha256), pair: t.pair ?? planned(base, alt) });
const fromRates = (r: RatesInput, base?: string, alt?: string): Omit<AnalysisInput, 'data'> =>
  ({ path: r.path, sha256: r.sha256, kind: r.kind, table: r.table, provenance: ratesProvenance(r), origin: fileOrigin(r.path, r.sha256),
    pair: planned(base, alt) });
/** The paper's pair where none is given (the readers of rates and logs). */
const planned = (base?: string, alt?: string) => framingPair([], base, alt);

/**
 * The input kinds: one entry per kind owns its reader and every decision that depends on the
 * kind. A new input kind is its reader and an entry here.
 */
export const SOURCES: { readonly [K in FileKind]: FileSourceEntry<K> }
  & { readonly store: SourceEntry<'store'>; readonly aggregates: SourceEntry<'aggregates'> } = {
  rates: {
    observed: 'reconstructed',
    published: (s) => (s.file === undefined ? SHIPPED_PUBLISHED : undefined),
    analyses: [],
    read(s, base, alt) {
      const displayPath = s.file ?? SHIPPED_RATES;
      const r = readRates(s.file !== undefined ? resolve(displayPath) : join(packageRoot, SHIPPED_RATES), { ...planned(base, alt), displayPath });
      return { ...fromRates(r, base, alt), data: { kind: 'rates', rates: r } };
    },
    flags: (_d, path) => ({ data: path }),
    facts: (d, table) => ratesFacts(d.rates, table),
    counts: (d) => d.rates,
    notes: noNotes,
  },
  trials: {
    observed: 'direct',
    published: none,
    analyses: [],
    read(s, base, alt) {
      const t = perDecision(s.files, s.choice, base, alt);
      const { origin, notes } = trialsOrigin(sidecarBase(s.files[0]), t.path, t.sha256, t.provenanceColumns,
        { expected: isParquetInput(s.files[0]) });
      return { ...fromTrials(t), origin, data: { kind: 'trials', trials: t, notes } };
    },
    flags: ({ trials: t }) => ({ trials: t.path, cluster: t.clusterColumn, factor: t.extraFactors }),
    facts: ({ trials: t }) => ({ expectedDecisions: { value: t.trials, source: 'rows of the per-trial file' }, grid: t.grid }),
    counts: (d, input) => trialCounts(d.trials, input),
    notes: (d) => d.notes,
  },
  log: {
    observed: 'direct',
    published: none,
    analyses: [],
    read(s, base, alt) {
      const p = planned(base, alt);
      const t = readLogTrials(s.files, { format: s.format, rounds: s.choice.rounds, factors: s.choice.factors, shortMatches: s.choice.shortMatches }, p.base,
        p.alt);
      return { ...fromTrials(t, base, alt), data: { kind: 'log', trials: t as DataOf<'log'>['trials'] } };
    },
    flags: ({ trials: t }) => ({ trials: t.logs.files, format: t.logs.format, rounds: t.logs.rounds, shortMatches: t.logs.shortMatches,
      factor: t.extraFactors }),
    facts: ({ trials: t }) => ({ expectedDecisions: { value: t.trials, source: 'valid decisions of the log in the rounds kept' }, grid: t.grid }),
    counts: (d, input) => trialCounts(d.trials, input),
    notes: (d) => d.trials.logs.notes,
  },
  digitized: {
    observed: 'reconstructed',
    published: none,
    analyses: ['digitization'],
    read(s, base, alt) {
      const c = s.choice;
      if (c.layout === undefined) throw new UserError(sourcesMsg.needsLayout());
      const d = readDigitized(resolve(s.file), { layout: resolve(c.layout), layoutDisplay: c.layout, pixelError: c.pixelError ?? 1, ...planned(base, alt),
        displayPath: s.file });
      return { ...fromRates(d.rates, base, alt), kind: d.rates.kind, data: { kind: 'digitized', rates: d.rates, digitized: d } };
    },
    flags: ({ digitized: d }) => ({ digitized: d.path, layout: d.layout.path, pixelError: d.pixelError }),
    facts: (d, table) => ratesFacts(d.rates, table),
    counts: (d) => d.rates,
    notes: noNotes,
  },
  store: {
    observed: 'direct',
    published: none,
    analyses: [],
  },
  // per-match aggregates of a log (`analyze --aggregates`), read by the query engine: repeated play only
  aggregates: {
    observed: 'direct',
    published: none,
    analyses: [],
  },
};

/** The attenuation of the conservative transform: the one given, else the default of the input's kind. */
export const attenuationOf = (source: Source, given?: number): number =>
  (given === undefined ? DEFAULT_ATTENUATION[SOURCES[source.kind].observed] : checkAttenuation(given)); // the library's option, as the flag

/** What a command names its input in messages: the file, the files of a log in order, the shipped rates. */
export const sourceName = (source: Source): string =>
  ('files' in source ? source.files.join(', ') : source.file ?? SHIPPED_RATES);

/** The published values compared with by default: a path inside the package, or none. */
export const defaultPublished = (source: Source): string | undefined =>
  (SOURCES[source.kind] as SourceEntry<SourceKind>).published(source);

/** The entry of what was read (TypeScript does not correlate the entry and its data: one cast, here). */
const entryOf = <K extends FileKind>(data: DataOf<K>) => SOURCES[data.kind as K] as unknown as FileSourceEntry<K>;

/** The Appendix C facts of an input. */
export const inputFacts = (input: AnalysisInput): InputFacts => entryOf(input.data).facts(input.data, input.table);
/** The input as counts (the audit); a per-trial file of probabilities or clusters is refused. */
export const inputCounts = (input: AnalysisInput): RatesInput => entryOf(input.data).counts(input.data, input);
/** The flags that name the input again. */
export const inputFlagsOf = (input: AnalysisInput): Readonly<Record<string, unknown>> => entryOf(input.data).flags(input.data, input.path);
/** The reader's notes. */
export const inputNotes = (input: AnalysisInput): readonly string[] => entryOf(input.data).notes(input.data);

/**
 * The source the flags name: the store, a per-trial file (a published log with --format), a
 * digitized project, else a rates file (the shipped rates when none is given). The CLI refuses more than one.
 */
export function sourceOf(choice: InputChoice & { readonly store?: string; readonly runId?: number }): Source {
  if (choice.store !== undefined) return { kind: 'store', file: choice.store, runId: choice.runId };
  if (choice.aggregates !== undefined) return { kind: 'aggregates', file: choice.aggregates, format: choice.format };
  if (choice.trials !== undefined) {
    const files = typeof choice.trials === 'string' ? [choice.trials] : [...choice.trials];
    return choice.format !== undefined ? { kind: 'log', files, format: choice.format, choice } : { kind: 'trials', files, choice };
  }
  if (choice.data === undefined && choice.digitized !== undefined) return { kind: 'digitized', file: choice.digitized, choice };
  return { kind: 'rates', file: choice.data };
}

/** The input kinds whose file flag was given (the CLI refuses more than one). */
export const givenSources = (choice: InputChoice): SourceId[] =>
  (Object.keys(FILE_FLAGS) as SourceId[]).filter((id) => choice[id] !== undefined);

/** Read a file source with its planned framings. */
export function readSource(source: Exclude<Source, { kind: 'store' | 'aggregates' }>, base?: string, alt?: string): AnalysisInput {
  return (SOURCES[source.kind] as FileSourceEntry<FileKind>).read(source as never, base, alt);
}

/** Read the chosen input with its planned framings: the given kind, else the shipped rates (--data's default). */
export function readInput(choice: InputChoice, base?: string, alt?: string): AnalysisInput {
  if (choice.digitized === undefined && (choice.layout !== undefined || choice.pixelError !== undefined)) throw new UserError(sourcesMsg.layoutOnly());
  return readSource(sourceOf(choice) as Exclude<Source, { kind: 'store' | 'aggregates' }>, base, alt);
}

/** True when any cell resamples clusters. */
export const isClustered = (table: CellTable): boolean => table.cells.some((c) => c.obs.kind === 'clustered');
