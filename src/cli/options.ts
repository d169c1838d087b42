import { isPluginSpec } from '../live/providers/plugin-spec.js';
import { SOURCES, type InputChoice, type SourceId } from '../sources/input.js';
import { InvalidArgumentError, type Command } from 'commander';
import { SHIPPED_RATES } from '../core/paths.js';
import { msg } from '../core/messages/common.js';
import type { Logger } from '../core/logger.js';
import { UserError } from '../core/errors.js';
import { trialsMsg } from '../core/messages/trials.js';
import { digitizedMsg } from '../core/messages/digitized.js';
import type { IntervalMethod } from '../stats/bootstrap.js';
import { logsMsg } from '../core/messages/logs.js';
import { BUILTIN_LOG_FORMATS, parseRoundRange } from '../sources/logs/index.js';
import { terminalText } from '../core/terminal.js';

/** Flag parsers: a bad value ends with one message naming the flag. */
export const parseIntFlag = (flag: string, min = 0, max = Number.MAX_SAFE_INTEGER) => (v: string): number => {
  const n = Number(v);
  if (!/^\s*[+-]?\d+\s*$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max < Number.MAX_SAFE_INTEGER ? `an integer from ${min} to ${max}` : min > 0 ? `an integer ≥ ${min}` : 'a non-negative integer';
    throw new InvalidArgumentError(msg.badFlag(flag, v, range));
  }
  return n;
};

/** Bootstrap replicates: a million is far past any Monte Carlo need and still fits in memory. */
export const MAX_REPS = 1_000_000;

export const parseUnitFlag = (flag: string) => (v: string): number => {
  const n = Number(v);
  if (v.trim() === '' || !(n >= 0 && n <= 1)) throw new InvalidArgumentError(msg.badFlag(flag, v, 'a number in [0, 1]'));
  return n;
};

