/** The user-facing messages used only in analyses/preregistration/, as functions of plain values. */

export const preregMsg = {
  planSyntax: (file: string, line: number | undefined, detail: string) => `${file}${line === undefined ? '' : `:${line}`}: not a valid plan (${detail})`,
  planNotMapping: (file: string) => `${file}: a plan is a YAML mapping (design, analysis, hypotheses)`,
  planField: (file: string, line: number | undefined, field: string, message: string) =>
    `${file}${line === undefined ? '' : `:${line}`}: field ${field}: ${message}`,
  needsComparison: (id: string) => `hypothesis ${id}: a shift or R predicate needs compare (> or <) and value`,
  testTakesNoValue: (id: string) => `hypothesis ${id}: the framing test's predicate is "framing changes behaviour"; it takes no compare, value or game`,
  duplicateHypothesis: (id: string) => `hypothesis id ${id} is given twice`,
  sameFraming: (f: string) => `base and alt are the same framing (${f})`,
};
