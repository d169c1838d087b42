import { InvalidArgumentError, type Command } from 'commander';
import { SHIPPED_RATES } from '../core/paths.js';
import { msg } from '../core/messages/common.js';
import type { Logger } from '../core/logger.js';

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
  price: 100_000, tokensPerCall: 10_000_000, maxN: 10_000_000, readingError: 1_000_000,
} as const;

/** An http(s) URL (a server's base URL): anything else would store every trial as a network error. */
export const parseUrlFlag = (flag: string) => (v: string): string => {
  let u: URL | undefined;
  try { u = new URL(v); } catch { u = undefined; }
  if (u === undefined || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new InvalidArgumentError(msg.badFlag(flag, v, 'an http:// or https:// URL'));
  return v;
};

/** One of the listed values. */
export const parseChoiceFlag = (flag: string, choices: readonly string[]) => (v: string): string => {
  if (!choices.includes(v)) throw new InvalidArgumentError(msg.badFlag(flag, v, `one of ${choices.join(', ')}`));
  return v;
};

/** The CLI's logger: messages to stderr; progress redraws one line when stderr is a terminal. */
export function terminalLogger(quiet = false): Logger {
  const tty = process.stderr.isTTY === true;
  let last = '';
  return {
    info(m) { if (!quiet) process.stderr.write(`${m}\n`); },
    warn(m) { process.stderr.write(`warning: ${m}\n`); },
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

/** The flags of every command that analyzes a rates file (reproduce, report, audit). */
export interface RatesFlags {
  data: string; out: string; seed: number; reps: number; attenuation: number; base: string; alt: string; quiet?: boolean;
}

export function addRatesFlags(cmd: Command, d: { seed: number; reps: number; attenuation: number; base: string; alt: string }): Command {
  return cmd
    .option('--data <file>', 'rates CSV (model, game, framing, n, rate|cooperate)', SHIPPED_RATES)
    .option('--out <dir>', 'output directory (reports/ and figures/ go under it)', '.')
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), d.seed)
    .option('--reps <n>', 'bootstrap replicates', parseIntFlag('--reps', 1, MAX_REPS), d.reps)
    .option('--attenuation <a>', 'attenuation of the conservative transform (1 = none)', parseUnitFlag('--attenuation'), d.attenuation)
    .option('--base <name>', 'base framing', d.base)
    .option('--alt <name>', 'alternative framing', d.alt);
}

/**
 * The --data value for the pipelines: undefined when the flag was not given (the shipped file,
 * resolved inside the package); a path the user typed is used as typed, even when it spells the
 * shipped file's relative path.
 */
export const dataPath = (o: { data: string }, cmd: Command): string | undefined =>
  (cmd.getOptionValueSource('data') === 'default' ? undefined : o.data);
