/** The user-facing messages of the query engine (sources/engine/). */
import { q } from '../../core/messages/text.js';

export const engineMsg = {
  notCompiled: (format: string, what: string) =>
    `log format ${q(format)}: the query engine does not compile ${what}; analyze --trials reads it in memory instead (no SQL to print)`,
  badRows: (files: string, rules: readonly string[]) =>
    `${files}: rows the log format refuses (${rules.join(', ')}); the row reader names the first when the files are CSV`,
  badName: (files: string, level: string, value: string, fault: string) => `${files}: ${level} ${q(value)}: ${fault}`,
  engineFailed: (files: string, detail: string) => `${files}: the query engine could not read the files (${detail.split('\n')[0]})`,
  shortMatch: (file: string, match: string, rounds: number, want: number, kept: boolean) =>
    `${file}: match ${q(match)} has ${rounds} round${rounds === 1 ? '' : 's'} where the longest of its game has ${want}: a short match, ${kept ? 'kept'
      : 'left out'} (--short-matches ${kept ? 'drop leaves it out' : 'keep keeps it'})`,
  moreShortMatches: (n: number, kept: boolean) => `and ${n} more short match${n === 1 ? '' : 'es'}, ${kept ? 'kept' : 'left out'}`,
  aggregatesColumns: (file: string, missing: readonly string[]) =>
    `${file}: an aggregates table needs the columns ${missing.map(q).join(', ')} (docs/reference/aggregates.md)`,
  aggregatesValue: (file: string, row: number, column: string, value: string) =>
    `${file}: row ${row}: column ${q(column)}: ${q(value)} is not valid here (docs/reference/aggregates.md)`,
  aggregatesTooLarge: (file: string, row: number, match: string) =>
    `${file}: row ${row}: match ${q(match)} (begun here): its counts add up past 4294967295, the most one match of an aggregates table holds`,
  matchTooLarge: (files: string, key: readonly string[], match: string) =>
    `${files}: match ${q(match)} of ${key.map(q).join(', ')}: its counts add up past 4294967295, the most one match holds`,
  modelsNotInLog: (names: readonly string[], present: readonly string[]) =>
    `--models: ${names.map(q).join(', ')} ${names.length === 1 ? 'is' : 'are'} not a player of the log (players: ${present.map(q).join(', ')})`,
  scanning: () => 'engine: scanning',
  passes: () => 'engine: matches',
  badRow: (file: string, row: number, field: string, what: string) => `${file}: row ${row}: field ${q(field)}: ${what}`,
  notAnAction: (label: string, game: string, known: readonly string[]) =>
    `label ${q(label)} is not an action of ${q(game)} (known: ${known.map(q).join(', ')})`,
  noLabelMap: (key: string, known: readonly string[]) => `${q(key)} has no label map in the format (known: ${known.map(q).join(', ')})`,
  matchRepeats: (match: string) =>
    `match ${q(match)} begun here is also another pairing, game, framing or factor level: the match value repeats across configurations`,
  roundMissing: (match: string, last: number) => `match ${q(match)} begun here misses a round (it goes to round ${last})`,
} as const;
