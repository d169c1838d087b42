import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { coverageCsv, coverageFigure, coverageStudy, mcCoverage } from '../../../src/analyses/coverage/index.js';
import { cell } from '../../helpers/cells.js';
import { ROOT } from '../../helpers/cli.js';

/**
 * A coverage of 0 or 1 has a plug-in s.e. of 0, which would claim no Monte Carlo error; the
 * Clopper–Pearson interval (coverage_lo, coverage_hi) says how far it may be. Expected values:
 * scipy (test/reference/clopper_pearson.py → clopper_pearson.json).
 */
const REF = JSON.parse(readFileSync(join(ROOT, 'test', 'reference', 'clopper_pearson.json'), 'utf8')) as
  { level: number; rows: { covered: number; sims: number; lo: number; hi: number }[] };

describe('the Monte Carlo interval of a coverage', () => {
  it('is the 95 % Clopper–Pearson interval scipy computes', () => {
    expect(REF.level).toBe(0.95);
    for (const r of REF.rows) {
      const m = mcCoverage(r.covered, r.sims);
      expect(m.coverage_lo, `${r.covered}/${r.sims} lo`).toBeCloseTo(r.lo, 12);
      expect(m.coverage_hi, `${r.covered}/${r.sims} hi`).toBeCloseTo(r.hi, 12);
    }
  });

  it('at a coverage of 0 or 1, mc_se is Wilson\'s (not 0) and the interval is not empty', () => {
    // c̃ = (200 + z²/2)/(200 + z²) = 0.990577…, √(c̃(1 − c̃)/(200 + z²)) = 0.0067668…, z = 1.959963984540054 (by hand, checked with python3).
    expect(mcCoverage(200, 200)).toMatchObject({ coverage: 1, coverage_hi: 1 });
    expect(mcCoverage(200, 200).mc_se).toBeCloseTo(0.006766822243875459, 12);
    expect(mcCoverage(0, 200).mc_se).toBeCloseTo(0.006766822243875459, 12);
    expect(mcCoverage(199, 200).mc_se).toBeCloseTo(Math.sqrt(0.995 * 0.005 / 200), 15); // inside (0, 1): the plug-in s.e.
    expect(mcCoverage(200, 200).coverage_lo).toBeCloseTo(0.9817246596448638, 12);
    expect(mcCoverage(0, 200)).toMatchObject({ coverage: 0, coverage_lo: 0 });
    expect(mcCoverage(0, 200).coverage_hi).toBeCloseTo(0.01827534035513624, 12);
  });
});

// One model, two games at equal framings: the percentile interval of R (truth 1) never reaches
// its truth (test/analyses/coverage/coverage.test.ts), so R's coverage is 0 of the simulations.
const table: CellTable = {
  factors: ['model', 'game', 'framing'],
  cells: [cell('M', 'G1', 'b', 90, 300), cell('M', 'G1', 's', 135, 300), cell('M', 'G2', 'b', 180, 300), cell('M', 'G2', 's', 186, 300)],
};

describe('coverage.csv and the coverage figure', () => {
  const study = coverageStudy(table, { seed: 11, reps: 199, attenuation: 1, base: 'b', alt: 's', methods: ['percentile'], level: 0.95, sims: 40, truth: 'equal' });
  const R = study.rows.find((r) => r.statistic === 'R[M]')!;

  it('coverage.csv adds coverage_lo and coverage_hi after its older columns; a coverage of 0 has an upper end above 0', () => {
    const lines = coverageCsv(study.rows).trim().split('\n');
    expect(lines[0]).toBe('statistic,method,nominal,coverage,mc_se,mean_width,truth,coverage_lo,coverage_hi');
    expect(R).toMatchObject({ coverage: 0, coverage_lo: 0 });
    expect(R.mc_se).toBeCloseTo(0.030911495251695096, 12); // Wilson's at 0 of 40: c̃ = (z²/2)/(40 + z²), by hand with python3
    // scipy: beta.ppf(0.975, 1, 40) = 1 − 0.025^(1/40) = 0.08807...
    expect(R.coverage_hi).toBeCloseTo(1 - 0.025 ** (1 / 40), 12);
    expect(lines.find((l) => l.startsWith('R[M],'))!.split(',').slice(-2).map(Number)).toEqual([0, Number(R.coverage_hi.toPrecision(12))]);
  });

  it('the figure\'s error bars are the Monte Carlo interval, not ±2 s.e. (which is 0 wide at a coverage of 0)', () => {
    const f = coverageFigure(study);
    const points = (f.spec as unknown as { layer: { data?: { values: { statistic: string; lo: number; hi: number }[] } }[] }).layer[1].data!.values;
    const p = points.find((x) => x.statistic === 'R[M]')!;
    expect([p.lo, p.hi]).toEqual([R.coverage_lo, R.coverage_hi]);
    expect(p.hi).toBeGreaterThan(0.05);
    expect(f.caption).toContain('95 % Monte Carlo interval (Clopper–Pearson');
  });
});
