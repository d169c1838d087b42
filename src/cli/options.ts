import { BUILTIN_LOG_FORMATS, checkLogFlags, FILE_FLAGS, isPluginSpec, type InputChoice, type ShortMatches, type SourceId } from '../commands/flags.js';

export { checkLogFlags };
import { InvalidArgumentError, Option, type Command } from 'commander';
import { SHIPPED_RATES } from '../core/paths.js';
import type { Logger } from '../core/logger.js';
import { UserError } from '../core/errors.js';
import type { IntervalMethod } from '../stats/bootstrap.js';
import { terminalText } from '../core/terminal.js';
import { writeStdout } from '../core/stdout.js';
import { ATTENUATION_RANGE_TEXT, MIN_ATTENUATION } from '../core/attenuation.js';
import { cliMsg } from './messages.js';

/** The values a numeric flag takes: [min, max], either end open, integers only when `integer`. */
export interface FlagRange {
  readonly min: number;
  readonly max: number;
  readonly minOpen?: boolean;
  readonly maxOpen?: boolean;
  readonly integer?: boolean;
}

const INTEGER = /^\s*[+-]?\d+\s*$/;

/**
 * The one numeric flag parser: a finite number in its range, else one message naming the flag —
 * `msg.badFlag(flag, value, what)`, or the flag's own `bad(value)` message.
 */
export const parseNumberFlag = (flag: string, r: FlagRange, what: string | ((v: string) => string)) => (v: string): number => {
  const n = Number(v);
  const ok = v.trim() !== '' && Number.isFinite(n) && (r.integer !== true || (INTEGER.test(v) && Number.isSafeInteger(n)))
    && (r.minOpen ? n > r.min : n >= r.min) && (r.maxOpen ? n < r.max : n <= r.max);
  if (!ok) throw new InvalidArgumentError(typeof what === 'string' ? cliMsg.badFlag(flag, v, what) : what(v));
  return n;
};

/** An integer in [min, max]. */
export const parseIntFlag = (flag: string, min = 0, max = Number.MAX_SAFE_INTEGER) => parseNumberFlag(flag, { min, max, integer: true },
  max < Number.MAX_SAFE_INTEGER ? `an integer from ${min} to ${max}` : min > 0 ? `an integer ≥ ${min}` : 'a non-negative integer');

/** Bootstrap replicates: a million is far past any Monte Carlo need and still fits in memory. */
export const MAX_REPS = 1_000_000;

/** A number in [0, 1] (an attenuation, a threshold). */
export const parseUnitFlag = (flag: string) => parseNumberFlag(flag, { min: 0, max: 1 }, 'a number in [0, 1]');

/** An attenuation: a number from MIN_ATTENUATION to 1 (core/attenuation.ts). */
export const parseAttenuationFlag = (flag = '--attenuation') => parseNumberFlag(flag, { min: MIN_ATTENUATION, max: 1 }, ATTENUATION_RANGE_TEXT);

/** A finite number above 0. */
export const parsePositiveFlag = (flag: string) => parseNumberFlag(flag, { min: 0, max: Infinity, minOpen: true }, 'a positive number');

/**
 * A finite number in [min, max] (or (0, max] when `min` is 0 and `positive` is set): every numeric
 * flag has a range, so no value can overflow a timer, a cost or an array (1e-300 requests per
 * minute would wait longer than any timer can count; a price of 1e308 would print $Infinity).
 */
export const parseRangeFlag = (flag: string, min: number, max: number, positive = false) => parseNumberFlag(flag,
  { min: positive ? Math.max(min, 0) : min, max, minOpen: positive && min <= 0 },
  positive && min === 0 ? `a number in (0, ${max}]` : `a number from ${min} to ${max}`);

/** Ranges of the numeric flags (docs/reference/specifications.md, "Limits"). */
export const FLAG_LIMITS = {
  concurrency: 1000, rpm: [0.001, 10_000_000], tpm: [1, 10_000_000_000], maxRetries: 100, timeoutMs: 86_400_000, maxWaitS: 86_400,
  price: 100_000, tokensPerCall: 10_000_000, maxN: 10_000_000, readingError: 1_000_000, maxCells: 10_000_000, threads: 64, probes: 10_000,
} as const;

/** An http(s) URL (a server's base URL): anything else would store every trial as a network error. */
export const parseUrlFlag = (flag: string) => (v: string): string => {
  let u: URL | undefined;
  try { u = new URL(v); } catch { u = undefined; }
  if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new InvalidArgumentError(cliMsg.badFlag(flag, v,
    'an http:// or https:// URL'));
  return v;
};

