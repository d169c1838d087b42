/**
 * The stopping rule of an adaptive run simulated at known rates: how many trials a unit uses on
 * average, why it stops, and how often its interval at the stopping time holds the truth. A rate
 * unit draws Bernoulli(p) decisions; a shift unit draws pairs (base ~ Bernoulli(p_base), alt ~
 * Bernoulli(p_alt)) in lockstep and observes alt − base. Seeded by (seed, key, run).
 */
import { streamFor } from '../rng.js';
import { cellStatus, type StopReason, type StopRule } from './stop-rule.js';

export interface RuleSimulation {
  /** Runs simulated. */
  readonly runs: number;
  /** Mean trials per framing at the stopping time (pairs, for a shift). */
  readonly meanTrials: number;
  /** Runs by the reason they stopped. */
  readonly reasons: Readonly<Record<StopReason, number>>;
  /** Share of runs whose interval at the stopping time holds the true rate or shift. */
  readonly coverage: number;
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
  let trials = 0, held = 0;
  const obs = new Float64Array(rule.maxTrials);
  for (let r = 0; r < runs; r++) {
    const g = streamFor(seed, `confseq-simulation\u0000${key}\u0000${r}`);
    for (let i = 0; i < obs.length; i++) {
      const b = g.next() < rates.base ? 1 : 0;
      obs[i] = shift ? (g.next() < (rates.alt ?? rates.base) ? 1 : 0) - b : b;
    }
    const st = cellStatus(rule, obs);
    trials += st.n;
    reasons[st.stopped ?? 'max_trials']++;
    if (st.lo <= truth && truth <= st.hi) held++;
  }
  return { runs, meanTrials: trials / runs, reasons, coverage: held / runs };
}
