import { describe, expect, it } from 'vitest';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import { analyzeRepeatedPlay } from '../../../src/analyses/repeated/analysis.js';
import { cellRows, endGameRows, roundRows } from '../../../src/analyses/repeated/tables.js';
import { repeatedTables } from '../../../src/commands/pipeline/repeated.js';

/**
 * Planted dependence: 20 matches against always-defect whose every round copies the first move —
 * 10 matches all C, 10 all D. Hand derivation (as in test/stats/cluster-bootstrap.test.ts): a
 * replicate draws 20 matches with replacement, K of them all-C with K ~ Binomial(20, 1/2), and every
 * rate of the cell (all rounds, any one round) is K/20 whatever the number of rounds; P(K ≤ 5) =
 * 0.0207 and P(K ≤ 6) = 0.0577, so the 95 % percentile interval is [6/20, 14/20] = [0.30, 0.70]
 * (up to one lattice step 1/20 where the empirical 2.5 % falls between K = 5 and 6). Treating the
 * 20 · R decisions as independent would give 0.5 ± 1.96 · √(0.25 / (20 R)): ±0.069 for R = 10,
 * ±0.035 for R = 40.
 */
function copied(rounds: number, framing = 'business', cooperators = 10): RepeatedDecision[] {
  const out: RepeatedDecision[] = [];
  for (let j = 0; j < 20; j++) {
    for (let round = 1; round <= rounds; round++) {
      out.push({ model: 'm', game: 'pd', framing, opponent: 'always-defect', match: `${framing}${j}`, round, seat: 1, action: j < cooperators ? 'C' : 'D', opponentAction: 'D' });
    }
  }
  return out;
}

describe('planted dependence: rounds that copy their match\'s first move', () => {
  const ten = analyzeRepeatedPlay(copied(10), { seed: 5, reps: 4000, interval: 'cluster-bootstrap' });
  const forty = analyzeRepeatedPlay(copied(40), { seed: 5, reps: 4000, interval: 'cluster-bootstrap' });

  it('the default (cluster-robust) interval is the t interval on the 20 match means, whatever the rounds', () => {
    // match means: ten 1s and ten 0s; mean 0.5, s² = 20 · 0.25 / 19, se = √(s²/20); t(19, 0.975) = 2.093024054408263 (scipy)
    const half = 2.093024054408263 * Math.sqrt((20 * 0.25) / 19 / 20);
    for (const rounds of [10, 40]) {
      const [c] = cellRows(analyzeRepeatedPlay(copied(rounds), { seed: 5, reps: 1 }));
      expect(c.lo).toBeCloseTo(0.5 - half, 10);
      expect(c.hi).toBeCloseTo(0.5 + half, 10);
      expect(c.df).toBeCloseTo(19, 10);
    }
  });

  it('the cell interval is the binomial-over-20-matches interval [0.30, 0.70], not the ±0.069 of 200 independent decisions', () => {
    const [c] = cellRows(ten);
    expect(c.decisions).toBe(200);
    expect(c.cooperation).toBe(0.5);
    expect(Math.abs(c.lo - 0.3)).toBeLessThanOrEqual(0.05 + 1e-12);
    expect(Math.abs(c.hi - 0.7)).toBeLessThanOrEqual(0.05 + 1e-12);
    expect(c.hi - c.lo).toBeGreaterThan(2.5 * (2 * 1.96 * Math.sqrt(0.25 / 200)));
  });

  it('four times the rounds, the same intervals: the width is set by the matches, not the decisions', () => {
    const [a] = cellRows(ten), [b] = cellRows(forty);
    expect(b.decisions).toBe(800);
    expect([b.lo, b.hi]).toEqual([a.lo, a.hi]);
    // every round's rate is the same K/20: round 1 and the last round have the cell's interval
    for (const r of [roundRows(forty)[0], roundRows(forty)[39]]) expect([r.lo, r.hi]).toEqual([a.lo, a.hi]);
  });

  it('the end-game drop is 0 in every replicate (each match equal in its last and earlier rounds)', () => {
    const [e] = endGameRows(forty);
    expect([e.drop, e.lo, e.hi]).toEqual([0, 0, 0]);
  });

  it('the default drop interval holds 0 (every match equal in its last and earlier rounds)', () => {
    const [e] = endGameRows(analyzeRepeatedPlay(copied(40), { seed: 5, reps: 1 }));
    expect(e.drop).toBe(0);
    expect(e.lo).toBeLessThanOrEqual(0);
    expect(e.hi).toBeGreaterThanOrEqual(0);
  });

  it('Table 3 of two framings is clustered by match too: 10 or 40 copied rounds, the same shift interval', () => {
    const table3 = (rounds: number) => repeatedTables({ path: 'planted.sqlite', sha256: '', kind: 'planted', synthetic: false,
      decisions: [...copied(rounds, 'business', 6), ...copied(rounds, 'friend-sharing', 14)] }, { reps: 2000 }).twoFraming!.table3[0];
    const a = table3(10), b = table3(40);
    expect(a.shift).toBeCloseTo(0.4, 12);
    expect([b.shift_lo, b.shift_hi]).toEqual([a.shift_lo, a.shift_hi]);
    // 20 matches per framing: the shift interval is about ±0.28 (two binomials over 20 matches: √(2 · 0.3 · 0.7 / 20) = 0.145), not the ±0.09 of 200 independent decisions per framing
    expect(a.shift_hi - a.shift_lo).toBeGreaterThan(0.4);
  });
});
