/**
 * Decisions of repeated play read in memory, reduced to the per-match aggregates of core/aggregates.ts
 * as an engine's query reduces them (the reference the engine's SQL is tested against).
 */
import type { RepeatedDecision, RepeatedDecisions } from './decisions.js';
import { MatchAggregates, STATE_SLOTS } from './aggregates.js';

/** Decisions of repeated play with their per-match aggregates: the tables of `analyze` read the aggregates. */
export interface RepeatedAggregates extends RepeatedDecisions {
  /** Every table is computed from these; the decisions (often none) feed only the match browser. */
  readonly aggregates: MatchAggregates;
}

/** The state code of a move pair: 1 + CC, CD, DC, DD; 0 when either move is unknown. */
const stateOf = (d: RepeatedDecision): number =>
  (d.action === null || d.opponentAction === null ? 0 : 1 + (d.action === 'D' ? 2 : 0) + (d.opponentAction === 'D' ? 1 : 0));

/**
 * The aggregates of decisions read in memory, as an engine's query makes them: the reference the
 * engine's SQL is tested against, and the route of logs no query can read (a format the engine does not compile). A round that is
 * not a whole number from 1 is refused (RangeError): its counts would land in another round's or a state's place.
 */
export function aggregateDecisions(decisions: readonly RepeatedDecision[], factors: readonly string[]): MatchAggregates {
  const state = new Map<string, number>();
  for (const d of decisions) state.set(`${d.match}\u0000${d.seat}\u0000${d.round}`, stateOf(d));
  const matches = new Map<string, { key: string[]; match: string; counts: number[] }>();
  for (const d of decisions) {
    if (!(Number.isInteger(d.round) && d.round >= 1)) throw new RangeError(`match ${d.match}: round ${d.round} is not a round (a whole number from 1)`);
    const key = [d.model, d.game, d.framing, d.opponent, ...factors.map((f) => d.factors?.[f] ?? '')];
    const id = JSON.stringify([...key, d.match]);
    let m = matches.get(id);
    if (!m) { m = { key, match: d.match, counts: new Array<number>(STATE_SLOTS).fill(0) }; matches.set(id, m); }
    while (m.counts.length < STATE_SLOTS + 3 * d.round) m.counts.push(0);
    const valid = d.action === null ? 0 : 1, cooperation = d.action === 'C' ? 1 : 0;
    const previous = valid && d.round > 1 ? state.get(`${d.match}\u0000${d.seat}\u0000${d.round - 1}`) ?? 0 : 0;
    const at = STATE_SLOTS + 3 * (d.round - 1);
    m.counts[at]++; m.counts[at + 1] += valid; m.counts[at + 2] += cooperation;
    m.counts[2 * previous] += valid; m.counts[2 * previous + 1] += cooperation;
  }
  const agg = new MatchAggregates(factors);
  for (const m of matches.values()) agg.addMatch(m.key, m.match, m.counts);
  return agg;
}
