/**
 * The user-facing messages used only in sources/logs/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../../core/messages/text.js';
import { at, columnsFound } from '../../core/messages/common.js';

const list = (xs: readonly string[]) => xs.map(q).join(', ');


export const sourcesLogsMsg = {
  unknownFormat: (name: string, builtins: readonly string[]) =>
    `--format: ${q(name)} is neither a built-in log format (${builtins.join(', ')}) nor a description file (.yaml, .yml)`,
  formatUnreadable: (file: string, reason: string) => `${file}: cannot read the log format description (${reason})`,
  formatYamlSyntax: (file: string, line: number | undefined, detail: string) => at(file, line, undefined, `invalid YAML (${detail})`),
  formatNotMapping: (file: string) => at(file, 1, undefined, 'a log format must be a YAML mapping (see data/log-formats/log-format.schema.json)'),
  formatField: (file: string, line: number | undefined, path: string, what: string) =>
    path === '' ? at(file, line, undefined, what) : at(file, line, path, what),
  // Cross-field rules of a description (the message after the path).
  shapeSeats: (shape: string, want: string) => `shape ${shape} needs ${want}`,
  shapeNeeds: (shape: string, field: string) => `shape ${shape} needs ${q(field)}`,
  shapeRefuses: (shape: string, field: string, why: string) => `shape ${shape} takes no ${q(field)} (${why})`,
  matchRowOnly: () => 'match: row is for shape match (one row per match)',
  matchMustBeRow: () => 'shape match has one match per row: write match: row',
  columnNotInHeader: (column: string) => `column ${q(column)} is not one of the format's columns (add it to columns)`,
  badTemplate: (template: string) => `template ${q(template)} has an unclosed or empty {placeholder}`,
  valuesNotInTemplate: (column: string) => `column ${q(column)} is not a placeholder of the template`,
  needsPayoff: (field: string) => `decoding by payoffs needs ${q(field)} on every seat`,
  ambiguousMatrix: (a: string, b: string) => `cells ${a} and ${b} have the same payoffs, so a row's payoffs could not tell them apart`,
  skipAndLabels: (key: string) => `${q(key)} has a label map and is skipped: choose one`,
  emptyLabelMap: () => 'a label map needs at least one label',
  // Reading rows.
  missingColumn: (file: string, column: string, format: string, found: readonly string[]) =>
    at(file, 1, column, `the header has no such column (format ${format} needs ${q(column)})${columnsFound(found)}`),
  otherFormat: (file: string, column: string, format: string, what: string, other: string) =>
    at(file, 1, column, `the header has no such column (format ${format} needs ${q(column)}); this looks like ${what}: use --format ${other}`),
  badRound: (file: string, line: number, field: string, value: string) => at(file, line, field, `${q(value)} is not a round (a whole number from 1)`),
  badSeat: (file: string, line: number, field: string, value: string) => at(file, line, field, `${q(value)} is not a seat (1 or 2)`),
  notListed: (file: string, line: number, field: string, value: string, known: readonly string[]) =>
    at(file, line, field, `${q(value)} is not one of ${list(known)}`),
  notAList: (file: string, line: number, field: string, detail: string) => at(file, line, field, `not a list such as ['A', 'B'] (${detail})`),
  listLengths: (file: string, line: number, field: string, got: number, want: number, other: string) =>
    at(file, line, field, `${got} entries, but ${q(other)} has ${want} (one entry per round)`),
  noLabelMap: (file: string, line: number, field: string, value: string, known: readonly string[]) =>
    at(file, line, field, `${q(value)} has no label map in the format (known: ${list(known)})`),
  unknownLabel: (file: string, line: number, field: string, label: string, game: string, known: readonly string[]) =>
    at(file, line, field, `label ${q(label)} is not an action of ${q(game)} (known: ${list(known)})`),
  payoffsFitNoCell: (file: string, line: number, field: string, own: number, other: number, cells: string) =>
    at(file, line, field, `payoffs (${own}, ${other}) fit no cell of the declared payoff matrix (${cells}): the log contradicts its game`),
  labelChanged: (file: string, line: number, field: string, label: string, was: string, firstLine: number, now: string) =>
    at(file, line, field, `label ${q(label)} decodes as ${now} here but as ${was} on line ${firstLine} (labels must keep their meaning within a file)`),
  roundBreaks: (file: string, line: number, field: string, round: number, expected: string) =>
    at(file, line, field,
      `round ${round} does not continue a match (expected ${expected}): a match is a run of consecutive rows of one pair whose round counts up from 1`),
  matchRepeats: (file: string, line: number, match: string, firstLine: number, was: string, now: string) =>
    at(file, line, 'match', `match ${q(match)} was ${was} on line ${firstLine} and is ${now} here: the match value repeats across configurations`),
  duplicateDecision: (file: string, line: number, match: string, round: number, seat: number, firstLine: number) =>
    at(file, line, 'round', `match ${q(match)}, round ${round}, seat ${seat} is already given on line ${firstLine}`),
  selfName: (file: string, line: number, field: string) =>
    at(file, line, field,
      '"self" is the tables\' name of a model\'s matches against itself (its opponent level); a player of that name would join them: rename it'),
  totalContradicts: (file: string, line: number, field: string, total: number, sum: number, round: number) =>
    at(file, line, field, `total ${total}, but the payoffs of rounds 1–${round} sum to ${sum}: the log contradicts itself`),
  roundMissing: (file: string, line: number, round: number, last: number) =>
    at(file, line, 'round', `the match begun here has no round ${round} (it goes to round ${last})`),
  playedContradicts: (file: string, line: number, field: string, played: number, rounds: number) =>
    at(file, line, field, `the match says it played ${played} round${played === 1 ? '' : 's'} but the log holds ${rounds}`),
  pastMaxRounds: (file: string, line: number, field: string, max: number, rounds: number) =>
    at(file, line, field, `the match was to last at most ${max} round${max === 1 ? '' : 's'} but the log holds ${rounds}`),
  noRounds: (file: string, line: number, field: string) => at(file, line, field, 'an empty list: a match of no rounds'),
  notRoundCount: (file: string, line: number, field: string, value: string) => at(file, line, field,
    `${q(value)} is not a number of rounds (a whole number from 0)`),
  duplicateRow: (file: string, line: number, first: number) => at(file, line, undefined, `the row repeats line ${first} exactly (a row given twice)`),
  shortMatch: (file: string, line: number, rounds: number, want: number, kept: boolean) =>
    (`${file}:${line}: the match begun here has ${rounds} round${rounds === 1 ? '' : 's'}, the longest match of its game in the file has ${want}: a short ` +
      `match, ${kept ? 'kept (--short-matches keep)' : 'left out (--short-matches keep keeps it)'}`),
  moreShortMatches: (n: number, kept: boolean) => `and ${n} more short match${n === 1 ? '' : 'es'}, ${kept ? 'kept' : 'left out'}`,
  totalNeedsPayoff: () => 'a running total is checked against the payoffs: give the seat\'s "payoff" column',
  labelMapNeedsBoth: (missing: string) =>
    `a label map needs a label for C and one for D (none is ${missing}): without it every decision would be the other action`,
  sameFileTwice: (file: string) => `--trials ${q(file)} is given twice`,
  modelsNotInLog: (names: readonly string[], present: readonly string[]) =>
    `--models: ${list(names)} ${names.length === 1 ? 'is not a player' : 'are not players'} of the log (players: ${list(present)})`,
  unknownFactor: (factor: string, format: string, available: readonly string[]) =>
    `--factor: the log format ${q(format)} gives no factor ${q(factor)} (${available.length ? `available: ${list(available)}` : 'it gives none'})`,
  noDecisions: (file: string) => `${file}: no decisions (every row was left out or the file has no data rows)`,
  skipped: (key: string, rows: number, why: string) => `${key}: ${rows} row${rows === 1 ? '' : 's'} left out (${why})`,
  roundsPastLast: (path: string, rounds: string, last: number) => `${path}: --rounds ${rounds}: its rounds are 1–${last} (no decision in the rounds chosen)`,
  badRounds: (value: string) => `--rounds: ${q(value)} is not a round or a range of rounds (1, 1-3)`,
};
