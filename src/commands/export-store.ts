/**
 * `samegame export`: the trials of a store to a file (written whole or not at all, by the
 * output-path rule of core/out-dir.ts), to a stream, or to standard output when asked for ('-').
 */
import { writeTrials, type ExportFormat } from './export.js';
import { writeParquet } from './export-parquet.js';
import { exportProbes, probesParquetPath, probesPath, type ProbesExport } from './export-probes.js';
import type { TrialStore } from '../live/store/store.js';
import { storeReader } from '../sources/open-run.js';
import { storeGuard } from '../live/store/integrity.js';
import { UserError } from '../core/errors.js';
import { checkOutFile } from '../core/out-dir.js';
import { streamWriter, writeStreamAtomic, type OutputFile } from '../core/atomic.js';
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, rmSync } from 'node:fs';
import { sha256File } from '../core/hash.js';
import { originJson, type Origin } from '../core/provenance.js';
import { designOrder, sidecarPath, storeOrigin, type ExportSidecar } from '../sources/origin.js';
import { exportFolderSha256 } from '../sources/parquet/files.js';
import { stdoutError } from '../core/stdout.js';
import type { Logger } from '../core/logger.js';
import { finish } from './pipeline/write.js';
import { commandsMsg } from './messages.js';

export interface ExportOptions {
  /** The trial store written by `samegame run`. */
  readonly store: string;
  readonly format: ExportFormat;
  /**
   * Where the trials go, always said: a file (written whole or not at all), '-' for standard output
   * (the CLI's default), or a stream (written to, not ended).
   */
  readonly out: string | NodeJS.WritableStream;
  /** Only this run of the store. */
  readonly runId?: number;
  readonly verifyStore?: boolean;
  readonly logger?: Logger;
}

/** How many trials were exported, and the file written (none for standard output or a stream). */
export interface ExportResult {
  readonly trials: number;
  readonly out?: string;
  /** The sidecar written beside the file (`<file>.provenance.json`: synthetic flag, names, design hash). */
  readonly sidecar?: string;
  /** The comprehension probes written beside the file or folder (export-probes.ts), when the runs exported asked any. */
  readonly probes?: { readonly out: string; readonly probes: number };
}

/** `out` for standard output. */
export const STDOUT = '-';

async function exportTo(store: TrialStore, o: ExportOptions): Promise<ExportResult> {
  const ids = store.runs().map((r) => r.id);
  if (o.runId !== undefined && !ids.includes(o.runId)) throw new UserError(commandsMsg.noSuchRun(o.store, o.runId, ids));
  const format = o.format;
  if (format === 'parquet') {
    if (typeof o.out !== 'string' || o.out === STDOUT) throw new UserError(commandsMsg.parquetNeedsFolder());
    const n = await writeParquet(store, o.out, o.runId);
    return exported({ trials: n, out: o.out, sidecar: sidecarPath(o.out) }, sidecarFile(store, o, o.out, exportFolderSha256(o.out)),
      await exportProbes(store, format, o.out, o.runId), o);
  }
  if (typeof o.out !== 'string' || o.out === STDOUT) {
    let n = 0;
    // A reader that stops early (| head) closes the pipe: that ends the export, quietly.
    await writeTrials(store, format, streamWriter(o.out === STDOUT ? process.stdout : o.out), o.runId).then((k) => { n = k; }, (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw stdoutError(e);
    });
    return { trials: n };
  }
  const out = o.out;
  const hash = createHash('sha256');
  const n = await writeStreamAtomic(out, (write) => writeTrials(store, format, (chunk) => { hash.update(chunk); return write(chunk); }, o.runId));
  return exported({ trials: n, out, sidecar: sidecarPath(out) }, sidecarFile(store, o, out, hash.digest('hex')),
    await exportProbes(store, format, out, o.runId), o);
}

