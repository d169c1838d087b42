/**
 * Coverage of an adaptive run's intervals (docs/methods.md §24): each unit of its stop rule simulated at the run's observed
 * rates (stats/confseq/simulate.ts), the confidence sequence read at the look where the rule stops it, beside the fixed-n
 * interval of the same level computed at that same look (Wilson for a rate, MOVER-Wilson for a shift) — the interval an
 * analysis that ignores the stop would print, which has no guarantee after a data-dependent stop (its coverage is measured).
 */
import { cellRate, type CellTable } from '../../core/cells.js';
import { simulateMatchUnits, simulateUnits, type MatchSamples } from '../adaptive/index.js';
import type { StopRule } from '../../stats/confseq/stop-rule.js';
import { mcCoverage } from './coverage.js';
import type { CoverageTableRow } from './table.js';

/** A row of coverage.csv whose method is an adaptive run's (a confidence sequence, or the fixed-n interval at its stop). */
export type AdaptiveCoverageRow = CoverageTableRow;

/** The stop rule of a run and its framing pair (a shift's base and alt). */
export type AdaptiveRule = StopRule & { readonly base?: string; readonly alt?: string };

/** Two rows per unit of the rule: its sequence at the stop, and the fixed-n interval at the same stop. */
export function adaptiveCoverage(rule: AdaptiveRule, table: CellTable, sims: number, seed: number): AdaptiveCoverageRow[] {
  const cells = table.cells.map((c) => ({ model: c.key.model, game: c.key.game, framing: c.key.framing, rate: cellRate(c.obs) }));
  const fixedName = rule.target === 'shift' ? 'MOVER-Wilson at the stop (fixed-n)' : 'Wilson at the stop (fixed-n)';
  return simulateUnits(rule, cells, sims, seed, true).flatMap((u) => {
    const statistic = `${rule.target} ${u.model}/${u.game}${u.rates.length > 1 ? ` (${u.framings[1]} − ${u.framings[0]})` : `/${u.framings[0]}`}`;
    const row = (method: string, coverage: number, width: number): AdaptiveCoverageRow => ({
      statistic, method, nominal: rule.confidence, ...mcCoverage(Math.round(coverage * sims), sims), mean_width: width, truth: u.truth,
    });
    return [row(`${rule.method} sequence at the stop`, u.sim.coverage, u.sim.meanWidth), row(fixedName, u.sim.fixedN.coverage, u.sim.fixedN.meanWidth)];
  });
}

/**
 * Repeated play (the match is the unit of sampling): two rows per unit, the rule simulated on draws from its stored matches'
 * observations (simulateMatchRule), the sequence at the stop beside the t interval over the same matches at the same stop.
 */
export function adaptiveMatchCoverage(rule: AdaptiveRule, units: readonly MatchSamples[], sims: number, seed: number): AdaptiveCoverageRow[] {
  return simulateMatchUnits(rule, units, sims, seed).flatMap(({ unit: u, sim }) => {
    const statistic = `${rule.target} ${u.model}/${u.game} vs ${u.opponent ?? ''}${u.framings.length > 1 ? ` (${u.framings[1]} − ${u.framings[0]})`
      : `/${u.framings[0]}`} over matches`;
    const row = (method: string, coverage: number, width: number): AdaptiveCoverageRow => ({
      statistic, method, nominal: rule.confidence, ...mcCoverage(Math.round(coverage * sims), sims), mean_width: width, truth: sim.truth,
    });
    return [row(`${rule.method} sequence at the stop`, sim.coverage, sim.meanWidth), row('t over matches at the stop (fixed-n)', sim.fixedN.coverage,
      sim.fixedN.meanWidth)];
  });
}
