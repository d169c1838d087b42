/**
 * The layout `samegame export` writes, shared by the writer (commands/export.ts) and the per-trial
 * reader, so that what export writes, `--trials` reads: the same columns, the same factor names.
 */
export const EXPORT_BASE = ['run', 'design', 'model', 'game', 'framing', 'rep'] as const;
export const EXPORT_TAIL = ['action', 'status', 'p_cooperate', 'text', 'model_snapshot', 'input_tokens', 'output_tokens',
  'latency_ms', 'attempts', 'error', 'synthetic'] as const;
/**
 * Columns of repeated games (runs with a `play` block), after the factors. `opponent` is `self` for
 * a model's matches against itself, as in every table; `opponent_id` keeps the opponent's id (the
 * model's own id in self-play).
 */
export const EXPORT_PLAY = ['match', 'round', 'seat', 'opponent', 'opponent_id', 'opponent_action', 'payoff'] as const;
/** The statuses of a stored trial; only `ok` trials are decisions (the store's valid trials). */
export const TRIAL_STATUSES = ['ok', 'invalid', 'error'] as const;

/** The design's order of an exported run's levels (its sidecar records it): a reader lists the cells in it, as the store does. */
export interface ExportOrder { readonly models: readonly string[]; readonly games: readonly string[]; readonly framings: readonly string[] }

/** The factor columns' names; a factor named like a fixed column is prefixed with factor_. */
const FIXED: ReadonlySet<string> = new Set<string>([...EXPORT_BASE, ...EXPORT_PLAY, ...EXPORT_TAIL]);

export function factorColumns(names: readonly string[]): string[] {
  return names.map((n) => (FIXED.has(n) ? `factor_${n}` : n));
}

/**
 * The factor columns of an exported CSV header (between the fixed columns rep and action), or
 * undefined when the header is not an export's.
 */
export function exportedCsvFactors(header: readonly string[]): string[] | undefined {
  const base = EXPORT_BASE.length, tail = EXPORT_TAIL.length;
  if (header.length < base + tail) return undefined;
  if (EXPORT_BASE.some((c, i) => header[i] !== c) || EXPORT_TAIL.some((c, i) => header[header.length - tail + i] !== c)) return undefined;
  const between = header.slice(base, header.length - tail);
  const play = EXPORT_PLAY.length;
  const hasPlay = between.length >= play && EXPORT_PLAY.every((c, i) => between[between.length - play + i] === c);
  return hasPlay ? between.slice(0, between.length - play) : between;
}

/** True when an exported file (its CSV header or its first JSONL object) holds a repeated run's decisions. */
export const isRepeatedExport = (columns: readonly string[]): boolean => EXPORT_PLAY.every((c) => columns.includes(c));

/** True for an object of an exported JSONL file: the fixed keys, and its factors as an object. */
export function isExportedObject(o: Readonly<Record<string, unknown>>): boolean {
  const f = o.factors;
  return [...EXPORT_BASE, ...EXPORT_TAIL].every((k) => Object.prototype.hasOwnProperty.call(o, k))
    && typeof f === 'object' && f !== null && !Array.isArray(f);
}

/** The partition columns of a Parquet export (`export --format parquet`), in folder order: model=…/game=…/framing=…. */
export const PARQUET_PARTITIONS = ['model', 'game', 'framing'] as const;

/** The DuckDB types of a Parquet export's columns (every other column text); an empty CSV field is NULL. */
export const PARQUET_TYPES: Readonly<Record<string, 'BIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN'>> = {
  run: 'BIGINT', rep: 'BIGINT', round: 'INTEGER', seat: 'INTEGER', payoff: 'DOUBLE', p_cooperate: 'DOUBLE', input_tokens: 'BIGINT',
  output_tokens: 'BIGINT', latency_ms: 'DOUBLE', attempts: 'BIGINT', synthetic: 'BOOLEAN',
};
