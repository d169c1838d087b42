/** Messages of the per-trial reader (--trials): one line, file:line: field "X": what is wrong. */
import { at } from './common.js';

const q = (s: string) => JSON.stringify(s);

export const trialsMsg = {
  repeatedExport: (file: string) =>
    `${file}: the export of a repeated run (columns match, round, seat, opponent): its rounds are not independent trials — analyze the store itself (samegame analyze STORE), which clusters by match`,
  unknownExtension: (file: string) => `${file}: a per-trial file must end in .csv or .jsonl`,
  badJson: (file: string, line: number, detail: string) => at(file, line, undefined, `not a JSON object (${detail})`),
  tooDeep: (file: string, line: number, max: number) => at(file, line, undefined, `nested deeper than ${max} levels`),
  lineTooLong: (file: string, line: number, max: number) => at(file, line, undefined, `the line is longer than ${max.toLocaleString('en-US')} characters`),
  notAName: (file: string, line: number, field: string, what: 'object' | 'array') => at(file, line, field, `is ${what === 'object' ? 'an object' : 'an array'}, not a name`),
  clusterNotOnFirstRow: (file: string, line: number, column: string) =>
    at(file, line, column, `the first row has no ${q(column)} and this row has one: give every row a cluster, or none`),
  clusterIsKnown: (column: string) =>
    `--cluster: ${q(column)} is a column the reader already uses (model, game, framing or the outcome); name the column that groups dependent decisions`,
  oneCluster: (file: string, line: number, column: string, cell: string, id: string) =>
    at(file, line, column, `cell ${cell} has one cluster (${q(id)}): a cluster bootstrap needs at least two clusters per cell`),
  foldCollision: (file: string, line: number, a: string, b: string, firstLine: number, game: string) =>
    at(file, line, 'game', `${a} and ${b} (line ${firstLine}) would both be the game ${q(game)}: rename a level`),
  unknownStatus: (file: string, line: number, value: string, known: readonly string[]) =>
    at(file, line, 'status', `${q(value)} is not a trial status (${known.map(q).join(', ')})`),
  mixedScoring: (file: string, line: number, cell: string, firstLine: number, first: string, other: string) =>
    at(file, line, other, `cell ${cell} has trials scored by ${q(first)} (line ${firstLine}) and by ${q(other)}: score a cell one way`),
  severalRuns: (file: string, line: number, first: string, other: string) =>
    at(file, line, 'run', `the file holds run ${first} and run ${other}: export one run (samegame export STORE --run N)`),
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
    `${file}: the audit needs counts of independent binary decisions; it holds ${what} (use reproduce or report for it)`,
};