/** A built-in provider id or a plug-in module (a path, @scope/name or samegame-provider-*). */
export const parseProviderFlag = (flag: string, builtins: readonly string[]) => (v: string): string => {
  if (!builtins.includes(v) && !isPluginSpec(v)) {
    throw new InvalidArgumentError(cliMsg.badFlag(flag, v,
      `one of ${builtins.join(', ')}, or a plug-in module (./path.mjs, @scope/name, samegame-provider-*)`));
  }
  return v;
};

/** How the CLI's logger shows progress (messages and warnings are the same for every command). */
export interface TerminalLoggerOptions {
  /** Messages and progress off (warnings and the closing summary still show). */
  readonly quiet?: boolean;
  /** The progress line's text (default: `label done/total (pct%)`). */
  readonly progressText?: (label: string, done: number, total: number) => string;
  /**
   * Progress when stderr is not a terminal: none (default), a line every `everyMs` and at the end
   * (a run), or a line at each tenth done (`tenth`, the coverage study).
   */
  readonly plain?: { readonly everyMs: number } | { readonly tenth: (done: number, total: number) => string };
}

/** The CLI's logger, with the progress line closed before any other message and a summary shown even when quiet. */
export type TerminalLogger = Logger & { endLine(): void; summary(m: string): void };

const percentText = (label: string, done: number, total: number) => `${label} ${done}/${total} (${Math.floor((100 * done) / total)}%)`;

/**
 * The CLI's one logger: messages to stderr, terminal-safe; progress redrawn on one line when stderr
 * is a terminal (closed before any other message), else as `o.plain` says. `terminalLogger(true)` is quiet.
 */
export function terminalLogger(opts: boolean | TerminalLoggerOptions = false): TerminalLogger {
  const o = typeof opts === 'boolean' ? { quiet: opts } : opts;
  const quiet = o.quiet === true;
  const tty = process.stderr.isTTY === true;
  const text = o.progressText ?? percentText;
  let open = false, last = '', lastPlain = -Infinity, tenth = 0;
  const endLine = () => { if (open) { process.stderr.write('\n'); open = false; } };
  const line = (m: string) => { endLine(); process.stderr.write(`${terminalText(m, true)}\n`); };
  const plain = (label: string, done: number, total: number): void => {
    const p = o.plain;
    if (p === undefined) return;
    if ('everyMs' in p) {
      if (Date.now() - lastPlain < p.everyMs && done !== total) return;
      lastPlain = Date.now();
      process.stderr.write(`${text(label, done, total)}\n`);
    } else {
      const t = Math.floor((10 * done) / total);
      if (t > tenth || done === total) { tenth = t; process.stderr.write(`${p.tenth(done, total)}\n`); }
    }
  };
  return {
    endLine,
    info(m) { if (!quiet) line(m); },
    summary(m) { line(m); },
    warn(m) { line(`warning: ${m}`); },
    print(t) { writeStdout(t); },
    progress(label, done, total) {
      if (quiet) return;
      if (!tty) { plain(label, done, total); return; }
      const t = text(label, done, total);
      if (t === last) return;
      last = t;
      process.stderr.write(`\r\x1b[K${t}`);
      open = done !== total;
      if (!open) process.stderr.write('\n');
    },
  };
}

/**
 * --interval percentile|bca|cluster-robust|cluster-bootstrap: how intervals are made. Unclustered
 * data: percentile (the default) or bca off the bootstrap replicates; clustered data: cluster-robust
 * (the default, which --interval cluster-robust names explicitly) unless cluster-bootstrap.
 */
export const INTERVAL_FLAGS = ['percentile', 'bca', 'cluster-robust', 'cluster-bootstrap'] as const;
export type IntervalFlag = typeof INTERVAL_FLAGS[number];
export const parseIntervalFlag = (v: string): IntervalFlag => {
  if (!(INTERVAL_FLAGS as readonly string[]).includes(v)) throw new InvalidArgumentError(cliMsg.badFlag('--interval', v,
    'percentile, bca, cluster-robust or cluster-bootstrap'));
  return v as IntervalFlag;
};
export const INTERVAL_HELP = ('interval method: percentile (the paper\'s) or bca (bias-corrected and accelerated); clustered data (repeated play, ' +
  '--cluster, logs) get small-sample cluster-robust intervals (the default; --interval cluster-robust names it, and is percentile for unclustered data) ' +
  'unless cluster-bootstrap (the percentile cluster bootstrap)');

