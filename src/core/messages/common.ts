/**
 * Every user-facing message of samegame, as a function, so wording lives in one place and tests
 * can compare against the same text (the vega-lite convention).
 */
import { q } from './text.js';

/** "file:line: field "x": what is wrong" — the one shape of an input error. */
export function at(file: string, line: number | undefined, field: string | undefined, what: string): string {
  const where = line === undefined ? file : `${file}:${line}`;
  return field === undefined ? `${where}: ${what}` : `${where}: field ${q(field)}: ${what}`;
}

/** "; the file's framings are a, b, c (choose two with --base/--alt)" — empty when none are known. */
export const framingsHint = (present: readonly string[]) =>
  (present.length ? `; the file's framings are ${present.map(q).join(', ')} (choose the pair with --base/--alt)` : '');

const SEPARATORS: readonly (readonly [string, string])[] = [[';', 'semicolons'], ['\t', 'tabs'], ['|', 'vertical bars']];
/** A column name as a header would write one (letters, digits, spaces, _ . - ( )), short: the only single field quoted back. */
const HEADER_LIKE = /^[\p{L}\p{N}_ .()-]{1,64}$/u;

/**
 * "; the header has "a", "b", "c"": the columns a file has, for a message about one it lacks (the
 * first 20). A header of one field is quoted only when it reads as a column name: one separated by
 * semicolons, tabs or bars is named so with its columns, and any other line (a file that is no CSV,
 * such as /etc/passwd) is not quoted at all, so an error never prints a line of a file that is not one.
 */
export const columnsFound = (found: readonly string[]): string => {
  if (found.length === 0) return '; the header has no columns';
  const list = (xs: readonly string[]) => `${xs.slice(0, 20).map(q).join(', ')}${xs.length > 20 ? `, … (${xs.length} columns)` : ''}`;
  if (found.length === 1 && !HEADER_LIKE.test(found[0].trim())) {
    const sep = SEPARATORS.find(([c]) => found[0].includes(c));
    if (sep === undefined) return '; the first line has one field and no comma: this does not look like a comma-separated CSV file';
    const columns = list(found[0].split(sep[0]).map((c) => c.trim()));
    return `; the header separates its columns by ${sep[1]} (${columns}): samegame reads comma-separated CSV (save the file with commas)`;
  }
  return `; the header has ${list(found)}`;
};

const reservedLevelWhat = (field: string, value: string) =>
  `${q(value)} is reserved for the tables' own ${field === 'model' ? 'pooled rows' : 'per-model rows'}; rename it`;
export const controlCharacterWhat = (codepoint: string) =>
  `contains the control character ${codepoint} (names may hold any printable character, no control characters)`;

/** "study" → "studies", "model" → "models". */
const plural = (kind: string) => (/[^aeiou]y$/.test(kind) ? `${kind.slice(0, -1)}ies` : `${kind}s`);
/** "model, game or framing": what the ids of an input can name. */
const orList = (kinds: readonly string[]) => (kinds.length < 2 ? kinds.join('') : `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`);

/** "models "a", "b"; game "c"" — at most 8 ids of each kind shown. */
function idsHere(targets: Readonly<Record<string, readonly string[]>>): string {
  const parts = Object.entries(targets).filter(([, ids]) => ids.length > 0)
    .map(([kind, ids]) =>
      `${ids.length === 1 ? kind : plural(kind)} ${ids.slice(0, 8).map(q).join(', ')}${ids.length > 8 ? ` and ${ids.length - 8} more` : ''}`);
  return parts.length === 0 ? 'none' : parts.join('; ');
}

export const msg = {
  /** A display name whose id names nothing in the input: a warning (a names file shared across studies may hold other ids). */
  unusedName: (where: string, id: string, nearest: string | undefined, targets: Readonly<Record<string, readonly string[]>>, input = 'this input') =>
    (`${where}: display name for ${q(id)} ignored: no ${orList(Object.keys(targets))} of ${input} has that ` +
      `id${nearest === undefined ? '' : `; did you mean ${q(nearest)}?`} (ids here: ${idsHere(targets)}); a warning only, since names shared across studies ` +
      `may hold ids of other inputs`),
  /** The closing line of a document's problems beyond those shown. */
  moreProblems: (n: number) => `(and ${n} more problem${n === 1 ? '' : 's'})`,
  fileUnreadable: (file: string, reason: string) => `${file}: cannot read the file (${reason})`,
  emptyTable: (file: string) => `${file}: no data rows`,
  missingColumn: (file: string, column: string, found: readonly string[]) =>
    at(file, 1, column, `required column is missing from the header${columnsFound(found)}`),
  wrongFieldCount: (file: string, line: number, got: number, want: number) =>
    at(file, line, undefined, `row has ${got} fields, the header has ${want}`),
  missingField: (file: string, line: number, field: string) => at(file, line, field, 'value is missing'),
  notANumber: (file: string, line: number, field: string, value: string) => at(file, line, field, `${q(value)} is not a number`),
  reservedLevelWhat,
  sameFraming: (base: string) => `--base and --alt must differ (both are ${q(base)})`,
  duplicateColumn: (file: string, column: string, first: number, again: number) =>
    at(file, 1, column, `column appears twice in the header (columns ${first} and ${again})`),
  controlCharacterWhat,
  nameTooLongWhat: (length: number,
    max: number) => `is ${length.toLocaleString('en-US')} characters long (names may be at most ${max.toLocaleString('en-US')})`,
  outNotDirectory: (flag: string, dir: string, file: string) => `${flag} ${q(dir)}: ${q(file)} exists and is not a directory`,
  outIsDirectory: (flag: string, file: string) => `${flag} ${q(file)}: is a directory, not a file`,
  outUnwritable: (flag: string, dir: string, where: string, code: string) => `${flag} ${q(dir)}: cannot create anything in ${q(where)} (${code})`,
  outUnreachable: (flag: string | undefined, path: string, code: string) => `${flag === undefined ? '' : `${flag} `}${q(path)}: cannot be looked at (${code})`,
  outNotRegular: (flag: string | undefined, path: string, kind: string) =>
    (`${flag === undefined ? '' : `${flag} `}${q(path)}: exists and is ${kind}: samegame writes only regular files, never replacing or writing through ` +
      `anything else (remove it or choose another path)`),
  cannotWrite: (path: string, code: string) => `cannot write ${q(path)} (${code})`,
  badAttenuation: (where: string, a: number, range: string) =>
    `${where}: ${a} is not ${range} (the share of a published effect taken as real; 1 = none attenuated)`,
  cannotWriteStdout: (code: string) => `cannot write to standard output (${code}${code === 'ENOSPC' ? ': no space left on the device' : ''})`,
};
