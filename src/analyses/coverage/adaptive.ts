/**
 * Coverage of an adaptive run's intervals (docs/methods.md §24): each unit of its stop rule simulated at the run's observed
 * rates (stats/confseq/simulate.ts), the confidence sequence read at the look where the rule stops it, beside the fixed-n
 * interval of the same level computed at that same look (Wilson for a rate, MOVER-Wilson for a shift) — the interval an
 * analysis that ignores the stop would print, which has no guarantee after a data-dependent stop (its coverage is measured).
 */
import { cellRate, type CellTable } from '../../core/cells.js';
import { simulateRule } from '../../stats/confseq/simulate.js';
import { cellKey, stopUnits } from '../../stats/confseq/units.js';
import type { StopRule } from '../../stats/confseq/stop-rule.js';
import { mcCoverage } from './coverage.js';
import type { CoverageTableRow } from './table.js';

/** A row of coverage.csv whose method is an adaptive run's (a confidence sequence, or the fixed-n interval at its stop). */
export type AdaptiveCoverageRow = CoverageTableRow;

/** The stop rule of a run and its framing pair (a shift's base and alt). */
export type AdaptiveRule = StopRule & { readonly base?: string; readonly alt?: string };

/** Two rows per unit of the rule: its sequence at the stop, and the fixed-n interval at the same stop. */
export function adaptiveCoverage(rule: AdaptiveRule, table: CellTable, sims: number, seed: number): AdaptiveCoverageRow[] {
  const rate = new Map(table.cells.map((c) => [cellKey(c.key.model, c.key.game, c.key.framing), cellRate(c.obs)]));
  const cells = table.cells.map((c) => ({ model: c.key.model, game: c.key.game, framing: c.key.framing }))
    .filter((k) => rule.target !== 'shift' || k.framing === rule.base);
  const fixedName = rule.target === 'shift' ? 'MOVER-Wilson at the stop (fixed-n)' : 'Wilson at the stop (fixed-n)';
  return stopUnits(rule, cells).flatMap((u) => {
    const p = u.framings.map((f) => rate.get(cellKey(u.model, u.game, f)) ?? Number.NaN);
    if (p.some((x) => !Number.isFinite(x))) return [];
    const sim = simulateRule(rule, { base: p[0], ...(p.length > 1 ? { alt: p[1] } : {}) }, sims, seed, cellKey(u.model, u.game, u.framings.join('\u0000')));
    const truth = p.length > 1 ? p[1] - p[0] : p[0];
    const statistic = `${rule.target} ${u.model}/${u.game}${p.length > 1 ? ` (${u.framings[1]} − ${u.framings[0]})` : `/${u.framings[0]}`}`;
    const row = (method: string, coverage: number, width: number): AdaptiveCoverageRow => ({
      statistic, method, nominal: rule.confidence, ...mcCoverage(Math.round(coverage * sims), sims), mean_width: width, truth,
    });
    return [row(`${rule.method} sequence at the stop`, sim.coverage, sim.meanWidth), row(fixedName, sim.fixedN.coverage, sim.fixedN.meanWidth)];
  });
}
