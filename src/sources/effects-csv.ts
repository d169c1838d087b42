/**
 * An effect-size table computed elsewhere (`samegame meta --effects FILE.csv`): columns study,
 * model, game, yi, vi, optionally n_base and n_alt (as reports/effects.csv has them); every
 * further column is a moderator. The first problem ends the read with
 * one message naming file, line and field.
 */
import { UserError } from '../core/errors.js';
import { metaMsg } from '../core/messages/meta.js';
import { msg } from '../core/messages/common.js';
import { splitRows } from './rates-csv.js';
import { checkColumnNames, checkLevel, readInputFile } from './reader-rules.js';
import { sourcesMsg } from './messages.js';

export const EFFECT_COLUMNS = ['study', 'model', 'game', 'yi', 'vi'] as const;
/** Optional columns that are not moderators: the decisions under each framing (as effects.csv writes them; may be empty). */
export const COUNT_COLUMNS = ['n_base', 'n_alt'] as const;
/** The column that marks a cell's data synthetic (true; false or empty otherwise), as effects.csv writes it: not a moderator. */
export const SYNTHETIC_COLUMN = 'synthetic';

export interface EffectTableRow {
  readonly line: number;
  readonly study: string;
  readonly model: string;
  readonly game: string;
  readonly yi: number;
  readonly vi: number;
  readonly n_base?: number;
  readonly n_alt?: number;
  readonly moderators: Readonly<Record<string, string>>;
  /** True when the cell's data are synthetic (simulated models). */
  readonly synthetic?: boolean;
}

export interface EffectTable {
  readonly path: string;
  readonly sha256: string;
  readonly rows: readonly EffectTableRow[];
  /** The further columns, in header order. */
  readonly moderators: readonly string[];
}

/**
 * The most effect rows `meta` fits: the three-level model's profile intervals and the figures grow with the cells, and a
 * 150,000-row table took 610 s on two busy cores; a larger table is refused before any fit (docs/reference/specifications.md).
 */
export const MAX_EFFECT_ROWS = 200_000;

const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function number(file: string, line: number, field: string, text: string, positive: boolean): number {
  const v = Number(text);
  const ok = DECIMAL.test(text) && Number.isFinite(v) && (!positive || v > 0);
  if (!ok) throw new UserError(metaMsg.effectsColumn(file, line, field, sourcesMsg.badNumber(text,
    positive ? 'a positive number (a sampling variance)' : 'a finite number')));
  return v;
}

/** The synthetic column's value: true, or false / empty; anything else is refused. */
function syntheticFlag(file: string, line: number, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (t !== 'true' && t !== 'false' && t !== '') throw new UserError(metaMsg.effectsColumn(file, line, SYNTHETIC_COLUMN, sourcesMsg.notSyntheticFlag(text)));
  return t === 'true';
}

/** Read and validate an effect table; `file` names it in messages. */
export function readEffects(path: string, file = path): EffectTable {
  const { text, sha256 } = readInputFile(path, file);
  const raw = splitRows(text, file);
  if (raw.length < 2) throw new UserError(`${file}: no data rows`);
  if (raw.length - 1 > MAX_EFFECT_ROWS) throw new UserError(sourcesMsg.tooManyEffectRows(file, raw.length - 1, MAX_EFFECT_ROWS));
  const header = raw[0].fields.map((h) => h.trim());
  checkColumnNames(file, raw[0].line, header, 'header');
  for (const c of EFFECT_COLUMNS) {
    if (!header.includes(c)) throw new UserError(msg.missingColumn(file, c, header));
  }
  const known: readonly string[] = [...EFFECT_COLUMNS, ...COUNT_COLUMNS, SYNTHETIC_COLUMN];
  const moderators = header.filter((h) => !known.includes(h));
  const count = (line: number, fields: string[], c: string) => {
    const text = header.includes(c) ? fields[header.indexOf(c)] : '';
    return text.trim() === '' ? undefined : number(file, line, c, text, true);
  };
  const first = new Map<string, number>();
  const rows = raw.slice(1).map(({ line, fields }): EffectTableRow => {
    if (fields.length !== header.length) throw new UserError(`${file}:${line}: row has ${fields.length} fields, the header has ${header.length}`);
    const get = (c: string) => fields[header.indexOf(c)];
    for (const c of ['study', 'model', 'game', ...moderators]) checkLevel(file, line, c, get(c));
    const key = JSON.stringify([get('study'), get('model'), get('game')]);
    const seen = first.get(key);
    if (seen !== undefined) throw new UserError(metaMsg.effectsColumn(file, line, 'game', sourcesMsg.duplicateEffect(seen)));
    first.set(key, line);
    return {
      line, study: get('study'), model: get('model'), game: get('game'),
      yi: number(file, line, 'yi', get('yi'), false), vi: number(file, line, 'vi', get('vi'), true),
      n_base: count(line, fields, 'n_base'), n_alt: count(line, fields, 'n_alt'),
      moderators: Object.fromEntries(moderators.map((m) => [m, get(m)])),
      ...(header.includes(SYNTHETIC_COLUMN) && syntheticFlag(file, line, get(SYNTHETIC_COLUMN)) ? { synthetic: true } : {}),
    };
  });
  return { path: file, sha256, rows, moderators };
}
