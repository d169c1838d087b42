/**
 * A log that contradicts itself is refused, naming the line: a running total that is not the sum
 * of the payoffs, a match with more rounds than its max_rounds or other than it says it played, a
 * match of no rounds, a round missing inside a match. A match that says how many rounds it played
 * (`played_rounds`) and holds them is complete, however early its game stopped (FAIRGAME's stop
 * conditions); one that does not say, and is shorter than the longest match of its game in the
 * file, is a short match (cut off, or a stray row): a warning names it, and it is left out unless
 * the reader is told to keep it (`--short-matches keep`).
 */
import { UserError } from '../../core/errors.js';
import type { RepeatedDecision } from '../../core/decisions.js';
import { sourcesLogsMsg } from './messages.js';

type Decision = RepeatedDecision;

/** What a match's first row says of its length (shape match: its row), and where. */
export interface Declared { readonly line: number; readonly played?: number; readonly max?: number }

/** What a file's matches must agree with: the totals written per decision and the lengths declared. */
export interface MatchFacts {
  readonly totals: Map<Decision, { readonly field: string; readonly value: number }>;
  readonly declared: Map<string, Declared>;
  readonly playedField?: string;
  readonly maxField?: string;
}

export type ShortMatches = 'drop' | 'keep';

interface MatchInfo { readonly first: Decision; last: number; rounds: Set<number>; readonly seats: Map<number, Decision[]> }

function matchesOf(decisions: readonly Decision[]): Map<string, MatchInfo> {
  const out = new Map<string, MatchInfo>();
  for (const d of decisions) {
    let m = out.get(d.match);
    if (!m) { m = { first: d, last: 0, rounds: new Set(), seats: new Map() }; out.set(d.match, m); }
    if (d.round > m.last) m.last = d.round;
    m.rounds.add(d.round);
    const s = m.seats.get(d.seat);
    if (s) s.push(d); else m.seats.set(d.seat, [d]);
  }
  return out;
}

/** Each seat's running totals equal the sum of its payoffs through the round. */
function checkTotals(m: MatchInfo, facts: MatchFacts): void {
  if (facts.totals.size === 0) return;
  for (const list of m.seats.values()) {
    let sum = 0;
    for (const d of [...list].sort((a, b) => a.round - b.round)) {
      sum += d.payoff ?? 0;
      const t = facts.totals.get(d);
      if (t && Math.abs(t.value - sum) > 1e-9 * Math.max(1, Math.abs(sum))) {
        throw new UserError(sourcesLogsMsg.totalContradicts(d.provenance!.file, d.provenance!.line, t.field, t.value, sum, d.round));
      }
    }
  }
}

/** Rounds 1…last each present, and the length the match declares. */
function checkLength(id: string, m: MatchInfo, facts: MatchFacts): void {
  const where = m.first.provenance!;
  for (let r = 1; r <= m.last; r++) if (!m.rounds.has(r)) throw new UserError(sourcesLogsMsg.roundMissing(where.file, where.line, r, m.last));
  const dec = facts.declared.get(id);
  if (dec?.played !== undefined && dec.played !== m.last) throw new UserError(sourcesLogsMsg.playedContradicts(where.file, dec.line, facts.playedField!,
    dec.played, m.last));
  if (dec?.max !== undefined && m.last > dec.max) throw new UserError(sourcesLogsMsg.pastMaxRounds(where.file, dec.line, facts.maxField!, dec.max, m.last));
}

/**
 * Check a file's matches; the decisions to keep, and a note per short match (at most 5 named,
 * then a count).
 */
export function checkMatches<D extends Decision>(decisions: D[], facts: MatchFacts, short: ShortMatches): { decisions: D[]; notes: string[] } {
  const matches = matchesOf(decisions);
  const longest = new Map<string, number>();
  for (const [id, m] of matches) {
    checkTotals(m, facts);
    checkLength(id, m, facts);
    longest.set(m.first.game, Math.max(longest.get(m.first.game) ?? 0, m.last));
  }
  const shortOnes = new Set<string>();
  const notes: string[] = [];
  for (const [id, m] of matches) {
    const want = longest.get(m.first.game)!;
    if (facts.declared.get(id)?.played !== undefined || m.last >= want) continue;
    shortOnes.add(id);
    if (shortOnes.size <= 5) notes.push(sourcesLogsMsg.shortMatch(m.first.provenance!.file, m.first.provenance!.line, m.last, want, short === 'keep'));
  }
  if (shortOnes.size > 5) notes.push(sourcesLogsMsg.moreShortMatches(shortOnes.size - 5, short === 'keep'));
  if (shortOnes.size === 0 || short === 'keep') return { decisions, notes };
  return { decisions: decisions.filter((d) => !shortOnes.has(d.match)), notes };
}
