/**
 * The comprehension outputs of a two-framing run that asked probes (docs/methods.md §18c):
 * reports/comprehension.csv and comprehension-verdicts.csv, and the mark beside each model's R
 * and shift in table3.csv and table3.tex (the figure and report section: analyze-outputs.ts).
 * A run without probes: nothing added, nothing changed.
 */
import { join } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import type { Logger } from '../core/logger.js';
import { POOLED } from '../core/names.js';
import { comprehension, DEFAULT_COMPREHENSION_THRESHOLD, type Comprehension } from '../analyses/comprehension/index.js';
import type { DesignFacts } from '../analyses/compare/design-facts.js';
import type { TwoFramingAnalysis } from '../analyses/two-framing/analysis.js';
import type { StoreTable } from '../sources/store.js';

/** A run's comprehension and the Table 3 marks of its models (then Pooled). */
export interface ComprehensionResult {
  readonly comprehension: Comprehension;
  readonly marks: ReadonlyMap<string, string>;
  /** The note under Table 3 (table3.tex, the report): "" when no model is marked. */
  readonly note: string;
}

export function comprehensionResult(source: StoreTable, facts: DesignFacts, a: TwoFramingAnalysis, threshold: number | undefined,
  logger: Logger): ComprehensionResult | undefined {
  if (!source.probes?.length) return undefined;
  const c = comprehension.of(source.probes, { models: facts.models, games: facts.games, framings: facts.framings },
    threshold ?? DEFAULT_COMPREHENSION_THRESHOLD);
  const models = a.layout.models;
  const pair = [a.settings.base, a.settings.alt] as const;
  const marks = comprehension.marks(c, models, pair, POOLED);
  for (const w of comprehension.warnings(c)) logger.warn(w);
  return { comprehension: c, marks, note: comprehension.note(c, marks, models, pair) };
}

/** The files with the comprehension tables added and Table 3 marked (the files as they are without probes). */
export function withComprehensionFiles(files: readonly OutputFile[], reportsDir: string, a: TwoFramingAnalysis,
  r: ComprehensionResult | undefined): OutputFile[] {
  if (!r) return [...files];
  return [
    ...comprehension.markFiles(files, r.note, r.marks, [...a.layout.models, POOLED]),
    { path: join(reportsDir, 'comprehension.csv'), content: comprehension.csv(r.comprehension) },
    { path: join(reportsDir, 'comprehension-verdicts.csv'), content: comprehension.verdictsCsv(r.comprehension) },
  ];
}
