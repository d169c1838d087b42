/**
 * --reading-error K beyond the table: a count cannot leave [0, n], so every K ≥ n is the same
 * analysis as K = n, and the work is bounded by the table (the pair enumeration lists feasible
 * tables only). K = 1,000,000 used to build a (2K+1)² list per pair: out of memory.
 */
import { describe, expect, it } from 'vitest';
import { ReplicateState } from '../../../src/analyses/audit/replicate-state.js';
import { readingErrorRanges } from '../../../src/analyses/audit/reading-error.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { robustness2 } from '../../../src/stats/jsd.js';
import { pairsTable, settings } from './helpers.js';

describe('reading error bounded by the table', () => {
  const n = 6;
  const table = pairsTable([['M', 'G1', 1, 4, n], ['M', 'G2', 0, 6, n]]);
  const s = settings(200, 1);
  const a = analyzeTwoFraming(table, s);
  const state = () => new ReplicateState(table, a.layout, { seed: s.seed, reps: s.reps, attenuation: 1 });

  it('K = 1,000,000 gives the ranges of K = n, and the R point range is the brute-force extreme over every table', () => {
    const big = readingErrorRanges(state(), 1_000_000);
    const atN = readingErrorRanges(state(), n);
    expect(big.ranges).toEqual(atN.ranges);
    // Independent: mean over the two pairs of R2 at every count in [0, n] for each cell.
    const ext = (dir: 1 | -1) => {
      let sum = 0;
      for (let pair = 0; pair < 2; pair++) {
        let best = -Infinity;
        for (let xb = 0; xb <= n; xb++) for (let xs = 0; xs <= n; xs++) best = Math.max(best, dir * robustness2(xb / n, xs / n));
        sum += dir * best;
      }
      return sum / 2;
    };
    const r = big.ranges.find((x) => x.group === 'M' && x.kind === 'R' && x.which === 'point')!;
    expect(r.max).toBeCloseTo(ext(1), 12);
    expect(r.min).toBeCloseTo(ext(-1), 12);
  }, 20_000);
});
