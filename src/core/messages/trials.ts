/** Messages of the per-trial reader (--trials): one line, file:line: field "X": what is wrong. */
import { at } from './common.js';

const q = (s: string) => JSON.stringify(s);

export const trialsMsg = {
  unknownExtension: (file: string) => `${file}: a per-trial file must end in .csv or .jsonl`,
  badJson: (file: string, line: number, detail: string) => at(file, line, undefined, `not a JSON object (${detail})`),
  notAnObject: (file: string, line: number) => at(file, line, undefined, 'not a JSON object'),
  noOutcome: (file: string, line: number) =>
    at(file, line, 'action', 'the row needs exactly one outcome column: "action" (C or D), "cooperate" (0 or 1) or "p_cooperate" (a probability)'),
  mixedOutcomes: (file: string, line: number, first: string, other: string) =>
    at(file, line, other, `mixed outcome columns: this file gives ${q(first)}, this row ${q(other)} (use one outcome column for every row)`),
  unknownAction: (file: string, line: number, value: string) => at(file, line, 'action', `${q(value)} is not C or D`),
  notBinary: (file: string, line: number, value: string) => at(file, line, 'cooperate', `${q(value)} is not 0 or 1`),
  notProbability: (file: string, line: number, value: string) => at(file, line, 'p_cooperate', `${q(value)} is not a probability in [0, 1]`),
  bothInputs: () => '--data and --trials cannot be used together: give one input',
  trialsOnly: () => '--cluster and --factor apply to per-trial input: give --trials FILE',
  factorIsKnown: (column: string) => `--factor: ${q(column)} is already a column the reader uses (model, game, framing, the outcome or the cluster)`,
  auditNeedsCounts: (file: string, what: string) =>
    `${file}: the audit needs counts of independent binary decisions; this file holds ${what} (use reproduce or report for it)`,
};
