import { describe, expect, it } from 'vitest';
import { CANONICAL_GAMES, canonicalGame, payoffProblems, rowPayoffs, samePayoffs } from '../../src/core/games.js';

// Same Game, Different Story, Appendix A, Table 4, copied by hand: [row][col] = (row player, column player).
const TABLE_4 = {
  'prisoners-dilemma': { CC: [5, 5], CD: [2, 10], DC: [10, 2], DD: [3, 3] },
  snowdrift: { CC: [5, 5], CD: [3, 10], DC: [10, 3], DD: [2, 2] },
  'stag-hunt': { CC: [10, 10], CD: [2, 5], DC: [5, 2], DD: [3, 3] },
  harmony: { CC: [10, 10], CD: [3, 5], DC: [5, 3], DD: [2, 2] },
} as const;

describe('canonical games (Same Game, Different Story Table 4)', () => {
  it('has exactly the four games, in the paper order', () => {
    expect(CANONICAL_GAMES.map((g) => g.id)).toEqual(['prisoners-dilemma', 'snowdrift', 'stag-hunt', 'harmony']);
  });
  it.each(Object.entries(TABLE_4))('%s has the payoffs of Table 4', (id, t) => {
    const g = canonicalGame(id)!;
    expect(g.payoffs.C.C).toEqual(t.CC);
    expect(g.payoffs.C.D).toEqual(t.CD);
    expect(g.payoffs.D.C).toEqual(t.DC);
    expect(g.payoffs.D.D).toEqual(t.DD);
    expect(payoffProblems(g.payoffs)).toEqual([]);
  });
  it('rowPayoffs lists CC, CD, DC, DD for the row player', () => {
    expect(rowPayoffs(canonicalGame('stag-hunt')!)).toEqual([10, 2, 5, 3]);
  });
  it('unknown id gives undefined', () => expect(canonicalGame('chicken')).toBeUndefined());
});

describe('custom payoff validation', () => {
  const ok = { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } } as const;
  it('accepts a usable asymmetric matrix with decimals and negatives', () => {
    expect(payoffProblems({ C: { C: [3, 1], D: [-1.5, 5] }, D: { C: [5, 0], D: [1, 2] } })).toEqual([]);
  });
  it('names a non-finite entry by its path', () => {
    const bad = { ...ok, D: { C: [5, Number.NaN], D: [1, 1] } } as never;
    expect(payoffProblems(bad)).toEqual([['D.C[1]', 'expected a finite number']]);
  });
  it('names a missing pair', () => {
    const bad = { C: { C: [3, 3] }, D: ok.D } as never;
    expect(payoffProblems(bad)).toEqual([['C.D', 'expected a pair [row player, column player]']]);
  });
  it("rejects a row player with no payoff differences (λ normalization needs a range)", () => {
    const flat = { C: { C: [2, 1], D: [2, 9] }, D: { C: [2, 4], D: [2, 0] } } as const;
    expect(payoffProblems(flat)).toHaveLength(1);
    expect(payoffProblems(flat)[0][0]).toBe('');
  });
  it('samePayoffs compares all eight numbers', () => {
    expect(samePayoffs(ok, { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } })).toBe(true);
    expect(samePayoffs(ok, { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 2] } })).toBe(false);
  });
});
