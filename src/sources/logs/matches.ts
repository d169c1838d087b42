/**
 * Match delimiting: each row a match; consecutive rows of one pair whose round counts up from 1;
 * or a value (a column, a template) naming the match. A match value that comes back with another
 * configuration (FAIRGAME's `game_id`) is refused, not merged, and each (match, round, seat) is
 * given once.
 */
import { UserError } from '../../core/errors.js';
import type { LogRow, RowValue } from './values.js';
import { sourcesLogsMsg } from './messages.js';

/** What a match is of: its game, framing, pair and row factors (constant within a match). */
export interface MatchIdentity {
  readonly game: string;
  readonly framing: string;
  readonly model: string;
  readonly opponent: string;
  readonly factors: ReadonlyArray<readonly [string, string]>;
}

const describe = (m: MatchIdentity) =>
  `${m.model} against ${m.opponent}, ${m.game}, ${m.framing}${m.factors.map(([k, v]) => `, ${k}=${v}`).join('')}`;

export class MatchTracker {
  private run: { sig: string; last: number; id: string; line: number; what: string } | undefined;
  private readonly seen = new Map<string, { sig: string; line: number; what: string }>();
  private readonly given = new Map<string, number>();

  constructor(private readonly file: string, private readonly mode: 'row' | 'consecutive' | RowValue, private readonly roundField = 'round') {}

  /** The match of a row's round (consecutive: the round must continue the run of its pair, or be 1). */
  matchOf(row: LogRow, round: number, who: MatchIdentity): string {
    if (this.mode === 'row') return `${this.file}:${row.line}`;
    if (this.mode === 'consecutive') return this.consecutive(row, round, who);
    const value = this.mode(row);
    const id = `${this.file}#${value}`;
    const sig = JSON.stringify([who.game, who.framing, [who.model, who.opponent].sort(), who.factors]);
    const first = this.seen.get(id);
    if (!first) this.seen.set(id, { sig, line: row.line, what: describe(who) });
    else if (first.sig !== sig) throw new UserError(sourcesLogsMsg.matchRepeats(row.file, row.line, value, first.line, first.what, describe(who)));
    return id;
  }

  private consecutive(row: LogRow, round: number, who: MatchIdentity): string {
    const sig = JSON.stringify([who.game, who.framing, who.model, who.opponent, who.factors]);
    const r = this.run;
    if (round === 1) {
      this.run = { sig, last: 1, id: `${this.file}:${row.line}`, line: row.line, what: describe(who) };
      return this.run.id;
    }
    if (r && r.sig === sig && round === r.last + 1) {
      r.last = round;
      return r.id;
    }
    const expected = r ? `round 1, or round ${r.last + 1} of ${r.what} begun on line ${r.line}` : 'round 1';
    throw new UserError(sourcesLogsMsg.roundBreaks(row.file, row.line, this.roundField, round, expected));
  }

  /** Each (match, round, seat) once (only a match value can repeat one). */
  checkOnce(row: LogRow, match: string, round: number, seat: number): void {
    if (typeof this.mode !== 'function') return;
    const k = `${match}\u0000${round}\u0000${seat}`;
    const first = this.given.get(k);
    if (first !== undefined) throw new UserError(sourcesLogsMsg.duplicateDecision(row.file, row.line, match.slice(this.file.length + 1), round, seat, first));
    this.given.set(k, row.line);
  }
}
