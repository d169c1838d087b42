/**
 * The analyses an input kind adds to the two-framing ones (`SOURCES[kind].analyses`), by name:
 * what each adds to metrics.json, reports/, the report and the audit's reading error. A command
 * composes them through `sourceAnalyses`, whatever the kind; `verifyRates` adds them to the two-framing tables and checks them.
 */
import type { OutputFile } from '../core/atomic.js';
import type { Section } from '../render/html.js';
import { inputFacts, SOURCES, type AnalysisInput, type SourceAnalysis } from '../sources/input.js';
import type { DisplayNames } from '../core/display-names.js';
import type { VerificationReport } from '../core/checks.js';
import { twoFraming, type TwoFramingAnalysis } from '../analyses/two-framing/index.js';
import { digitization } from '../analyses/digitization/index.js';
import type { ReadingRanges } from '../analyses/audit/index.js';
import { commandsMsg } from './messages.js';

export interface SourceAnalysisOutputs {
  /** Fields metrics.json gains. */
  readonly metrics: Readonly<Record<string, unknown>>;
  /** Files under reports/. */
  files(reports: string): OutputFile[];
  /** Sections of the HTML report. */
  readonly sections: readonly Section[];
  /** The audit's per-cell reading ranges, when the kind has its own (instead of ±K counts). */
  readonly readingRanges?: ReadingRanges;
}

const SOURCE_ANALYSES: { readonly [A in SourceAnalysis]: (input: AnalysisInput) => SourceAnalysisOutputs } = {
  digitization(input) {
    if (input.data.kind !== 'digitized') throw new Error('digitization applies to a digitized project');
    const d = input.data.digitized;
    return {
      metrics: { digitization: digitization.metrics(d) },
      files: (reports) => digitization.files(reports, d),
      sections: [digitization.section(d)],
      // Each count moves within its own range at ±K px (reports/digitization.csv), not ±K counts.
      readingRanges: {
        K: d.pixelError, label: digitization.pixelLabel(d.pixelError),
        down: d.points.map((p) => p.count - p.countLo), up: d.points.map((p) => p.countHi - p.count),
        input: { digitized: d.path, layout: d.layout.path, pixelError: d.pixelError },
        notes: d.calibration.map((c) => commandsMsg.clickShift(c.axes, c.click, d.pixelError / 2, c.value, c.count)),
      },
    };
  },
};

/** The outputs of every analysis the input's kind adds (none for most kinds). */
export function sourceAnalyses(input: AnalysisInput): SourceAnalysisOutputs {
  const all = SOURCES[input.data.kind].analyses.map((a) => SOURCE_ANALYSES[a](input));
  return {
    metrics: Object.assign({}, ...all.map((o) => o.metrics)),
    files: (reports) => all.flatMap((o) => o.files(reports)),
    sections: all.flatMap((o) => o.sections),
    readingRanges: all.find((o) => o.readingRanges)?.readingRanges,
  };
}

/**
 * The Appendix C verification of a rates analysis and the tables it checks. `reproduce` writes
 * both; `audit` runs the same verification, so the two commands exit 3 on the same inputs.
 */
export function verifyRates(input: AnalysisInput, analysis: TwoFramingAnalysis, reports: string,
  metricsExtra?: Record<string, unknown>, names?: DisplayNames): { tableFiles: OutputFile[]; verification: VerificationReport } {
  const provenance = { path: input.path, sha256: input.sha256, kind: input.kind };
  const added = sourceAnalyses(input);
  const tableFiles = [...twoFraming.tables.files(reports, analysis, provenance, { ...metricsExtra, ...added.metrics }, names), ...added.files(reports)];
  const verification = twoFraming.verify({ analysis, ...inputFacts(input), tables: twoFraming.tables.csvNames(tableFiles) });
  return { tableFiles, verification };
}
