/**
 * The user-facing messages used only in sources/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../core/messages/text.js';
import { at, columnsFound, framingsHint } from '../core/messages/common.js';
import { didYouMean } from '../core/suggest.js';

export const sourcesMsg = {
  tooManyEffectRows: (file: string, rows: number, max: number) =>
    `${file}: ${rows.toLocaleString('en-US')} effect rows; meta fits at most ${max.toLocaleString('en-US')} (split the table, e.g. by study or model)`,
  emptyStore: (path: string) => `${path}: the store holds no runs`,
  foldCollisionWhat: (a: string, b: string, game: string) => `${a} and ${b} would both be the game ${q(game)}: rename a level`,
  unscoredLogprobsWhat: (n: number) =>
    (`${n} ok trial${n === 1 ? '' : 's'} of a cell scored by first-token log-probabilities carr${n === 1 ? 'ies' : 'y'} no probability (a store written ` +
      `before such trials were stored as invalid): run the design again into a new store, or export the run and read the texts' actions with --trials`),
  noSuchRun: (path: string, id: number, ids: number[]) => `${path}: no run ${id} (runs: ${ids.join(', ')})`,
  repeatedRun: (path: string, id: number) =>
    (`${path}: run ${id} is a repeated game (its design has a play block); these analyses read one-shot runs only — analyze the store itself (samegame ` +
      `analyze STORE: repeated play, clustered by match)`),
  unfinishedMatches: (path: string, open: number, planned: number) =>
    (`${path}: ${open} of the design's ${planned} matches are not over (the run is still going, or was stopped): their missing rounds are missing from ` +
      `every table — run the same command again to finish them`),
  unfinishedAdaptive: (path: string, open: number, started: number) =>
    (`${path}: ${open} of the ${started} matches the adaptive run started are not over (the run is still going, or was stopped): their missing rounds are `
      + 'missing from every table — run the same command again to finish them'),
  notRepeated: (path: string, id: number) => `${path}: run ${id} is not a repeated game (its design has no play block)`,
  notUtf8: (file: string, line: number) => at(file, line, undefined, 'the text is not valid UTF-8 (save the file as UTF-8)'),
  needRateOrCooperate: (file: string, found: readonly string[]) =>
    at(file, 1, 'rate', `the header needs a "rate" or a "cooperate" column${columnsFound(found)}`),
  csvSyntax: (file: string, line: number, detail: string) => at(file, line, undefined, `malformed CSV (${detail})`),
  rateOutOfRange: (file: string, line: number, value: string, asRate?: string) =>
    at(file, line, 'rate', `${q(value)} is outside [0, 1]${asRate === undefined ? '' : `; it looks like a percent: write ${asRate}`}`),
  nNotPositiveInteger: (file: string, line: number, value: string) => at(file, line, 'n', `${q(value)} is not a positive integer`),
  cooperateNotCount: (file: string, line: number, value: string) => at(file, line, 'cooperate', `${q(value)} is not a non-negative integer`),
  cooperateAboveN: (file: string, line: number, x: number, n: number) => at(file, line, 'cooperate', `${x} cooperations exceed n = ${n}`),
  duplicateCell: (file: string, line: number, firstLine: number, key: string) =>
    at(file, line, 'framing', `duplicate cell ${key} (first seen on line ${firstLine})`),
  missingFraming: (file: string, line: number, model: string, game: string, framing: string, present: readonly string[] = []) =>
    at(file, line, 'framing',
      `model ${q(model)}, game ${q(game)} has no ${q(framing)} row (every model–game needs both planned framings)${framingsHint(present)}`),
  notPlainDecimal: (file: string, line: number, value: string) => at(file, line, 'rate', `${q(value)} is not a plain decimal (write e.g. 0.087)`),
  duplicateKey: (file: string, line: number, key: string, first: number, again: number) =>
    at(file, line, key, `key appears twice in the object (keys ${first} and ${again})`),
  fileTooLarge: (file: string, bytes: number, max: number) =>
    `${file}: the file is larger than ${max / 2 ** 20} MiB (${bytes.toLocaleString('en-US')} bytes)`,
  needsLayout: () => '--digitized needs --layout LAYOUT.csv (columns dataset,point,model,game,framing,n) to map each digitized point to a cell',
  layoutOnly: () => '--layout and --pixel-error apply to a digitized figure: give --digitized PROJECT',
  // Flags.
  looksLike: (file: string, what: string, format: string) => `${file}: this looks like ${what}: add --format ${format}`,
  badNumber: (value: string, what: string) => `${q(value)} is not ${what}`,
  duplicateEffect: (first: number) => `the same study, model and game as line ${first}`,
  header: (file: string, got: readonly string[]) => at(file, 1, undefined,
    `the header must be id,name${got.length === 1 && columnsFound(got).startsWith('; the first line') ? columnsFound(got) : ` (got ${q(got.join(','))})`}`),
  fields: (file: string, line: number, n: number) => at(file, line, undefined, `a row has 2 fields, id and name (got ${n})`),
  empty: (file: string, line: number, field: 'id' | 'name') => at(file, line, field, 'is empty'),
  duplicate: (file: string, line: number, id: string, first: number) => at(file, line, 'id', `${q(id)} is named twice (first on line ${first})`),
  fault: (file: string, line: number, field: 'id' | 'name', what: string) => at(file, line, field, what),
  /** A header of one field holding a tab, a semicolon or a bar: the file is not comma-separated (columnsFound says by what). */
  notCommaSeparated: (file: string, header: readonly string[]) =>
    (header.length === 1 && /[\t;|]/.test(header[0]) ? at(file, 1, undefined, `the file is not comma-separated${columnsFound(header)}`) : undefined),
  givenNames: () => 'the names given',
  nameCollision: (kind: string, name: string, a: string, aWhere: string | undefined, b: string, bWhere: string | undefined) => {
    const one = (id: string, w: string | undefined) => `${kind} ${q(id)} (${w === undefined ? 'its id' : `named in ${w}`})`;
    return `display names: ${one(a, aWhere)} and ${one(b, bWhere)} would both be shown as ${q(name)}: give each its own name`;
  },
  designNames: (path: string, run: number) => `${path}: run ${run}'s design, names: block`,
  badHeader: (file: string, field: string, want: string, found: readonly string[]) => (found.length === 1 && columnsFound(found).startsWith('; the first line')
    ? at(file, 1, undefined, `the header must begin with ${want} (further columns are provenance)${columnsFound(found)}`)
    : at(file, 1, field, `the header must begin with ${want} (further columns are provenance)`)),
  unknownTable: (file: string, line: number, value: string, known: readonly string[]) =>
    at(file, line, 'table', `${q(value)} is not a table (one of ${known.join(', ')})${didYouMean(value, known)}`),
  unknownStatistic: (file: string, line: number, table: string, value: string, known: readonly string[]) =>
    at(file, line, 'statistic', `${q(value)} is not a column of ${table} (one of ${known.join(', ')})${didYouMean(value, known)}`),
  gameNeeded: (file: string, line: number, table: string) => at(file, line, 'game', `${table} rows are per model and game: the game is missing`),
  gameNotAllowed: (file: string, line: number, table: string, value: string) =>
    at(file, line, 'game', `${table} rows are per model: leave the game empty (got ${q(value)})`),
  notPlainNumber: (file: string, line: number, value: string) =>
    at(file, line, 'published', `${q(value)} is not a plain decimal number (write it as printed, e.g. 0.150 or 26)`),
  duplicateRow: (file: string, line: number, firstLine: number, key: string) =>
    at(file, line, 'statistic', `duplicate published value ${key} (first seen on line ${firstLine})`),
  badReps: (file: string, line: number, value: string) =>
    at(file, line, 'reps', `${q(value)} is not a number of bootstrap replicates (a whole number ≥ 1, or empty)`),
  badMethod: (file: string, line: number, value: string) =>
    at(file, line, 'method', `${q(value)} is not an interval method (percentile or bca, or empty)`),
  repeatedExport: (file: string) =>
    (`${file}: the export of a repeated run (columns match, round, seat, opponent): its rounds are not independent trials — analyze the store itself ` +
      `(samegame analyze STORE), which clusters by match`),
  unknownExtension: (file: string) => `${file}: a per-trial file must end in .csv or .jsonl`,
  badJson: (file: string, line: number, detail: string) => at(file, line, undefined, `not a JSON object (${detail})`),
  tooDeep: (file: string, line: number, max: number) => at(file, line, undefined, `nested deeper than ${max} levels`),
  lineTooLong: (file: string, line: number, max: number) => at(file, line, undefined, `the line is longer than ${max.toLocaleString('en-US')} characters`),
  notAName: (file: string, line: number, field: string, what: 'object' | 'array') => at(file, line, field,
    `is ${what === 'object' ? 'an object' : 'an array'}, not a name`),
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
  factorIsKnown: (column: string) => `--factor: ${q(column)} is already a column the reader uses (model, game, framing, the outcome or the cluster)`,
  auditNeedsCounts: (file: string, what: string) =>
    `${file}: the audit needs counts of independent binary decisions; it holds ${what} (use reproduce or report for it)`,
  syntheticDesign: () => 'the design says synthetic: true',
  syntheticModels: (models: readonly string[]) => `${models.join(', ')} answered through the simulated provider`,
  syntheticColumn: () => 'the file\'s synthetic column says true',
  sidecarUnread: (side: string) => `${side} is not a sidecar samegame export wrote: left out (no synthetic flag, names or design hash read from it)`,
  sidecarStale: (side: string, file: string) =>
    (`${side} was written for other bytes than ${file} (the file changed since it was exported): left out (no synthetic flag, names or design hash read ` +
      `from it)`),
  notSyntheticFlag: (text: string) => `${q(text)} is not true, false or empty`,
  noSidecar: (side: string) =>
    `${side}: missing (the sidecar export writes beside its folder): the export's provenance (synthetic flag, names, design hash and order) is not restored`,
  sidecarOtherFiles: (side: string, files: string) =>
    `${side} was written for the export's files as exported, not for ${files} (a part of the export, or files changed since): left out ` +
    "(no names or design order read from it; the trials' synthetic column still says whether they are synthetic)",
};
