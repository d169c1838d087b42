/**
 * A statistic whose decisions come from one match has no interval: the cluster bootstrap would
 * redraw that one match every time and print a point as a 95 % interval. Hand-built cells:
 * P, one 2-round match against always-defect (C then D); Q, three 2-round matches against
 * always-cooperate (CC, DC, CD by round). By hand (docs/methods.md §21): P's all-rounds, round 1,
 * round 2, after-CD, before-last rates and its drop lose their intervals (6; its CC, DC, DD have no
 * decision at all); Q's after-DC rate comes from match q2 alone (1); Q's after-CC from q1 and q3
 * keeps its interval. 7 statistics, 1 of 2 cells with fewer than 2 matches.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/games.js';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import { analyzeRepeatedPlay, thinNote } from '../../../src/analyses/repeated/analysis.js';
import { cellRows, cellsCsv, reactionRows } from '../../../src/analyses/repeated/tables.js';

const match = (id: string, opponent: string, moves: Action[], other: Action): RepeatedDecision[] =>
  moves.map((action, i) => ({ model: 'A', game: 'pd', framing: 'f', opponent, match: id, round: i + 1, seat: 1, action, opponentAction: other }));
const decisions = [
  ...match('p1', 'always-defect', ['C', 'D'], 'D'),
  ...match('q1', 'always-cooperate', ['C', 'C'], 'C'), ...match('q2', 'always-cooperate', ['D', 'C'], 'C'), ...match('q3', 'always-cooperate', ['C', 'D'], 'C'),
];

describe('intervals from fewer than two matches', () => {
  const a = analyzeRepeatedPlay(decisions, { seed: 3, reps: 200 });
  it('are left empty, counted and named', () => {
    expect(a.thin).toEqual({ statistics: 7, cells: 1 });
    expect(thinNote(a)).toMatch(/^7 statistics without an interval .* fewer than 2 matches.*1 of 2 cells/);
    const [p, q] = cellRows(a);
    expect([p.opponent, p.matches, p.cooperation]).toEqual(['always-defect', 1, 0.5]);
    expect([p.lo, p.hi]).toEqual([NaN, NaN]);
    expect(q.matches).toBe(3);
    expect(q.lo).toBeLessThan(q.hi); // 4/6 over three matches of different rates: a real spread
    expect(cellsCsv(a).split('\n')[1]).toBe('A,pd,f,always-defect,1,2,0.5,,');
    const reaction = (opponent: string, previous: string) => reactionRows(a).find((r) => r.opponent === opponent && r.previous === previous)!;
    expect(Number.isNaN(reaction('always-cooperate', 'DC').lo)).toBe(true);
    expect(reaction('always-cooperate', 'DC').p_cooperate).toBe(1);
    expect(Number.isFinite(reaction('always-cooperate', 'CC').lo)).toBe(true); // q1 (C after CC) and q3 (D after CC)
  });
  it('every interval kept when each cell has two matches or more', () => {
    const b = analyzeRepeatedPlay(decisions.filter((d) => d.match !== 'p1' && d.match !== 'q2'), { seed: 3, reps: 200 });
    expect(b.thin).toEqual({ statistics: 0, cells: 0 });
    expect(thinNote(b)).toBeUndefined();
  });
});
