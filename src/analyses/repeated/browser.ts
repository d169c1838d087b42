/**
 * The match browser's data (src/render/match-browser.ts): per cell, each match round by round with
 * both seats' moves — a seat's own decision where the source has it (its prompt and answer with it),
 * else the move the other seat's decision records for it (a fixed strategy's move).
 */
import { shown, type DisplayNames } from '../../core/display-names.js';
import type { RepeatedDecision } from '../../core/decisions.js';
import type { BrowserCell, BrowserMatch, BrowserMove, MatchBrowserBlock } from '../../render/match-browser.js';
import type { RepeatedCell } from './layout.js';
import { panelOf, panelParts } from './figures.js';

/** Matches listed per cell; the others are counted in the page. */
export const BROWSER_MATCHES_PER_CELL = 200;

const moveText = (a: string | null | undefined) => a ?? '—';

function seatMove(seat: RepeatedDecision | undefined, other: RepeatedDecision | undefined, player: string, names?: DisplayNames): BrowserMove {
  if (seat) {
    return { player: shown(names, seat.model), action: moveText(seat.action), ...(seat.prompt === undefined ? {} : { prompt: seat.prompt }),
      ...(seat.answer === undefined ? {} : { answer: seat.answer }),
      ...(seat.provenance === undefined ? {} : { source: `${seat.provenance.file}:${seat.provenance.line}, written ${seat.provenance.label}` }) };
  }
  return { player: shown(names, player), action: moveText(other?.opponentAction) };
}

function matchOf(id: string, decisions: readonly RepeatedDecision[], cell: RepeatedCell, names?: DisplayNames): BrowserMatch {
  const byRound = new Map<number, RepeatedDecision[]>();
  for (const d of decisions) {
    const list = byRound.get(d.round);
    if (list) list.push(d); else byRound.set(d.round, [d]);
  }
  const rounds = [...byRound.keys()].sort((x, y) => x - y).map((round): [number, BrowserMove, BrowserMove] => {
    const ds = byRound.get(round)!;
    const s1 = ds.find((d) => d.seat === 1), s2 = ds.find((d) => d.seat === 2);
    // the player of a seat without decisions: the cell's opponent when the cell's model holds the other seat
    const absent = (present: RepeatedDecision | undefined) => (present && present.model === cell.key.model ? cell.key.opponent : cell.key.model);
    return [round, seatMove(s1, s2, absent(s2), names), seatMove(s2, s1, absent(s1), names)];
  });
  return { id, rounds };
}

/**
 * The browser block of a set of decisions: every cell, its first BROWSER_MATCHES_PER_CELL matches
 * (in the cell's order), each with every decision of that match in the source (both seats, whatever
 * cell the other seat's decisions belong to).
 */
export function matchBrowser(decisions: readonly RepeatedDecision[], cells: readonly RepeatedCell[], id = 'match-browser',
  names?: DisplayNames): MatchBrowserBlock {
  const byMatch = new Map<string, RepeatedDecision[]>();
  for (const d of decisions) {
    const list = byMatch.get(d.match);
    if (list) list.push(d); else byMatch.set(d.match, [d]);
  }
  const parts = panelParts(cells);
  const out: BrowserCell[] = cells.map((c) => ({
    label: `${panelOf(c.key, c.factors, names, parts)} — against ${c.key.opponent === c.key.model ? 'itself' : shown(names, c.key.opponent)}`,
    matches: c.matches.slice(0, BROWSER_MATCHES_PER_CELL).map((m) => matchOf(m, byMatch.get(m) ?? [], c, names)),
    omitted: Math.max(0, c.matches.length - BROWSER_MATCHES_PER_CELL),
  }));
  return { kind: 'match-browser', id, cells: out };
}
