/** The user-facing messages of the Parquet export's reader (sources/parquet/). */
import { q } from '../../core/messages/text.js';

/** "file: row n: field "x": what" — a Parquet file has no lines: its rows are numbered from 1 in file order. */
const atRow = (file: string, row: number | undefined, field: string | undefined, what: string) =>
  `${file}${row === undefined ? '' : `: row ${row}`}${field === undefined ? '' : `: field ${q(field)}`}: ${what}`;

export const parquetMsg = {
  engineFailed: (files: string, detail: string) => `${files}: the query engine could not read the files (${detail.trim().split('\n')[0]})`,
  engineTimedOut: (files: string, seconds: number) => `${files}: the query engine did not finish within ${seconds} s: stopped`,
  noFiles: (path: string) => `${path}: no .parquet files (a Parquet export is the folder samegame export --format parquet wrote, or a glob of its files)`,
  notPartitioned: (file: string) =>
    `${file}: not a file of a samegame Parquet export (its folders are model=…/game=…/framing=…, as samegame export --format parquet writes them)`,
  notAnExport: (file: string, field: string) =>
    atRow(file, undefined, field, 'missing or out of place: not a samegame export (its columns are those of samegame export --format csv)'),
  otherColumns: (file: string, first: string) => `${file}: its columns are not those of ${first}: the files belong to different exports`,
  wrongType: (file: string, field: string, found: string, want: string) =>
    atRow(file, undefined, field, `stored as ${found} where a samegame export stores ${want}`),
  badRow: (file: string, row: number, field: string, what: string) => atRow(file, row, field, what),
  missing: () => 'value is missing',
  notStatus: (value: string, known: readonly string[]) => `${q(value)} is not a trial status (${known.map(q).join(', ')})`,
  notAction: (value: string) => `${q(value)} is not C or D`,
  notProbability: (value: string) => `${q(value)} is not a probability in [0, 1]`,
  notSeat: (value: string) => `${q(value)} is not 1 or 2`,
  notRound: (value: string) => `${q(value)} is not a round (a whole number from 1)`,
  severalRuns: (first: string, value: string) => `the files hold run ${first} and run ${value}: export one run (samegame export STORE --run N)`,
} as const;
