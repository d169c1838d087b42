import { toCsv } from '../../render/csv.js';
import { textTable } from '../two-framing/index.js';
import type { CoverageRow } from './coverage.js';
import { clopperPearson } from '../../stats/cluster-intervals.js';

/** A row of coverage.csv: a bootstrap method's, or an adaptive run's (adaptive.ts), whose methods are named in words. */
export type CoverageTableRow = Omit<CoverageRow, 'method'> & { readonly method: string };

/** The columns of coverage.csv; the Monte Carlo interval (coverage_lo, coverage_hi) after the older columns, so that they keep their places. */
export const COVERAGE_COLUMNS = ['statistic', 'method', 'nominal', 'coverage', 'mc_se', 'mean_width', 'truth', 'coverage_lo', 'coverage_hi'] as const;

/** reports/coverage.csv: one row per statistic and method, columns exactly COVERAGE_COLUMNS. */
export function coverageCsv(rows: readonly CoverageTableRow[]): string {
  return toCsv(COVERAGE_COLUMNS, rows.map((r) => COVERAGE_COLUMNS.map((c) => r[c])));
}

/**
 * The exact one-sided 95 % bound of a coverage observed at 0 or 1 in `sims` simulations (Clopper–
 * Pearson with no failures: the p with p^sims = 0.05), where the plug-in s.e. √(c(1 − c)/sims) is 0.
 */
export function edgeBound(coverage: number, sims: number): number | undefined {
  if (coverage !== 0 && coverage !== 1) return undefined;
  const [lo, hi] = clopperPearson(coverage, sims, 0.95, 1);
  return coverage === 1 ? lo : hi;
}

/**
 * The terminal table: coverage with its Monte Carlo error, mean width and truth. A coverage of
 * 0 or 1 has no s.e. ("—"); a line below gives its exact 95 % bound instead.
 */
export function coverageText(rows: readonly CoverageTableRow[], title: string, sims: number): string {
  const edges = rows.filter((r) => edgeBound(r.coverage, sims) !== undefined);
  const table = textTable(['Statistic', 'Interval', 'Coverage', '± MC s.e.', 'Mean width', 'Truth'],
    rows.map((r) => [r.statistic, r.method, r.coverage.toFixed(3), edgeBound(r.coverage, sims) === undefined ? r.mc_se.toFixed(3) : '—',
      r.mean_width.toFixed(4), Number.isFinite(r.truth) ? r.truth.toFixed(4) : '—']));
  const notes = edges.map((r) =>
    `— ${r.statistic}, ${r.method}: ${r.coverage === 1 ? `every one of ${sims} intervals held the truth; coverage ≥ ${edgeBound(1,
      sims)!.toFixed(4)}` : `no interval of ${sims} held the truth; coverage ≤ ${edgeBound(0, sims)!.toFixed(4)}`} (one-sided 95 %, Clopper–Pearson)`);
  return [title, table, ...notes].join('\n');
}
