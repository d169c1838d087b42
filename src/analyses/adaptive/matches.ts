/**
 * The stop rule of an adaptive repeated game simulated over matches (docs/methods.md §24): a unit's matches are drawn from
 * the observations of matches played — a store's (coverage of an adaptive run) or a pilot's (planning) — so that the
 * dependence of the rounds within a match is kept as played, and the truth is the mean of what the draws are drawn from.
 * Each simulated run draws one match observation per framing and look step (a shift: base and alt in lockstep, observing
 * alt − base), stops by the rule's confidence sequence (stats/confseq/stop-rule.ts), and is scored at its stop: the
 * sequence's interval, and the fixed-n interval an analysis that ignored the stop would print there (the t interval of
 * the mean of the n match observations, n − 1 df: the cluster-robust interval of a cell whose matches have equal rounds).
 */
import { streamFor } from '../../stats/rng.js';
import { cellStatus, isLook, stopReason, type StopReason, type StopRule } from '../../stats/confseq/stop-rule.js';
import type { StopUnit } from '../../stats/confseq/units.js';
import { tQuantile } from '../../stats/t-beta.js';

/** A unit and, per framing (one for a rate; base, alt for a shift), the observations of matches played (finite, in [0, 1]). */
export interface MatchSamples {
  readonly unit: StopUnit;
  readonly samples: readonly (readonly number[])[];
}

export interface MatchSimulation {
  readonly runs: number;
  /** The mean of the draws' distribution: a rate, or the shift alt − base. */
  readonly truth: number;
  /** Mean matches per framing at the stop (pairs, for a shift). */
  readonly meanMatches: number;
  readonly reasons: Readonly<Record<StopReason, number>>;
  readonly coverage: number;
  readonly meanWidth: number;
  /** The t interval over the same matches at the same stop: its coverage and mean width. */
  readonly fixedN: { readonly coverage: number; readonly meanWidth: number };
  /** The t interval as the stopping rule itself (an analyst peeking at it at the same looks): its coverage at its own stop and mean matches. */
  readonly peeking: { readonly coverage: number; readonly meanMatches: number };
}

const mean = (x: readonly number[]) => x.reduce((a, b) => a + b, 0) / x.length;

/** The two-sided t critical value at `level` on n − 1 degrees of freedom, each n's computed once (the looks of every run ask again). */
function tCritical(level: number): (n: number) => number {
  const known = new Map<number, number>();
  return (n) => {
    let q = known.get(n);
    if (q === undefined) known.set(n, q = tQuantile(1 - (1 - level) / 2, n - 1));
    return q;
  };
}

/** The fixed-n t interval of the mean of x[0 … n − 1] with critical values `crit` (the whole scale below two observations). */
function tInterval(x: ArrayLike<number>, n: number, crit: (n: number) => number, scale: readonly [number, number]): [number, number] {
  if (n < 2) return [scale[0], scale[1]];
  let s = 0, ss = 0;
  for (let i = 0; i < n; i++) s += x[i];
  const m = s / n;
  for (let i = 0; i < n; i++) ss += (x[i] - m) ** 2;
  const h = crit(n) * Math.sqrt(ss / (n - 1) / n);
  return [m - h, m + h];
}

/** The rule simulated `runs` times on draws from a unit's match observations (seeded by seed, key and run). */
export function simulateMatchRule(rule: StopRule, samples: readonly (readonly number[])[], runs: number, seed: number, key: string): MatchSimulation {
  const shift = samples.length > 1;
  const [b, a] = samples;
  const truth = shift ? mean(a) - mean(b) : mean(b);
  const reasons: Record<StopReason, number> = { precision: 0, sign: 0, equivalence: 0, max_trials: 0 };
  const obs = new Float64Array(rule.maxTrials);
  const scale: [number, number] = shift ? [-1, 1] : [0, 1];
  const crit = tCritical(rule.confidence);
  let matches = 0, held = 0, width = 0, fixedHeld = 0, fixedWidth = 0, peekHeld = 0, peekMatches = 0;
  for (let r = 0; r < runs; r++) {
    const g = streamFor(seed, `confseq-match-simulation\u0000${key}\u0000${r}`);
    for (let i = 0; i < obs.length; i++) {
      const x = b[Math.floor(g.next() * b.length)];
      obs[i] = shift ? a[Math.floor(g.next() * a.length)] - x : x;
    }
    const st = cellStatus(rule, obs);
    matches += st.n;
    reasons[st.stopped ?? 'max_trials']++;
    if (st.lo <= truth && truth <= st.hi) held++;
    width += st.hi - st.lo;
    const [lo, hi] = tInterval(obs, st.n, crit, scale);
    if (lo <= truth && truth <= hi) fixedHeld++;
    fixedWidth += hi - lo;
    const p = peekingStop(rule, obs, scale, crit);
    peekMatches += p.n;
    if (p.lo <= truth && truth <= p.hi) peekHeld++;
  }
  return { runs, truth, meanMatches: matches / runs, reasons, coverage: held / runs, meanWidth: width / runs,
    fixedN: { coverage: fixedHeld / runs, meanWidth: fixedWidth / runs }, peeking: { coverage: peekHeld / runs, meanMatches: peekMatches / runs } };
}

/** The t interval looked at after every wave and stopped by the rule: the interval at its first look that meets it (else at max_trials). */
function peekingStop(rule: StopRule, obs: ArrayLike<number>, scale: readonly [number, number], crit: (n: number) => number):
  { n: number; lo: number; hi: number } {
  let last = { n: 0, lo: scale[0], hi: scale[1] };
  for (let n = 1; n <= Math.min(obs.length, rule.maxTrials); n++) {
    if (!isLook(rule, n)) continue;
    const [lo, hi] = tInterval(obs, n, crit, scale);
    last = { n, lo, hi };
    if (stopReason(rule, lo, hi, n)) break;
  }
  return last;
}

/** Every unit with matches played in each of its framings, simulated (the units without are left out). */
export function simulateMatchUnits(rule: StopRule, units: readonly MatchSamples[], runs: number, seed: number): (MatchSamples & { sim: MatchSimulation })[] {
  return units.filter((u) => u.samples.every((s) => s.length > 0)).map((u) => ({
    ...u, sim: simulateMatchRule(rule, u.samples, runs, seed, [u.unit.model, u.unit.game, u.unit.opponent ?? '', ...u.unit.framings].join('\u0000')),
  }));
}
