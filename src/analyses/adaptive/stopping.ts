/**
 * The analysis of an adaptive run: each unit's anytime-valid interval at its stopping look (the
 * confidence sequence of the run's stop rule, which holds however the rule stopped it), why and
 * when it stopped, and the trials it saved against the fixed design (max_trials per framing).
 */
import { toCsv } from '../../render/csv.js';
import type { StopRule } from '../../stats/confseq/stop-rule.js';
import type { UnitStatus } from '../../stats/confseq/units.js';

export interface StoppingRow {
  readonly model: string;
  readonly game: string;
  /** The unit's framings: one cell's, or base and alt of a contrast (alt − base). */
  readonly framings: readonly string[];
  /** Repeated play: the opponent of the unit's matches (n, saved: matches). */
  readonly opponent?: string;
  readonly n: number;
  readonly lo: number;
  readonly hi: number;
  /** precision, sign, equivalence, max_trials; open: the run has not finished the unit. */
  readonly stopped: string;
  readonly saved: number;
}

export function stoppingRows(rule: StopRule, statuses: readonly UnitStatus[]): StoppingRow[] {
  return statuses.map((s) => ({
    model: s.unit.model, game: s.unit.game, framings: s.unit.framings, ...(s.unit.opponent === undefined ? {} : { opponent: s.unit.opponent }),
    n: s.n, lo: s.lo, hi: s.hi,
    stopped: s.stopped ?? 'open', saved: s.stopped ? (rule.maxTrials - s.n) * s.unit.framings.length : 0,
  }));
}

/** Units of repeated play: their unit of sampling is the match (an opponent column, n and saved counted in matches). */
export const byMatch = (rows: readonly StoppingRow[]): boolean => rows.some((r) => r.opponent !== undefined);

/** reports/adaptive.csv: one row per unit (repeated play: with its opponent, n and matches_saved in matches). */
export function stoppingCsv(rule: StopRule, rows: readonly StoppingRow[]): string {
  const m = byMatch(rows);
  const header = ['model', 'game', ...(m ? ['opponent'] : []), 'framing', 'target', 'method', 'confidence', 'n', 'lo', 'hi', 'half_width', 'stopped',
    'max_trials', m ? 'matches_saved' : 'trials_saved'];
  return toCsv(header, rows.map((r) => [r.model, r.game, ...(m ? [r.opponent ?? ''] : []), r.framings.join(' vs '), rule.target, rule.method,
    rule.confidence, r.n, r.lo, r.hi, (r.hi - r.lo) / 2, r.stopped, rule.maxTrials, r.saved]));
}

/** Trials used and a fixed design's, over every unit. */
export function stoppingTotals(rule: StopRule, rows: readonly StoppingRow[]): { used: number; fixed: number; early: number } {
  return {
    used: rows.reduce((a, r) => a + r.n * r.framings.length, 0),
    fixed: rows.reduce((a, r) => a + rule.maxTrials * r.framings.length, 0),
    early: rows.filter((r) => r.stopped !== 'max_trials' && r.stopped !== 'open').length,
  };
}
