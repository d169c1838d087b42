/**
 * A statistic whose decisions come from fewer than 3 matches has no interval: from one match the
 * cluster bootstrap would redraw that match every time and print a point as a 95 % interval, and
 * two leave G − 1 = 1 degree of freedom. Hand-built cells: P, one 2-round match against
 * always-defect (C then D); Q, three 2-round matches against always-cooperate (CC, DC, CD by
 * round). By hand (docs/methods.md §21): P's all-rounds, round 1, round 2, after-CD, before-last
 * rates and its drop lose their intervals (6; its CC, DC, DD have no decision at all); Q's after-DC
 * rate comes from match q2 alone and its after-CC from q1 and q3 (2); Q's all-rounds, rounds,
 * before-last and drop rest on its 3 matches and keep theirs, flagged as few. 8 statistics, 1 of 2
 * cells with fewer than 3 matches, 1 with few (3 … 9).
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/games.js';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import { analyzeRepeatedPlay, fewNote, thinNote } from '../../../src/analyses/repeated/analysis.js';
import { cellRows, cellsCsv, reactionRows } from '../../../src/analyses/repeated/tables.js';
import { repeated } from '../../../src/analyses/repeated/index.js';

const match = (id: string, opponent: string, moves: Action[], other: Action): RepeatedDecision[] =>
  moves.map((action, i) => ({ model: 'A', game: 'pd', framing: 'f', opponent, match: id, round: i + 1, seat: 1, action, opponentAction: other }));
const decisions = [
  ...match('p1', 'always-defect', ['C', 'D'], 'D'),
  ...match('q1', 'always-cooperate', ['C', 'C'], 'C'), ...match('q2', 'always-cooperate', ['D', 'C'], 'C'), ...match('q3', 'always-cooperate', ['C', 'D'], 'C'),
];

describe('intervals from fewer than three matches', () => {
  for (const interval of ['cluster-robust', 'cluster-bootstrap'] as const) {
    it(`${interval}: the same statistics without an interval`, () => {
      const b = analyzeRepeatedPlay(decisions, { seed: 3, reps: 200, interval });
      expect(b.thin).toEqual({ statistics: 8, cells: 1, few: 1 });
      expect(cellRows(b)[1].note).toBe('few matches: interval from G − 1 = 2 degrees of freedom');
    });
  }
  const a = analyzeRepeatedPlay(decisions, { seed: 3, reps: 200 });
  it('are left empty, counted and named', () => {
    expect(a.thin).toEqual({ statistics: 8, cells: 1, few: 1 });
    expect(thinNote(a)).toMatch(/^8 statistics without an interval .* fewer than 3 matches.*1 of 2 cells/);
    expect(fewNote(a)).toMatch(/^few matches: 1 of 2 cells/);
    const [p, q] = cellRows(a);
    expect([p.opponent, p.matches, p.cooperation]).toEqual(['always-defect', 1, 0.5]);
    expect([p.lo, p.hi]).toEqual([NaN, NaN]);
    expect(q.matches).toBe(3);
    expect(q.lo).toBeLessThan(q.hi); // 4/6 over three matches of different rates: a real spread
    expect(cellsCsv(a).split('\n')[1]).toBe('A,pd,f,always-defect,1,2,0.5,,,,1 match: no interval (fewer than 3); match values 0.500');
    const reaction = (opponent: string, previous: string) => reactionRows(a).find((r) => r.opponent === opponent && r.previous === previous)!;
    expect(Number.isNaN(reaction('always-cooperate', 'DC').lo)).toBe(true);
    expect(reaction('always-cooperate', 'DC').p_cooperate).toBe(1);
    expect(Number.isNaN(reaction('always-cooperate', 'CC').lo)).toBe(true); // q1 (C after CC) and q3 (D after CC): two matches
  });
  it('every interval kept when each statistic rests on three matches or more', () => {
    const three = [...match('r1', 'always-cooperate', ['C', 'C'], 'C'), ...match('r2', 'always-cooperate', ['C', 'D'], 'C'), ...match('r3', 'always-cooperate', ['C', 'C'], 'C')];
    const b = analyzeRepeatedPlay(three, { seed: 3, reps: 200 });
    expect(b.thin).toEqual({ statistics: 0, cells: 0, few: 1 });
    expect(thinNote(b)).toBeUndefined();
  });
});

describe('the terminal table of cells', () => {
  it('marks a few-match interval * and shows the values of a cell without one, each with its footnote', () => {
    const text = repeated.terminal.cells(cellRows(analyzeRepeatedPlay(decisions, { seed: 3, reps: 200 })));
    expect(text).toMatch(/always-defect\s+1\s+0\.500\s+— \(1 match: 0\.500\)/);
    expect(text).toMatch(/always-cooperate\s+3\s+0\.667\s+\[\d\.\d{3}, \d\.\d{3}\] \*/);
    expect(text).toContain('* few matches: an interval from fewer than 9 degrees of freedom');
    expect(text).toContain('— no interval from fewer than 3 matches: each match\'s cooperation is shown instead');
  });
});
