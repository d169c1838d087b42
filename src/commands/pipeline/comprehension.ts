/**
 * The comprehension outputs of a two-framing run that asked probes (docs/methods.md §18c):
 * reports/comprehension.csv and comprehension-verdicts.csv, and the mark beside each model's R
 * and shift in table3.csv and table3.tex (the figure and report section: direct-run-report.ts).
 * A run without probes: nothing added, nothing changed.
 */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { Logger } from '../../core/logger.js';
import { POOLED } from '../../core/names.js';
import { comprehension, DEFAULT_COMPREHENSION_THRESHOLD, type Comprehension, type ComprehensionOrder,
  type ScoredProbe } from '../../analyses/comprehension/index.js';
import type { TwoFramingAnalysis } from '../../analyses/two-framing/analysis.js';

/** A run's comprehension and the Table 3 marks of its models (then Pooled), when it has two-framing tables. */
export interface ComprehensionResult {
  readonly comprehension: Comprehension;
  readonly marks?: ReadonlyMap<string, string>;
  /** The note under Table 3 (table3.tex, the report): "" when no model is marked or there is no Table 3. */
  readonly note: string;
}

/** The comprehension of a run's answered probes (none: undefined), and with a Table 3 (`a`) the marks of its rows. */
export function comprehensionResult(probes: readonly ScoredProbe[] | undefined, order: ComprehensionOrder, a: TwoFramingAnalysis | undefined,
  threshold: number | undefined, logger: Logger): ComprehensionResult | undefined {
  if (!probes?.length) return undefined;
  const c = comprehension.of(probes, order, threshold ?? DEFAULT_COMPREHENSION_THRESHOLD);
  for (const w of comprehension.warnings(c)) logger.warn(w);
  if (!a) return { comprehension: c, note: '' };
  const models = a.layout.models;
  const pair = [a.settings.base, a.settings.alt] as const;
  const marks = comprehension.marks(c, models, pair, POOLED);
  return { comprehension: c, marks, note: comprehension.note(c, marks, models, pair) };
}

/** The files with the comprehension tables added and Table 3 marked (the files as they are without probes). */
export function withComprehensionFiles(files: readonly OutputFile[], reportsDir: string, a: TwoFramingAnalysis | undefined,
  r: ComprehensionResult | undefined): OutputFile[] {
  if (!r) return [...files];
  return [
    ...(a && r.marks ? comprehension.markFiles(files, r.note, r.marks, [...a.layout.models, POOLED]) : files),
    { path: join(reportsDir, 'comprehension.csv'), content: comprehension.csv(r.comprehension) },
    { path: join(reportsDir, 'comprehension-verdicts.csv'), content: comprehension.verdictsCsv(r.comprehension) },
  ];
}