export const parsePositiveFlag = (flag: string) => (v: string): number => {
  const n = Number(v);
  if (v.trim() === '' || !(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError(msg.badFlag(flag, v, 'a positive number'));
  return n;
};

/**
 * A finite number in [min, max] (or (0, max] when `min` is 0 and `positive` is set): every numeric
 * flag has a range, so no value can overflow a timer, a cost or an array (1e-300 requests per
 * minute would wait longer than any timer can count; a price of 1e308 would print $Infinity).
 */
export const parseRangeFlag = (flag: string, min: number, max: number, positive = false) => (v: string): number => {
  const n = Number(v);
  const ok = v.trim() !== '' && Number.isFinite(n) && n >= min && n <= max && (!positive || n > 0);
  if (!ok) throw new InvalidArgumentError(msg.badFlag(flag, v, positive && min === 0 ? `a number in (0, ${max}]` : `a number from ${min} to ${max}`));
  return n;
};

/** Ranges of the numeric flags (docs/reference/specifications.md, "Limits"). */
export const FLAG_LIMITS = {
  concurrency: 1000, rpm: [0.001, 10_000_000], tpm: [1, 10_000_000_000], maxRetries: 100, timeoutMs: 86_400_000,
  price: 100_000, tokensPerCall: 10_000_000, maxN: 10_000_000, readingError: 1_000_000, maxCells: 10_000_000, threads: 64,
} as const;

/** An http(s) URL (a server's base URL): anything else would store every trial as a network error. */
export const parseUrlFlag = (flag: string) => (v: string): string => {
  let u: URL | undefined;
  try { u = new URL(v); } catch { u = undefined; }
  if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new InvalidArgumentError(msg.badFlag(flag, v, 'an http:// or https:// URL'));
  return v;
};

/** A built-in provider id or a plug-in module (a path, @scope/name or samegame-provider-*). */
export const parseProviderFlag = (flag: string, builtins: readonly string[]) => (v: string): string => {
  if (!builtins.includes(v) && !isPluginSpec(v)) {
    throw new InvalidArgumentError(msg.badFlag(flag, v, `one of ${builtins.join(', ')}, or a plug-in module (./path.mjs, @scope/name, samegame-provider-*)`));
  }
  return v;
};

/** The CLI's logger: messages to stderr; progress redraws one line when stderr is a terminal. */
export function terminalLogger(quiet = false): Logger {
  const tty = process.stderr.isTTY === true;
  let last = '';
  return {
    info(m) { if (!quiet) process.stderr.write(`${terminalText(m, true)}\n`); },
    warn(m) { process.stderr.write(`warning: ${terminalText(m, true)}\n`); },
    progress(label, done, total) {
      if (quiet || !tty) return;
      const pct = Math.floor((100 * done) / total);
      const text = `${label} ${done}/${total} (${pct}%)`;
      if (text === last) return;
      last = text;
      process.stderr.write(`\r${text}${done === total ? '\n' : ''}`);
    },
  };
}

/** --interval percentile|bca: how intervals are read off the bootstrap replicates. */
export const parseIntervalFlag = (v: string): IntervalMethod => {
  if (v !== 'percentile' && v !== 'bca') throw new InvalidArgumentError(msg.badFlag('--interval', v, 'percentile or bca'));
  return v;
};
export const INTERVAL_HELP = 'interval method: percentile (the paper\'s) or bca (bias-corrected and accelerated)';

/** The flags of every command that analyzes a rates file (reproduce, report, audit). */
export interface RatesFlags {
  data: string; out: string; seed: number; reps: number; attenuation: number; base: string; alt: string; quiet?: boolean;
  /** --expect (reproduce, report): published values to compare with; the verdicts' level and the publication's replicates. */
  expect?: string;
  verdictAlpha?: number;
  publishedReps?: number;
  trials?: string[]; cluster?: string; factor?: string[];
  /** --format, --rounds: published logs read through a log format (src/sources/logs/). */
  format?: string; rounds?: string;
  /** --digitized PROJECT with --layout LAYOUT.csv and --pixel-error K. */
  digitized?: string; layout?: string; pixelError?: number;
  interval: IntervalMethod;
}

export function addRatesFlags(cmd: Command, d: { seed: number; reps: number; attenuation: number; base: string; alt: string }): Command {
  cmd
    .option('--out <dir>', 'output directory (reports/ and figures/ go under it)', '.')
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), d.seed)
    .option('--reps <n>', 'bootstrap replicates', parseIntFlag('--reps', 1, MAX_REPS), d.reps)
    .option('--attenuation <a>', 'attenuation of the conservative transform (1 = none)', parseUnitFlag('--attenuation'), d.attenuation)
    .option('--base <name>', 'base framing', d.base)
    .option('--alt <name>', 'alternative framing', d.alt);
  // One file flag per input kind of the source registry (--data defaults to the shipped rates).
  for (const [id, source] of Object.entries(SOURCES)) {
    if ('repeatable' in source) cmd.option(`--${id} <file>`, source.help, collect);
    else cmd.option(`--${id} <file>`, source.help, id === 'data' ? SHIPPED_RATES : undefined);
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
export const parsePixelErrorFlag = (v: string): number => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100) throw new InvalidArgumentError(digitizedMsg.pixelErrorRange(v));
  return n;
};

/**
 * The input flags for the pipelines: --data or --trials (not both), the cluster and factor
 * columns, and the attenuation — undefined when not given, so the command applies the default of
 * its input kind (0.70 for rates, none for per-trial data). A file flag left at its default is
 * undefined (the shipped file, resolved inside the package); a path the user typed is used as
 * typed, even when it spells the shipped file's relative path.
 */
