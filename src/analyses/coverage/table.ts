import { toCsv } from '../../render/csv.js';
import { textTable } from '../two-framing/index.js';
import type { CoverageRow } from './coverage.js';

export const COVERAGE_COLUMNS = ['statistic', 'method', 'nominal', 'coverage', 'mc_se', 'mean_width', 'truth'] as const;

/** reports/coverage.csv: one row per statistic and method, columns exactly COVERAGE_COLUMNS. */
export function coverageCsv(rows: readonly CoverageRow[]): string {
  return toCsv(COVERAGE_COLUMNS, rows.map((r) => COVERAGE_COLUMNS.map((c) => r[c])));
}

/** The terminal table: coverage with its Monte Carlo error, mean width and truth. */
export function coverageText(rows: readonly CoverageRow[], title: string): string {
  return `${title}\n${textTable(['Statistic', 'Interval', 'Coverage', '± MC s.e.', 'Mean width', 'Truth'],
    rows.map((r) => [r.statistic, r.method, r.coverage.toFixed(3), r.mc_se.toFixed(3), r.mean_width.toFixed(4), Number.isFinite(r.truth) ? r.truth.toFixed(4) : '—']))}`;
}
