/**
 * Coverage of the sequences over matches under optional stopping (docs/methods.md §24.2). Matches of a reactive agent
 * against tit-for-tat (round 1: C with probability 0.5; then C with probability a after the other's C, b after its D;
 * tit-for-tat repeats the agent's last move), 10 rounds, so the rounds of a match are strongly dependent; 4,000 such
 * matches are the population each simulated run draws its matches from (simulateMatchRule). 1,000 seeded runs per rule,
 * looks every 5 matches up to 100, level 0.95. The t interval over the matches (what a fixed-n analysis prints: the
 * cluster-robust interval of a cell of equal-length matches) is measured twice: read at the sequence's stop, and as the
 * stopping rule itself (an analyst peeking at it after every wave).
 */
import { describe, expect, it } from 'vitest';
import { simulateMatchRule } from '../../src/analyses/adaptive/matches.js';
import type { StopRule } from '../../src/stats/confseq/stop-rule.js';
import { streamFor } from '../../src/stats/rng.js';

/** Seat 1's cooperation rate over each of `n` matches of the reactive agent against tit-for-tat. */
function population(a: number, b: number, n: number, key: string): number[] {
  const g = streamFor(7, key);
  return Array.from({ length: n }, () => {
    let c = 0, mine = g.next() < 0.5;
    for (let r = 0; r < 10; r++) {
      if (r > 0) mine = g.next() < (mine ? a : b); // tit-for-tat played my last move
      if (mine) c++;
    }
    return c / 10;
  });
}

const RUNS = 1000;
const SE = Math.sqrt(0.95 * 0.05 / RUNS);
const rule = (o: Partial<StopRule>): StopRule => ({ target: 'rate', confidence: 0.95, wave: 5, maxTrials: 100, method: 'betting', ...o });

describe('sequences over matches under optional stopping', () => {
  const pop = population(0.85, 0.25, 4000, 'a');
  const other = population(0.6, 0.2, 4000, 'b');

  it('the match observations are dependent within a match: their variance is far above independent rounds\'', () => {
    const m = pop.reduce((a, b) => a + b, 0) / pop.length;
    const v = pop.reduce((a, b) => a + (b - m) ** 2, 0) / (pop.length - 1);
    expect(v).toBeGreaterThan(3 * (m * (1 - m)) / 10);
  });

  it('shift 0 (both framings drawn from one population), stopped when the interval excludes 0: sequences hold, the t interval does not', () => {
    const out: string[] = [];
    for (const method of ['betting', 'normal-mixture'] as const) {
      const s = simulateMatchRule(rule({ target: 'shift', decide: 'sign', method }), [pop, pop], RUNS, 1, `shift0-${method}`);
      expect(s.truth).toBe(0);
      out.push(`${method} ${s.coverage.toFixed(3)} (t at its stop ${s.fixedN.coverage.toFixed(3)}; t peeked at ${s.peeking.coverage.toFixed(3)})`);
      expect(s.coverage, method).toBeGreaterThanOrEqual(0.95);
      expect(s.peeking.coverage, method).toBeLessThan(0.95 - 3 * SE);
    }
    console.log(`shift 0, stop at sign: ${out.join('; ')}`);
  });

  it('a rate stopped at half-width 0.1, and a shift between two agents stopped for its sign: the sequences hold at their stop', () => {
    const out: string[] = [];
    for (const method of ['betting', 'normal-mixture'] as const) {
      const r = simulateMatchRule(rule({ halfWidth: 0.1, method }), [pop], RUNS, 2, `rate-${method}`);
      const d = simulateMatchRule(rule({ target: 'shift', decide: 'sign', method }), [other, pop], RUNS, 3, `shift-${method}`);
      expect(d.truth).toBeGreaterThan(0.1);
      for (const s of [r, d]) expect(s.coverage, method).toBeGreaterThanOrEqual(0.95 - 3 * SE);
      out.push(`${method}: rate ${r.coverage.toFixed(3)} (t ${r.fixedN.coverage.toFixed(3)}, mean stop ${r.meanMatches.toFixed(1)}), `
        + `shift ${d.truth.toFixed(3)}: ${d.coverage.toFixed(3)} (t ${d.fixedN.coverage.toFixed(3)}, mean stop ${d.meanMatches.toFixed(1)}); `
        + `t peeked at: rate ${r.peeking.coverage.toFixed(3)} (mean stop ${r.peeking.meanMatches.toFixed(1)}), shift ${d.peeking.coverage.toFixed(3)}`);
    }
    console.log(out.join('\n'));
  });
});
