import { describe, expect, it } from 'vitest';
import { LAMBDA_CAP, lambdaHat, logitResponse, payoffGap, populationVariance } from '../../src/stats/qre.js';

// Same Game, Different Story Appendix A row payoffs (CC, CD, DC, DD), range-normalized by hand:
// PD 5,2,10,3 → ū(C) = 3.5, ū(D) = 6.5 → Δu = −3/8; Snowdrift 5,3,10,2 → −2/8;
// Stag Hunt 10,2,5,3 → 6 − 4 = 2/8; Harmony 10,3,5,2 → 6.5 − 3.5 = 3/8.
describe('payoffGap at q = 0.5', () => {
  it.each([
    [[5, 2, 10, 3], -0.375], [[5, 3, 10, 2], -0.25], [[10, 2, 5, 3], 0.25], [[10, 3, 5, 2], 0.375],
  ] as const)('%j → %d', (u, want) => expect(payoffGap(u)).toBeCloseTo(want, 15));
  it('is NaN when all payoffs are equal', () => expect(payoffGap([4, 4, 4, 4])).toBeNaN());
  it('follows the belief: q = 1 compares u(C,C) with u(D,C)', () => expect(payoffGap([10, 2, 5, 3], 1)).toBeCloseTo(5 / 8, 15));
});

describe('lambdaHat', () => {
  it('hand value: x = 26, T = 300, Δu = −0.375 → p̃ = 26.5/301, p̃ = 0.088040, logit = ln(0.096540) = −2.33781, λ̂ = 6.2342', () => {
    const p = 26.5 / 301;
    expect(lambdaHat(26, 300, -0.375)).toBeCloseTo(Math.log(p / (1 - p)) / -0.375, 12);
    expect(lambdaHat(26, 300, -0.375)).toBeCloseTo(6.2342, 3);
  });
  it('clamps at 0 (cooperating against the payoff gap) and at 20 (separation)', () => {
    expect(lambdaHat(296, 300, -0.375)).toBe(0);
    expect(lambdaHat(300, 300, 0.01)).toBe(LAMBDA_CAP);
  });
  it('is NaN for Δu = 0 (no payoff gap to respond to)', () => expect(lambdaHat(10, 20, 0)).toBeNaN());
  it('handles T = 0: p̃ = 1/2 → λ̂ = 0', () => expect(lambdaHat(0, 0, 0.3)).toBe(0));
});

describe('logitResponse and populationVariance', () => {
  it('logit response is 1/2 at λ = 0 and inverts λ̂ away from the bounds', () => {
    expect(logitResponse(0, 0.3)).toBe(0.5);
    const l = lambdaHat(200, 300, 0.25);
    expect(logitResponse(l, 0.25)).toBeCloseTo(200.5 / 301, 12);
  });
  it('population variance of two values is (a − b)²/4', () => {
    expect(populationVariance([2, 6])).toBe(4);
    expect(populationVariance([])).toBeNaN();
  });
});