export function inputFlags(o: RatesFlags, cmd: Command) {
  const given = (id: string) => (cmd.getOptionValueSource(id) === 'default' ? undefined : (o as unknown as Record<string, string | undefined>)[id]);
  const files = Object.fromEntries(Object.keys(SOURCES).map((id) => [id, given(id)])) as { [K in SourceId]: InputChoice[K] };
  if (Object.values(files).filter((f) => f !== undefined).length > 1) throw new UserError(files.digitized !== undefined ? digitizedMsg.oneInput() : trialsMsg.bothInputs());
  if (files.trials === undefined && (o.cluster !== undefined || o.factor !== undefined)) throw new UserError(trialsMsg.trialsOnly());
  checkLogFlags(o);
  return {
    ...files, cluster: o.cluster, factors: o.factor, format: o.format, rounds: o.rounds, layout: o.layout, pixelError: o.pixelError,
    attenuation: cmd.getOptionValueSource('attenuation') === 'default' ? undefined : o.attenuation,
  };
}

/** A repeatable flag's values, in order. */
export const collect = (v: string, prev: string[] = []) => [...prev, v];

/** --format and --rounds: the --trials files are published logs read through a log format. */
export function addLogFlags(cmd: Command): Command {
  return cmd
    .option('--format <name|file.yaml>', `log format of the --trials files: ${Object.keys(BUILTIN_LOG_FORMATS).join(', ')}, or a description YAML (docs/reference/log-format.md)`)
    .option('--rounds <n|a-b>', 'rounds of repeated play to keep (1, 1-3; default: all), for --trials read through --format (analyze: also a repeated store)');
}

/**
 * --format and --rounds need --trials; --rounds and several --trials files need --format; --rounds
 * is a round or a range. With `store` (analyze STORE) --rounds needs neither: the store's kind decides.
 */
export function checkLogFlags(o: { trials?: string | readonly string[]; format?: string; rounds?: string; cluster?: string }, store?: string): void {
  if (store !== undefined && o.trials === undefined) {
    if (o.format !== undefined) throw new UserError(logsMsg.formatNeedsTrialsStore());
  } else {
    if (o.trials === undefined && (o.format !== undefined || o.rounds !== undefined)) throw new UserError(logsMsg.formatNeedsTrials());
    if (o.format === undefined && o.rounds !== undefined) throw new UserError(logsMsg.roundsNeedFormat());
  }
  if (o.format === undefined && typeof o.trials !== 'string' && (o.trials?.length ?? 0) > 1) throw new UserError(logsMsg.severalTrialsNeedFormat());
  if (o.format !== undefined && o.cluster !== undefined) throw new UserError(logsMsg.clusterIsMatch());
  if (o.rounds !== undefined) parseRoundRange(o.rounds);
}

/** What --expect defaults to for the rates commands. */
export const EXPECT_DEFAULT_NOTE = '; default: the shipped paper tables with the shipped rates (only those the settings leave comparable: --attenuation, --reps, --interval, --base/--alt), none with any other --data';

/** A level strictly between 0 and 1 (--verdict-alpha). */
export const parseLevelFlag = (flag: string) => (v: string): number => {
  const n = Number(v);
  if (v.trim() === '' || !(n > 0 && n < 1)) throw new InvalidArgumentError(msg.badFlag(flag, v, 'a number in (0, 1)'));
  return n;
};

/**
 * --expect FILE (reproduce, report, analyze): published values to set beside the computed ones,
 * with the verdict rule's family-wise level and the publication's bootstrap replicates.
 */
export function addExpectFlag(cmd: Command, defaultNote: string): Command {
  return cmd.option('--expect <file>', `published values to compare with (CSV: table,model,game,statistic,published[,reps]); writes reports/reproduction.csv${defaultNote}`)
    .option('--verdict-alpha <a>', 'with --expect: family-wise false-alarm level of the verdicts over the interval endpoints compared (default 0.05)', parseLevelFlag('--verdict-alpha'))
    .option('--published-reps <n>', 'with --expect: bootstrap replicates behind the published endpoints, where a row has no reps column (default: --reps)', parseIntFlag('--published-reps', 1, Number.MAX_SAFE_INTEGER));
}

