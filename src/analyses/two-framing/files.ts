import { basename, join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { TwoFramingAnalysis } from './analysis.js';
import type { DisplayNames } from '../../core/display-names.js';
import type { VerificationReport } from '../../core/checks.js';
import { familyCsv, table2Csv, table3Csv } from './tables.js';
import { metricsJson, type InputProvenance } from './metrics.js';
import { verificationJson, verificationMarkdown } from '../../render/verification.js';
import { toolInfo } from '../../core/paths.js';
import { framingTestFile, hasFramingTests } from './framing-tests.js';
import { twoFramingLatexFiles } from './latex.js';

/**
 * The table files of a two-framing analysis, the same for reconstructed data (`reproduce`) and
 * direct runs (`analyze`): table2, table3, family robustness (more than two framings), metrics.
 * `extra` adds fields to metrics.json (e.g. a direct run's invalid counts). With display names the
 * CSVs add `<column>_name` columns and metrics.json a `names` map, as the repeated-play files do;
 * without them the files are as before.
 */
export function twoFramingTableFiles(reportsDir: string, a: TwoFramingAnalysis, provenance: InputProvenance,
  extra: Record<string, unknown> = {}, names?: DisplayNames): OutputFile[] {
  const named = names && Object.keys(names).length ? { names: { ...names } } : {};
  return [
    { path: join(reportsDir, 'table2.csv'), content: table2Csv(a, names) },
    { path: join(reportsDir, 'table3.csv'), content: table3Csv(a, names) },
    ...(a.family ? [{ path: join(reportsDir, 'family-robustness.csv'), content: familyCsv(a, names) }] : []),
    ...(hasFramingTests(a) ? [framingTestFile(reportsDir, a)] : []),
    { path: join(reportsDir, 'metrics.json'), content: metricsJson(a, provenance, toolInfo(), { ...extra, ...named }) },
    ...twoFramingLatexFiles(reportsDir, a),
  ];
}

/** reports/verification.md and .json. */
export function verificationFiles(reportsDir: string, verification: VerificationReport): OutputFile[] {
  return [
    { path: join(reportsDir, 'verification.md'), content: verificationMarkdown(verification) },
    { path: join(reportsDir, 'verification.json'), content: verificationJson(verification) },
  ];
}

/** Basenames of the CSV tables among files, for the Appendix C table check. */
export function csvTables(files: readonly OutputFile[]): string[] {
  return files.map((f) => basename(f.path)).filter((n) => n.endsWith('.csv')).map((n) => n.slice(0, -4));
}