/**
 * The settings of an --interval value: the bootstrap's method, and for clustered data whether the cluster bootstrap replaces the cluster-robust intervals
 * (cluster-robust: the default settings).
 */
export function intervalSettings(v: IntervalFlag): { interval: IntervalMethod; clusterInterval?: 'cluster-bootstrap' } {
  if (v === 'cluster-bootstrap') return { interval: 'percentile', clusterInterval: 'cluster-bootstrap' };
  return { interval: v === 'cluster-robust' ? 'percentile' : v };
}
/** --simultaneous (reproduce, report, analyze). */
export const SIMULTANEOUS_HELP = ('per-model intervals of Table 3 as simultaneous 95 % bands (sup-t over the models, from the same replicates); default ' +
  'pointwise, the paper\'s');

/** The flags of every command that analyzes a rates file (reproduce, report, audit). */
export interface RatesFlags {
  data: string; out: string; seed: number; reps: number; attenuation: number; base: string; alt: string; quiet?: boolean;
  /** --expect (reproduce, report): published values to compare with; the verdicts' level and the publication's replicates. */
  expect?: string;
  verdictAlpha?: number;
  publishedReps?: number;
  publishedMethod?: 'percentile' | 'bca';
  trials?: string[]; cluster?: string; factor?: string[];
  /** --format, --rounds: published logs read through a log format (src/sources/logs/). */
  format?: string; rounds?: string; shortMatches?: ShortMatches;
  /** --digitized PROJECT with --layout LAYOUT.csv and --pixel-error K. */
  digitized?: string; layout?: string; pixelError?: number;
  interval: IntervalFlag;
  /** --simultaneous (reproduce, report): per-model bands. */
  simultaneous?: boolean;
}

export function addRatesFlags(cmd: Command, d: { seed: number; reps: number; attenuation: number; base: string; alt: string }): Command {
  cmd
    .option('--out <dir>', 'output directory (reports/ and figures/ go under it)', '.')
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), d.seed)
    .option('--reps <n>', 'bootstrap replicates', parseIntFlag('--reps', 1, MAX_REPS), d.reps)
    .option('--attenuation <a>', 'attenuation of the conservative transform (1 = none)', parseAttenuationFlag(), d.attenuation)
    .option('--base <name>', 'base framing (the input\'s first framing when it lacks the default)', d.base)
    .option('--alt <name>', 'alternative framing (the input\'s next framing when it lacks the default)', d.alt);
  // One file flag per input kind of the source registry (--data defaults to the shipped rates).
  for (const [id, source] of Object.entries(FILE_FLAGS)) {
    // The flag is the id in kebab case (countsJson → --counts-json), as regenerate commands write it.
    const flag = `--${id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} <file>`;
    if ('repeatable' in source) cmd.option(flag, source.help, collect);
    else cmd.option(flag, source.help, id === 'data' ? SHIPPED_RATES : undefined);
  }
  addLogFlags(cmd);
  cmd
    .option('--cluster <column>', 'per-trial column grouping dependent decisions (default: "cluster" when present); the bootstrap resamples whole clusters')
    .option('--factor <column>', 'per-trial column to keep as a further factor (repeatable)', collect)
    .option('--interval <method>', INTERVAL_HELP, parseIntervalFlag, 'percentile');
  return addDigitizedFlags(cmd);
}

/** --layout and --pixel-error, the companions of --digitized (reproduce, report, audit, coverage). */
export function addDigitizedFlags(cmd: Command): Command {
  return cmd
    .option('--layout <file>', 'layout CSV of a digitized project: dataset,point,model,game,framing,n (one row per digitized point)')
    .option('--pixel-error <k>', 'pixel error of a click on the digitized figure, in px (default 1): each count\'s range at ±K px', parsePixelErrorFlag);
}

/** --pixel-error K: a number of pixels from 0 to 100. */
export const parsePixelErrorFlag = parseNumberFlag('--pixel-error', { min: 0, max: 100 }, cliMsg.pixelErrorRange);

/**
 * The input flags for the pipelines: --data or --trials (not both), the cluster and factor
 * columns, and the attenuation — undefined when not given, so the command applies the default of
 * its input kind (0.70 for rates, none for per-trial data). A file flag left at its default is
 * undefined (the shipped file, resolved inside the package); a path the user typed is used as
 * typed, even when it spells the shipped file's relative path.
 */
