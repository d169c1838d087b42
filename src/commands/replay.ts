/**
 * `samegame replay STORE [--capsule DIR]`: with no key and no network, every stored prompt and
 * request re-rendered from the stored design and compared byte for byte, every raw response re-read
 * by today's parser (decisions that change are listed), the analysis recomputed and compared with
 * the stored outputs (a capsule's outputs/, else the folder analyze writes beside the store), and a
 * capsule's SHA-256 manifest checked. Exit 0 only if all agree (docs/methods.md §25).
 */
import { sealedRun } from '../sources/store.js';
import { storeReader } from '../sources/open-run.js';
import { storeGuard } from '../live/store/integrity.js';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { readSeal } from '../live/store/seal.js';
import { replayTrials, type Scorer } from '../live/replay/replay.js';
import { storeOutputs } from './pipeline/store-analysis.js';
import { defaultAnalyzeOut } from './pipeline/store-out.js';
import { checkManifest, type ReplayDifference } from './sha256-manifest.js';

export type { ReplayDifference } from './sha256-manifest.js';
import { commandsMsg } from './messages.js';
import { analyzeMsg } from '../core/messages/analyze.js';

export interface ReplayOptions {
  readonly store: string;
  /** A capsule folder (samegame capsule): its manifest is checked and its outputs/ compared. */
  readonly capsule?: string;
  /** The run (default: the sealed run, else the latest). */
  readonly runId?: number;
  /** Today's parser (default: the one runs use); tests give another to show parser drift. */
  readonly score?: Scorer;
  readonly logger?: Logger;
}

export interface ReplayResult {
  readonly agrees: boolean;
  readonly trials: number;
  readonly differences: readonly ReplayDifference[];
  /** Output files compared. */
  readonly outputs: number;
}

/** A file's text (`read`) with the store path it names (metrics.json input.path) replaced: outputs compare wherever the store is. */
function storeFree(read: (file: string) => string): (file: string) => string {
  let path: string | undefined;
  try {
    path = (JSON.parse(read(join('reports', 'metrics.json'))) as { input?: { path?: string } }).input?.path;
  } catch { path = undefined; }
  const quoted = path === undefined ? undefined : JSON.stringify(path).slice(1, -1);
  return (file) => {
    const text = read(file);
    return quoted === undefined || quoted === '' ? text : text.split(quoted).join('<store>');
  };
}

/** The analysis recomputed (tables, no figures; computed, not written) and compared file by file with the stored outputs. */
async function compareOutputs(store: string, runId: number, stored: string, logger: Logger): Promise<{ n: number; diffs: ReplayDifference[] }> {
  if (!existsSync(join(stored, 'reports'))) { logger.warn(commandsMsg.noOutputs(stored)); return { n: 0, diffs: [] }; }
  const out = resolve(stored);
  const computed = new Map((await storeOutputs({ kind: 'store', file: store, runId }, { out, figures: false })).files
    .map((f) => [relative(out, f.path).split('\\').join('/'), Buffer.from(f.content).toString('utf8')]));
  const now = storeFree((f) => computed.get(f.split('\\').join('/')) ?? '');
  const then = storeFree((f) => readFileSync(join(stored, f), 'utf8'));
  const diffs: ReplayDifference[] = [];
  const files = [...computed.keys()].sort();
  for (const f of files) {
    if (!existsSync(join(stored, f))) diffs.push({ kind: 'output', trial: f, detail: commandsMsg.outputMissing() });
    else if (now(f) !== then(f)) diffs.push({ kind: 'output', trial: f, detail: commandsMsg.outputDiffers() });
  }
  return { n: files.length, diffs };
}

/** Replay a store (and a capsule): throws a UserError (exit 1) after listing the differences when anything disagrees. */
export async function replay(o: ReplayOptions): Promise<ReplayResult> {
  const logger = o.logger ?? silentLogger;
  const manifest = o.capsule === undefined ? [] : checkManifest(o.capsule);
  const { trials, runId } = storeGuard(o.store, (store) => {
    const seal = readSeal(store.database);
    const run = sealedRun(store, o.store, seal, o.runId);
    if (!run) throw new UserError(analyzeMsg.noValidTrials(o.store));
    return { trials: replayTrials(store, run, o.score), runId: run.id };
  }, storeReader(o.store));
  const outputs = await compareOutputs(o.store, runId, o.capsule === undefined ? defaultAnalyzeOut(o.store) : join(o.capsule, 'outputs'), logger);
  const differences = [...manifest, ...trials.differences, ...outputs.diffs];
  for (const d of differences) logger.print?.(`${commandsMsg.replayDifference(d.kind, d.trial, d.detail)}\n`);
  logger.info(commandsMsg.replaySummary(trials.trials, trials.notRendered, trials.notReread, outputs.n));
  if (differences.length > 0) throw new UserError(commandsMsg.replayDisagrees(differences.length), 1);
  logger.info(commandsMsg.replayAgrees());
  return { agrees: true, trials: trials.trials, differences, outputs: outputs.n };
}
