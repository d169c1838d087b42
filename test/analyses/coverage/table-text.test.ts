import { describe, expect, it } from 'vitest';
import { coverageText, edgeBound } from '../../../src/analyses/coverage/table.js';
import { mcCoverage, type CoverageRow } from '../../../src/analyses/coverage/coverage.js';

const row = (statistic: string, coverage: number, sims: number): CoverageRow => ({
  statistic, method: 'percentile', nominal: 0.95, ...mcCoverage(coverage * sims, sims), mean_width: 0.02, truth: 0.5,
});

describe('the coverage table at coverage 0 or 1', () => {
  it('the exact bound: with no miss in n, coverage ≥ 0.05^(1/n) (1000: exp(ln 0.05 / 1000) = 0.997009)', () => {
    expect(edgeBound(1, 1000)).toBeCloseTo(0.997009, 6);
    expect(edgeBound(0, 1000)).toBeCloseTo(0.002991, 6);
    expect(edgeBound(0.95, 1000)).toBeUndefined();
  });

  it('prints "—" for the s.e. of a coverage of 1.000 and the bound below the table, never ± 0.000', () => {
    const text = coverageText([row('R[GPT-4]', 1, 1000), row('shift[GPT-4]', 0.95, 1000)], 'title', 1000);
    expect(text).not.toMatch(/ 0\.000 /);
    const lines = text.split('\n');
    expect(lines[2]).toMatch(/^R\[GPT-4\]\s+percentile\s+1\.000\s+—\s+0\.0200/);
    expect(lines[3]).toMatch(/^shift\[GPT-4\]\s+percentile\s+0\.950\s+0\.007\s/);
    expect(lines[4]).toBe('— R[GPT-4], percentile: every one of 1000 intervals held the truth; coverage ≥ 0.9970 (one-sided 95 %, Clopper–Pearson)');
  });
});
