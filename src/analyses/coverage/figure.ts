import { coverageChart } from '../../render/charts/coverage.js';
import type { Figure } from '../../render/figure.js';
import type { CoverageResult } from './coverage.js';

/** The coverage figure of a study: one point per statistic and method, its bar the Monte Carlo interval (coverage_lo, coverage_hi). */
export function coverageFigure(r: CoverageResult): Figure {
  const s = r.settings;
  const statistics = [...new Set(r.rows.map((x) => x.statistic))];
  const points = r.rows.map((x) => ({
    statistic: x.statistic, method: x.method, coverage: x.coverage, mean_width: x.mean_width,
    lo: x.coverage_lo, hi: x.coverage_hi,
  }));
  const truth = s.truth === 'equal' ? ('framings made equal (R = 1, shift = ' +
    '0)') : s.truth === 'jeffreys' ? 'truth drawn around the observed rates (Jeffreys)' : 'observed rates as truth';
  return coverageChart(points, {
    statistics, methods: [...s.methods], nominal: s.level,
    subtitle: `${s.sims} simulations, ${truth}; B = ${s.reps} replicates each, seed ${s.seed}`,
  });
}
