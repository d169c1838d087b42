import { join, resolve } from 'node:path';
import type { CellTable } from '../core/cells.js';
import { packageRoot, SHIPPED_RATES } from '../core/paths.js';
import { readRates, type RatesInput } from './rates-csv.js';
import { foldExtraFactors, readTrials, type ProvenanceColumn, type TrialsInput } from './trials.js';
import type { RoundRange } from '../core/decisions.js';
import { UserError } from '../core/errors.js';
import { logsMsg } from '../core/messages/logs.js';
import { recognizeLogFormat } from './logs/index.js';
import { readLogTrials } from './logs/table.js';
import type { ShortMatches } from './logs/index.js';
import { readDigitized, type DigitizedInput } from './digitized/index.js';
import { digitizedMsg } from '../core/messages/digitized.js';

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
  /** A WebPlotDigitizer project (.tar or its wpd.json) the rates were read from. */
  readonly digitized?: string;
  /** The layout CSV mapping a digitized project's points to cells. */
  readonly layout?: string;
  /** Pixel error of a click on the digitized figure (default 1 px). */
  readonly pixelError?: number;
}

/** An input of the two-framing commands, whichever reader read it. */
export interface AnalysisInput {
  readonly path: string;
  readonly sha256: string;
  /** What the cells are: "observed counts", "reconstructed from rates", "per-trial decisions" … */
  readonly kind: string;
  /** model × game × framing (a per-trial file's extra factors folded into the game). */
  readonly table: CellTable;
  readonly rates?: RatesInput;
  readonly trials?: TrialsInput;
  /** A digitized figure's points, their pixel ranges and images (its cells are also in `rates`). */
  readonly digitized?: DigitizedInput;
  readonly provenance: readonly ProvenanceColumn[];
}

/** Provenance columns of a rates file with their distinct values (first-appearance order). */
function ratesProvenance(input: RatesInput): ProvenanceColumn[] {
  return input.provenanceColumns.map((name) => {
    const counts = new Map<string, number>();
    for (const r of input.rows) {
      const v = r.cell.provenance?.[name] ?? '';
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    return { name, values: [...counts].map(([value, rows]) => ({ value, rows })) };
  });
}

/** The per-decision reader (one file); a file in a built-in log format is named as such. */
function perDecision(files: readonly string[], choice: InputChoice, base: string, alt: string): TrialsInput {
  if (files.length > 1) throw new UserError(logsMsg.severalTrialsNeedFormat());
  if (choice.rounds !== undefined) throw new UserError(logsMsg.roundsNeedFormat());
  const seen = recognizeLogFormat(resolve(files[0]));
  if (seen) throw new UserError(logsMsg.looksLike(files[0], seen.what, seen.id));
  return readTrials(resolve(files[0]), { base, alt, cluster: choice.cluster, factors: choice.factors, displayPath: files[0] });
}

/** One input kind: the flag that names its file, the flag's help, and its reader. */
export interface SourceKind {
  readonly help: string;
  /** The flag may be given several times (files read in order). */
  readonly repeatable?: true;
  /** Read `path` (undefined: the kind's default file) into the cells of the two-framing analyses. */
  read(path: string | readonly string[] | undefined, choice: InputChoice, base: string, alt: string): AnalysisInput;
}

/**
 * The input kinds of the two-framing commands, by the flag that names their file (`--data`,
 * `--trials`). The CLI adds one flag per entry; a new input kind is its reader and an entry here.
 */
export const SOURCES = {
  trials: {
    help: 'per-trial CSV or JSONL, one row per decision (model, game, framing, action|cooperate|p_cooperate); or a published log with --format (repeatable); instead of --data',
    repeatable: true,
    read(path, choice, base, alt) {
      const files = typeof path === 'string' ? [path] : [...path!];
      const t = choice.format !== undefined
        ? readLogTrials(files, { format: choice.format, rounds: choice.rounds, factors: choice.factors, shortMatches: choice.shortMatches }, base, alt)
        : perDecision(files, choice, base, alt);
      return { path: t.path, sha256: t.sha256, kind: t.kind, table: foldExtraFactors(t.table), trials: t, provenance: t.provenanceColumns };
    },
  },
  data: {
    help: 'rates CSV (model, game, framing, n, rate|cooperate)',
    read(path, _choice, base, alt) {
      const displayPath = typeof path === 'string' ? path : path?.[0] ?? SHIPPED_RATES;
      const r = readRates(path ? resolve(displayPath) : join(packageRoot, SHIPPED_RATES), { base, alt, displayPath });
      return { path: r.path, sha256: r.sha256, kind: r.kind, table: r.table, rates: r, provenance: ratesProvenance(r) };
    },
  },
  digitized: {
    help: 'WebPlotDigitizer project (.tar, or its wpd.json) of the figure the rates were read from; with --layout (instead of --data)',
    read(path, choice, base, alt) {
      if (choice.layout === undefined) throw new UserError(digitizedMsg.needsLayout());
      const file = typeof path === 'string' ? path : path![0];
      const d = readDigitized(resolve(file), { layout: resolve(choice.layout), layoutDisplay: choice.layout, pixelError: choice.pixelError ?? 1, base, alt, displayPath: file });
      return { path: d.path, sha256: d.sha256, kind: d.rates.kind, table: d.rates.table, rates: d.rates, digitized: d, provenance: ratesProvenance(d.rates) };
    },
  },
} as const satisfies Readonly<Record<string, SourceKind>>;

export type SourceId = keyof typeof SOURCES;

/** The input kinds whose file flag was given (the CLI refuses more than one). */
export const givenSources = (choice: InputChoice): SourceId[] =>
  (Object.keys(SOURCES) as SourceId[]).filter((id) => choice[id] !== undefined);

/** Read the chosen input with its planned framings: the given kind, else the shipped rates (--data's default). */
export function readInput(choice: InputChoice, base: string, alt: string): AnalysisInput {
  if (choice.digitized === undefined && (choice.layout !== undefined || choice.pixelError !== undefined)) throw new UserError(digitizedMsg.layoutOnly());
  const id = givenSources(choice)[0] ?? 'data';
  return SOURCES[id].read(choice[id], choice, base, alt);
}

/** True when any cell resamples clusters. */
export const isClustered = (table: CellTable): boolean => table.cells.some((c) => c.obs.kind === 'clustered');
