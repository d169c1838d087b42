/** User-facing messages of the published-values file and the reproduction verdicts (`--expect`). */
import { at } from './common.js';
import { didYouMean } from '../suggest.js';

const q = (s: string) => JSON.stringify(s);

export const reproductionMsg = {
  badHeader: (file: string, field: string, want: string) =>
    at(file, 1, field, `the header must begin with ${want} (further columns are provenance)`),
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
  bcaNotComputed: (where: string) =>
    `${where} names BCa intervals: run with --interval bca so the published BCa endpoints are compared with BCa ones`,
  verdictFlagWithoutExpect: (flag: string) => `${flag} sets how published values are judged: give them with --expect FILE`,
  badAlpha: (value: string) => `--verdict-alpha: ${q(value)} is not a level in (0, 1) (e.g. 0.05)`,
  badPublishedReps: (value: string) => `--published-reps: ${q(value)} is not a number of bootstrap replicates (a whole number ≥ 1)`,
  expectNeedsTwoFraming: (store: string) =>
    `--expect: ${store} holds a context-enrichment run; published values are compared with two-framing tables (table2, table3, family) only`,
  settingsDiffer: (changed: string, compared: string, path: string) =>
    `settings differ from the publication's (${changed}): comparing ${compared} of ${path}, the numbers that do not depend on them (--expect ${path} compares every number)`,
  usingShipped: (path: string) => `comparing with the published values in ${path} (the shipped data's paper tables; --expect FILE to use another)`,
};
