/**
 * The stopping rule of an adaptive run simulated at known rates: how many trials a unit uses on
 * average, why it stops, and how often its interval at the stopping time holds the truth. A rate
 * unit draws Bernoulli(p) decisions; a shift unit draws pairs (base ~ Bernoulli(p_base), alt ~
 * Bernoulli(p_alt)) in lockstep and observes alt − base. Seeded by (seed, key, run).
 */
import { streamFor } from '../rng.js';
import { cellStatus, type StopReason, type StopRule } from './stop-rule.js';
import { moverInterval, wilsonInterval } from '../wilson.js';

export interface RuleSimulation {
  /** Runs simulated. */
  readonly runs: number;
  /** Mean trials per framing at the stopping time (pairs, for a shift). */
  readonly meanTrials: number;
  /** Runs by the reason they stopped. */
  readonly reasons: Readonly<Record<StopReason, number>>;
  /** Share of runs whose interval at the stopping time holds the true rate or shift. */
  readonly coverage: number;
  /** Mean width of that interval. */
  readonly meanWidth: number;
  /**
   * The fixed-n interval of the same level computed at the same stopping time, as an analysis that ignores the stop would
   * (Wilson for a rate, MOVER-Wilson for a shift): its coverage and mean width.
   */
  readonly fixedN: { readonly coverage: number; readonly meanWidth: number };
}

/** The rates of a unit: its cell's P(C), or (shift) the base and alternative framings' P(C). */
export interface UnitRates {
  readonly base: number;
  readonly alt?: number;
}

export function simulateRule(rule: StopRule, rates: UnitRates, runs: number, seed: number, key: string): RuleSimulation {
  const shift = rule.target === 'shift';
  const truth = shift ? (rates.alt ?? rates.base) - rates.base : rates.base;
  const reasons: Record<StopReason, number> = { precision: 0, sign: 0, equivalence: 0, max_trials: 0 };
  let trials = 0, held = 0, width = 0, fixedHeld = 0, fixedWidth = 0;
  const obs = new Float64Array(rule.maxTrials);
  const base = new Uint8Array(rule.maxTrials);
  for (let r = 0; r < runs; r++) {
    const g = streamFor(seed, `confseq-simulation\u0000${key}\u0000${r}`);
    for (let i = 0; i < obs.length; i++) {
      const b = g.next() < rates.base ? 1 : 0;
      base[i] = b;
      obs[i] = shift ? (g.next() < (rates.alt ?? rates.base) ? 1 : 0) - b : b;
    }
    const st = cellStatus(rule, obs);
    trials += st.n;
    reasons[st.stopped ?? 'max_trials']++;
    if (st.lo <= truth && truth <= st.hi) held++;
    width += st.hi - st.lo;
    const [lo, hi] = fixedInterval(shift, obs, base, st.n, rule.confidence);
    if (lo <= truth && truth <= hi) fixedHeld++;
    fixedWidth += hi - lo;
  }
  return { runs, meanTrials: trials / runs, reasons, coverage: held / runs, meanWidth: width / runs,
    fixedN: { coverage: fixedHeld / runs, meanWidth: fixedWidth / runs } };
}

/** The fixed-n interval of the first n observations: Wilson for a rate, MOVER-Wilson for alt − base (alt = obs + base). */
function fixedInterval(shift: boolean, obs: Float64Array, base: Uint8Array, n: number, level: number): [number, number] {
  let xObs = 0, xBase = 0;
  for (let i = 0; i < n; i++) { xObs += obs[i]; xBase += base[i]; }
  if (!shift) return wilsonInterval(xObs, n, level);
  return moverInterval([{ x: xObs + xBase, n, weight: 1 }, { x: xBase, n, weight: -1 }], level);
}
