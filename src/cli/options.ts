import { isPluginSpec } from '../live/providers/plugin-spec.js';
import { SOURCES, type SourceId } from '../sources/input.js';
import { InvalidArgumentError, type Command } from 'commander';
import { SHIPPED_RATES } from '../core/paths.js';
import { msg } from '../core/messages/common.js';
import type { Logger } from '../core/logger.js';
import { UserError } from '../core/errors.js';
import { trialsMsg } from '../core/messages/trials.js';
import type { IntervalMethod } from '../stats/bootstrap.js';
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

/** Ranges of the numeric flags (docs: README "Limits"). */
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
  /** --expect (reproduce, report): published values to compare with. */
  expect?: string;
  trials?: string; cluster?: string; factor?: string[];
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
  for (const [id, source] of Object.entries(SOURCES)) cmd.option(`--${id} <file>`, source.help, id === 'data' ? SHIPPED_RATES : undefined);
  return cmd
    .option('--cluster <column>', 'per-trial column grouping dependent decisions (default: "cluster" when present); the bootstrap resamples whole clusters')
    .option('--factor <column>', 'per-trial column to keep as a further factor (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--interval <method>', INTERVAL_HELP, parseIntervalFlag, 'percentile');
}

/**
 * The input flags for the pipelines: --data or --trials (not both), the cluster and factor
 * columns, and the attenuation — undefined when not given, so the command applies the default of
 * its input kind (0.70 for rates, none for per-trial data). A file flag left at its default is
 * undefined (the shipped file, resolved inside the package); a path the user typed is used as
 * typed, even when it spells the shipped file's relative path.
 */
export function inputFlags(o: RatesFlags, cmd: Command) {
  const given = (id: string) => (cmd.getOptionValueSource(id) === 'default' ? undefined : (o as unknown as Record<string, string | undefined>)[id]);
  const files = Object.fromEntries(Object.keys(SOURCES).map((id) => [id, given(id)])) as Record<SourceId, string | undefined>;
  if (Object.values(files).filter((f) => f !== undefined).length > 1) throw new UserError(trialsMsg.bothInputs());
  if (files.trials === undefined && (o.cluster !== undefined || o.factor !== undefined)) throw new UserError(trialsMsg.trialsOnly());
  return {
    ...files, cluster: o.cluster, factors: o.factor,
    attenuation: cmd.getOptionValueSource('attenuation') === 'default' ? undefined : o.attenuation,
  };
}

/** What --expect defaults to for the rates commands. */
export const EXPECT_DEFAULT_NOTE = '; default: the shipped paper tables with the shipped rates, none with any other --data';

/** --expect FILE (reproduce, report, analyze): published values to set beside the computed ones. */
export function addExpectFlag(cmd: Command, defaultNote: string): Command {
  return cmd.option('--expect <file>', `published values to compare with (CSV: table,model,game,statistic,published); writes reports/reproduction.csv${defaultNote}`);
}