/** Beside the file or folder: what reproduce --trials needs to restore the synthetic flag, the names, the design hash and order. */
function sidecarFile(store: TrialStore, o: ExportOptions, out: string, sha256: string): OutputFile {
  return { path: sidecarPath(out), content: `${JSON.stringify(exportSidecar(store, o, sha256), null, 2)}\n` };
}

/**
 * The end of an export to a file or folder, once the trials are in place: the sidecar and the probes written as one set and a stale
 * probes' file removed (pipeline/write.ts), then what was exported. When that set cannot be written, a sidecar left of the trials
 * just replaced is removed too: it describes other trials, and is never left beside the new ones.
 */
function exported(res: ExportResult & { readonly out: string }, sidecar: OutputFile, probes: ProbesExport, o: ExportOptions): ExportResult {
  const written = 'stale' in probes ? res : { ...res, probes: { out: probes.out, probes: probes.probes } };
  try {
    return finish({ result: written, files: 'stale' in probes ? [sidecar] : [sidecar, probes.file], stale: 'stale' in probes ? [probes.stale] : [],
      print: (logger) => {
        logger.info(commandsMsg.exported(res.trials, res.out));
        if (written.probes) logger.info(commandsMsg.exportedProbes(written.probes.probes, written.probes.out));
      } }, { logger: o.logger });
  } catch (e) {
    const left = lstatSync(sidecar.path, { throwIfNoEntry: false })?.isFile() ? readFileSync(sidecar.path, 'utf8') : undefined;
    if (left !== undefined && left !== sidecar.content) rmSync(sidecar.path, { force: true });
    throw e;
  }
}

/**
 * The sidecar of an exported file (sources/origin.ts reads it): the file's SHA-256, the store, and
 * the provenance of the run exported (of every run: synthetic when one is, without a run's details).
 */
function exportSidecar(store: TrialStore, o: ExportOptions, fileSha256: string): ExportSidecar {
  const sha256 = sha256File(o.store);
  const runs = store.runs().filter((r) => o.runId === undefined || r.id === o.runId);
  const origins = runs.map((r) => storeOrigin(o.store, sha256, r, store));
  const origin: Origin = origins.length === 1 ? origins[0] : {
    synthetic: origins.some((x) => x.synthetic), source: { path: o.store, sha256 },
    syntheticWhy: [...new Set(origins.flatMap((x) => x.syntheticWhy ?? []))], syntheticModels: [...new Set(origins.flatMap((x) => x.syntheticModels ?? []))],
  };
  return { samegame_export: 1, file_sha256: fileSha256, store: { path: o.store, sha256 }, origin: originJson(origin),
    ...(runs.length === 1 ? { order: designOrder(runs[0]) } : {}) };
}

/** `samegame export`: the trials of the store, one record per trial; the output path is checked before the store is opened. */
export async function exportTrials(o: ExportOptions): Promise<ExportResult> {
  // The library writes nowhere by default: standard output is asked for ('-'), as the CLI does.
  if ((o.out as ExportOptions['out'] | undefined) === undefined) throw new UserError(commandsMsg.exportNeedsOut());
  // DIR/ and DIR are one output: its sidecar DIR.provenance.json, its probes DIR.probes.parquet (never DIR/.provenance.json)
  if (typeof o.out === 'string' && o.out !== STDOUT) o = { ...o, out: o.out.replace(/(?<=[^\\/])[\\/]+$/, '') };
  // the file, its sidecar and the probes' file; a Parquet folder is checked when written, the probes' file beside it here
  const files = (out: string) => (o.format === 'parquet' ? [probesParquetPath(out), sidecarPath(out)] : [out, sidecarPath(out), probesPath(out)]);
  if (typeof o.out === 'string' && o.out !== STDOUT) files(o.out).forEach((p) => checkOutFile('--out', p));
  // storeReader: the store opened read-only, its failures one line naming it, closed when the records are written
  return storeGuard(o.store, (store) => exportTo(store, o), storeReader(o.store, { verify: o.verifyStore }));
}
