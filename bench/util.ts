import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Fault } from '../test/helpers/loopback-openai.js';

/** One line of the benchmark table: a measured value beside its baseline, and their ratio. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  baselineName?: string;
  target?: string;
  note?: string;
  peakRssMb?: number;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Seconds to the millisecond; other units to three significant digits (0.213 ms, 4.31 µs, 599 req/min). */
export const fmt = (x: number, unit: string) => (unit === 's' ? `${x.toFixed(3)} s` : `${Number(x.toPrecision(3))}${unit ? ' ' + unit : ''}`);

/** Timings of our side and numpy's, measured in alternating rounds (this VM's speed drifts over minutes). */
export interface Alternation {
  ours: number[];
  theirs: number[];
  numpy?: string;
  /** Why the numpy side gave nothing (python3 or numpy missing), when it did not run. */
  failure?: string;
}

/** The result of one run of a numpy script that reports its best time as JSON {min_s, numpy}: the seconds, or why it gave none. */
export function runNumpy(script: string, args: readonly string[], input?: string): { seconds: number; numpy: string } | { failure: string } {
  const py = spawnSync('python3', [script, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (py.status !== 0) return { failure: (py.stderr || String(py.error)).trim().split('\n').pop() ?? 'python3 failed' };
  const r = JSON.parse(py.stdout) as { min_s: number; numpy: string };
  return { seconds: r.min_s, numpy: r.numpy };
}

/**
 * One side of an alternation, called with the round's index: it reports its own seconds (a script timing itself inside), or
 * nothing to be timed from outside (wall time of the call).
 */
export type Side = (round: number) => unknown;

/**
 * `rounds` rounds, each running every side once in turn, so each meets the same conditions (this VM's speed drifts over minutes):
 * per side, its seconds in every round (a side that reported NaN left out of its list).
 */
export async function alternate(rounds: number, sides: readonly Side[]): Promise<number[][]> {
  const times = sides.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sides.length; k++) {
      const t = performance.now();
      const own = await sides[k](round);
      const seconds = typeof own === 'number' ? own : (performance.now() - t) / 1000;
      if (!Number.isNaN(seconds)) times[k].push(seconds);
    }
  }
  return times;
}

/**
 * `rounds` rounds, each `runs` timed calls of `ours(seed)` (seeds round · runs + i + 2, after the
 * caller's warm-up) then one run of the numpy script `script args…` (stdin `input`), which reports
 * its best of `runs` as JSON {min_s, numpy}: the same conditions for both sides.
 */
export function alternateWithNumpy(rounds: number, runs: number, ours: (seed: number) => void,
  script: string, args: readonly string[], input?: string): Alternation {
  const a: Alternation = { ours: [], theirs: [] };
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      ours(round * runs + i + 2);
      a.ours.push((performance.now() - t) / 1000);
    }
    const r = runNumpy(script, args, input);
    if ('seconds' in r) { a.theirs.push(r.seconds); a.numpy = r.numpy; } else a.failure = r.failure;
  }
  return a;
}

/**
 * A server's limit of `limit` requests per sliding minute, as a loopback fault: beyond it a 429
 * with Retry-After (whole seconds until the oldest request leaves the window). `served` holds the
 * times of the requests let through, `limited()` the number of 429s.
 */
export function minuteLimit(limit: number): { fault: () => Fault | undefined; served: number[]; limited: () => number } {
  const window: number[] = [];
  const served: number[] = [];
  let limited = 0;
  const fault = (): Fault | undefined => {
    const now = Date.now();
    while (window.length && window[0] <= now - 60_000) window.shift();
    if (window.length >= limit) {
      limited++;
      return { kind: 'rate_limit', retryAfter: String(Math.max(1, Math.ceil((window[0] + 60_000 - now) / 1000))) };
    }
    window.push(now);
    served.push(now);
    return undefined;
  };
  return { fault, served, limited: () => limited };
}