export function inputFlags(o: RatesFlags, cmd: Command) {
  const given = (id: string) => (cmd.getOptionValueSource(id) === 'default' ? undefined : (o as unknown as Record<string, string | undefined>)[id]);
  const files = Object.fromEntries(Object.keys(FILE_FLAGS).map((id) => [id, given(id)])) as { [K in SourceId]: InputChoice[K] };
  if (Object.values(files).filter((f) => f !== undefined).length > 1) throw new UserError(files.digitized !== undefined ? cliMsg.oneInput(
    ) : cliMsg.bothInputs());
  if (files.trials === undefined && (o.cluster !== undefined || o.factor !== undefined)) throw new UserError(cliMsg.trialsOnly());
  checkLogFlags(o);
  return {
    ...files, cluster: o.cluster, factors: o.factor, format: o.format, rounds: o.rounds, shortMatches: o.shortMatches, layout: o.layout,
      pixelError: o.pixelError,
    attenuation: cmd.getOptionValueSource('attenuation') === 'default' ? undefined : o.attenuation,
    // A pair not given is the input's (sources/framing-pair.ts): the paper's where the data hold it.
    base: cmd.getOptionValueSource('base') === 'default' ? undefined : o.base, alt: cmd.getOptionValueSource('alt') === 'default' ? undefined : o.alt,
    ...intervalSettings(o.interval),
  };
}

/** A repeatable flag's values, in order. */
export const collect = (v: string, prev: string[] = []) => [...prev, v];

/** --format and --rounds: the --trials files are published logs read through a log format. */
export function addLogFlags(cmd: Command): Command {
  return cmd
    .option('--format <name|file.yaml>',
      `log format of the --trials files: ${Object.keys(BUILTIN_LOG_FORMATS).join(', ')}, or a description YAML (docs/reference/log-format.md)`)
    .option('--rounds <n|a-b>', 'rounds of repeated play to keep (1, 1-3; default: all), for --trials read through --format (analyze: also a repeated store)')
    .option('--short-matches <drop|keep>',
      ('a logged match shorter than the longest of its game in the file, without played_rounds saying so: left out with a warning (drop, the default) or ' +
        'kept (keep)'), parseShortMatches);
}

/** --short-matches drop|keep. */
export const parseShortMatches = (v: string): ShortMatches => {
  if (v !== 'drop' && v !== 'keep') throw new InvalidArgumentError(cliMsg.badShortMatches(v));
  return v;
};

/** What --expect defaults to for the rates commands. */
export const EXPECT_DEFAULT_NOTE = ('; default: the shipped paper tables with the shipped rates (only those the settings leave comparable: --attenuation, ' +
  '--reps, --base/--alt, --published-method), none with any other --data');

/** A level strictly between 0 and 1 (--verdict-alpha). */
export const parseLevelFlag = (flag: string) => parseNumberFlag(flag, { min: 0, max: 1, minOpen: true, maxOpen: true }, 'a number in (0, 1)');

/**
 * --expect FILE (reproduce, report, analyze): published values to set beside the computed ones,
 * with the verdict rule's family-wise level and the publication's bootstrap replicates.
 */
export function addExpectFlag(cmd: Command, defaultNote: string): Command {
  return cmd.option('--expect <file>',
    `published values to compare with (CSV: table,model,game,statistic,published[,reps][,method]); writes reports/reproduction.csv${defaultNote}`)
    .option('--verdict-alpha <a>', 'with --expect: family-wise false-alarm level of the verdicts over the interval endpoints compared (default 0.05)',
      parseLevelFlag('--verdict-alpha'))
    .option('--published-reps <n>',
      ('with --expect: bootstrap replicates behind the published endpoints, where a row has no reps column (default: 1,000, the smallest count in common ' +
        'use, said so in the outputs)'), parseIntFlag('--published-reps', 1, Number.MAX_SAFE_INTEGER))
    .addOption(new Option('--published-method <method>',
      ('with --expect: the publication\'s interval method, where a row has no method column; compared endpoints are read that way whatever --interval shows ' +
        '(default: percentile)')).choices(['percentile', 'bca']));
}


/** A flag whose value is one of a list. */
export const oneOf = <T extends string>(flag: string, values: readonly T[]) => (v: string): T => {
  if (!(values as readonly string[]).includes(v)) throw new InvalidArgumentError(cliMsg.badFlag(flag, v, values.join(', ')));
  return v as T;
};
