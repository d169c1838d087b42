/**
 * The comprehension probes of a store (docs/methods.md §18c) out of `samegame export`, beside the
 * trials: a file of their own, never mixed with the decisions — `<name>.probes.<ext>` next to the
 * trials file (`trials.csv` → `trials.probes.csv`), or for Parquet the file `<folder>.probes.parquet`
 * beside the folder — written with the export's sidecar as one set, whole or not at all, only when the runs exported asked probes (else a
 * probes' file an earlier export left there is removed, once the new export is in place). One
 * record per probe: its key, the question (outcome, whose points), the game's payoff, the number
 * read, its score and status, the answer's text, tokens, and the synthetic flag (the simulated
 * provider's answers: the trials' rule). JSONL adds the prompt, request and response.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { writeStreamAtomic, type OutputFile } from '../core/atomic.js';
import { hasProbes, probeRows, type ProbeRow } from '../live/probes/store.js';
import { SIMULATED_SNAPSHOT } from '../live/providers/simulated.js';
import type { TrialStore } from '../live/store/store.js';
import { toCsv, type CsvValue } from '../render/csv.js';
import { lit, withEngine } from '../sources/engine/index.js';
import type { ExportFormat } from './export.js';

/** The columns of the CSV (and Parquet) probe export, in order. */
export const PROBE_EXPORT_COLUMNS = ['run', 'design', 'model', 'game', 'framing', 'rep', 'outcome', 'player', 'expected', 'answer', 'score', 'status',
  'text', 'model_snapshot', 'input_tokens', 'output_tokens', 'latency_ms', 'attempts', 'error', 'synthetic'] as const;

/** Where a text export's probes go: `<name>.probes.<ext>` beside it. */
export function probesPath(out: string): string {
  const ext = extname(out);
  return join(dirname(out), `${basename(out, ext)}.probes${ext}`);
}

/** Where a Parquet export's probes go: one file beside its folder. */
export const probesParquetPath = (dir: string): string => `${resolve(dir).replace(/[\\/]+$/, '')}.probes.parquet`;

const isSynthetic = (p: ProbeRow) => p.model_snapshot?.startsWith(SIMULATED_SNAPSHOT) === true;
const num = (x: number | null): CsvValue => (x === null ? '' : { numberText: String(x) });
const jsonOrText = (s: string | null): unknown => {
  if (s === null) return null;
  try { return JSON.parse(s) as unknown; } catch { return s; }
};

/** Write the probes (of one run with `runId`) in chunks through `write`; the number written. */
export async function writeProbes(store: TrialStore, format: Exclude<ExportFormat, 'parquet'>, write: (chunk: string) => Promise<void>,
  runId?: number): Promise<number> {
  const designs = new Map(store.runs().map((r) => [r.id, r.designName]));
  const headerText = toCsv(PROBE_EXPORT_COLUMNS, []);
  if (format === 'csv') await write(headerText);
  let n = 0;
  let rows: CsvValue[][] = [];
  let lines: string[] = [];
  const flush = async () => {
    if (rows.length > 0) await write(toCsv(PROBE_EXPORT_COLUMNS, rows).slice(headerText.length));
    if (lines.length > 0) await write(`${lines.join('\n')}\n`);
    rows = [];
    lines = [];
  };
  for (const p of probeRows(store, runId)) {
    n++;
    const design = designs.get(p.run_id) ?? '';
    if (format === 'csv') {
      rows.push([p.run_id, design, p.model, p.game, p.framing, p.rep, p.outcome, p.player, num(p.expected), num(p.answer), p.score ?? '', p.status,
        p.text ?? '', p.model_snapshot ?? '', p.input_tokens ?? '', p.output_tokens ?? '', num(p.latency_ms), p.attempts, p.error ?? '',
        isSynthetic(p) ? 'true' : 'false']);
    } else {
      lines.push(JSON.stringify({
        run: p.run_id, design, model: p.model, game: p.game, framing: p.framing, rep: p.rep, outcome: p.outcome, player: p.player, expected: p.expected,
        answer: p.answer, score: p.score, status: p.status, text: p.text, model_snapshot: p.model_snapshot, input_tokens: p.input_tokens,
        output_tokens: p.output_tokens, latency_ms: p.latency_ms, attempts: p.attempts, error: p.error, synthetic: isSynthetic(p), prompt: p.prompt,
        request: jsonOrText(p.request), response: p.response,
      }));
    }
    if (rows.length + lines.length >= 1000) await flush();
  }
  await flush();
  return n;
}

/** The Parquet types of the probe columns (every other column text); empty fields are NULL. */
const TYPES: Readonly<Record<string, string>> = {
  run: 'BIGINT', rep: 'BIGINT', expected: 'DOUBLE', answer: 'DOUBLE', input_tokens: 'BIGINT', output_tokens: 'BIGINT', latency_ms: 'DOUBLE',
  attempts: 'BIGINT', synthetic: 'BOOLEAN',
};

/** The probes as the bytes of one Parquet file (the CSV export copied by DuckDB, typed, in a temporary folder). */
async function probesParquet(store: TrialStore, file: string, runId?: number): Promise<{ content: Uint8Array; n: number }> {
  const work = mkdtempSync(join(tmpdir(), 'samegame-probes-'));
  try {
    const csv = join(work, 'probes.csv');
    const n = await writeStreamAtomic(csv, (write) => writeProbes(store, 'csv', write, runId));
    const staged = join(work, 'probes.parquet');
    const select = PROBE_EXPORT_COLUMNS.map((c) => (TYPES[c] ? `CAST(nullif("${c}", '') AS ${TYPES[c]}) AS "${c}"` : `"${c}"`)).join(', ');
    await withEngine(file, (c) => c.run(`COPY (SELECT ${select} FROM read_csv(${lit(csv)}, header = true, all_varchar = true, quote = '"', escape = '"'))
      TO ${lit(staged)} (FORMAT parquet)`));
    return { content: readFileSync(staged), n };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The probes exported beside the trials: their file and number, or (none asked) the probes' file an earlier export may have left there. */
export type ProbesExport = { readonly out: string; readonly probes: number; readonly file: OutputFile } | { readonly stale: string };

/**
 * The probes to export beside the trials written to `out` (a file, or a Parquet folder): the file (its path and content, which the
 * export writes with its sidecar as one set) and the number of probes; or, when
 * the runs exported asked none, nothing written and the path of the probes' file, a stale one of an earlier export to the same
 * place, which the export removes once its own files are in place (export-store.ts).
 */
export async function exportProbes(store: TrialStore, format: ExportFormat, out: string, runId?: number): Promise<ProbesExport> {
  const file = format === 'parquet' ? probesParquetPath(out) : probesPath(out);
  if (!hasProbes(store, runId)) return { stale: file };
  if (format === 'parquet') {
    const { content, n } = await probesParquet(store, file, runId);
    return { out: file, probes: n, file: { path: file, content } };
  }
  const chunks: string[] = [];
  const n = await writeProbes(store, format, (chunk) => { chunks.push(chunk); return Promise.resolve(); }, runId);
  return { out: file, probes: n, file: { path: file, content: chunks.join('') } };
}
