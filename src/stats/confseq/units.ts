/**
 * The units of an adaptive run's stop rule and their observations from stored outcomes, on plain
 * values (the runner and the analysis of an adaptive run read them the same way): a unit is a
 * cell (target rate) or a model × game contrast of two framings in lockstep (target shift).
 */
import { cellStatus, type CellStatus, type StopRule } from './stop-rule.js';

/** A unit of the rule: its model, game and the framings it samples (one for a rate; base, alt for a shift). */
export interface StopUnit {
  readonly model: string;
  readonly game: string;
  readonly framings: readonly string[];
  /** Repeated play: the opponent of the unit's matches (its unit of sampling is the match). */
  readonly opponent?: string;
}

export interface UnitStatus extends CellStatus {
  readonly unit: StopUnit;
}

/** A stored trial as the rule reads it: its cell, rep, status and action (C, D or null). */
export interface StoredOutcome {
  readonly model: string; readonly game: string; readonly framing: string; readonly rep: number;
  readonly status: 'ok' | 'invalid' | 'error'; readonly action: string | null;
}

export const cellKey = (model: string, game: string, framing: string) => `${model}\u0000${game}\u0000${framing}`;

/** The units of a rule over a design's cells (model, game, framing), in their order; base and alt name a shift's framings. */
export function stopUnits(rule: StopRule & { base?: string; alt?: string }, cells: Iterable<{ model: string; game: string; framing: string }>): StopUnit[] {
  const seen = new Map<string, StopUnit>();
  for (const c of cells) {
    const framings = rule.target === 'shift' ? [rule.base!, rule.alt!] : [c.framing];
    const k = cellKey(c.model, c.game, framings.join('\u0000'));
    if (!seen.has(k)) seen.set(k, { model: c.model, game: c.game, framings });
  }
  return [...seen.values()];
}

/** Each cell's completed trials by rep: 1 (C), 0 (D) or NaN (invalid); an errored trial is not complete. */
export function outcomesByCell(rows: readonly StoredOutcome[]): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const r of rows) {
    if (r.status === 'error') continue;
    const k = cellKey(r.model, r.game, r.framing);
    if (!out.has(k)) out.set(k, new Map());
    out.get(k)!.set(r.rep, r.status === 'ok' ? (r.action === 'C' ? 1 : 0) : NaN);
  }
  return out;
}

/**
 * A unit's observations, rep 0 up to its first rep not complete in every framing: a rate's 0/1
 * decisions, or a shift's alt − base in {−1, 0, 1}; NaN where a framing's answer was invalid.
 */
export function unitObservations(unit: StopUnit, cells: Map<string, Map<number, number>>): number[] {
  const maps = unit.framings.map((f) => cells.get(cellKey(unit.model, unit.game, f)) ?? new Map<number, number>());
  const out: number[] = [];
  for (let rep = 0; maps.every((m) => m.has(rep)); rep++) {
    const v = maps.map((m) => m.get(rep)!);
    out.push(v.length === 1 ? v[0] : v[1] - v[0]);
  }
  return out;
}

/** Every unit's status from the stored outcomes of a run. */
export function unitStatuses(rule: StopRule, units: readonly StopUnit[], rows: readonly StoredOutcome[]): UnitStatus[] {
  const cells = outcomesByCell(rows);
  return units.map((unit) => ({ unit, ...cellStatus(rule, unitObservations(unit, cells)) }));
}
