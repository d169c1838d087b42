/**
 * The analysis of a trial store, shared by the commands that analyse one (analyze; capsule writes
 * a capsule's outputs with it, replay recomputes them): the analysis of the run's kind (RUN_KINDS),
 * a sealed store's plan settings and verdicts, what the kind prints and its checks.
 */
import type { RoundRange } from '../../core/decisions.js';
import type { OutputFile } from '../../core/atomic.js';
import { silentLogger } from '../../core/logger.js';
import { storeGuard } from '../../live/store/integrity.js';
import type { SourceOf } from '../../sources/input.js';
import { RUN_KINDS, readStoredRun, type AnyAnalysis, type RunKindAnalysis } from './store-kinds.js';
import type { StoreAnalyzeOptions } from './store-settings.js';
import { roundsOf } from './repeated-tables.js';
import { checkOut, type CommandOptions, type FigureOption } from '../command-options.js';
import { sealedOptions, verdictFiles } from './sealed.js';
import { defaultAnalyzeOut } from './store-out.js';
import { finish, type CommandOutputs } from './write.js';

/** The settings of a store's analysis: those of StoreAnalyzeOptions (the store comes as the source), with the rounds as given. */
export interface StoreRouteOptions extends Omit<StoreAnalyzeOptions, 'store' | 'runId' | 'rounds'>, CommandOptions, FigureOption {
  /** Repeated play: the rounds the two-framing tables read (`1`, `1-3`; all by default). */
  readonly rounds?: string | RoundRange;
}

/**
 * The analysis of the store's run, its settings (a sealed plan's where no flag is given), its kind and a sealed plan's verdicts
 * (written with the analysis's files); a store failure ends in one line naming it.
 */
function analysedRun(file: string, given: StoreAnalyzeOptions, opts: StoreRouteOptions) {
  return storeGuard(file, async () => {
    // A sealed store: the plan's settings where no flag is given, and its verdicts (sealed.ts).
    const sealed = sealedOptions(given);
    const o = sealed?.opts ?? given;
    const stored = readStoredRun(o);
    // Flags that differ from the sealed plan: the run's origin says so, in metrics.json and the report.
    const run = sealed?.exploratory.length && 'origin' in stored ? { ...stored, origin: { ...stored.origin, exploratory: sealed.exploratory } } : stored;
    const k = RUN_KINDS[run.kind] as RunKindAnalysis<AnyAnalysis>;
    const res = opts.figures === false ? k.analyze(run, o) : await k.withFigures(run, o);
    const verdicts: OutputFile[] = sealed ? verdictFiles(sealed, o, opts.logger ?? silentLogger) : [];
    return { res, kind: k, o, verdicts };
  });
}

/** What the analysis of a trial store writes (under `out`, else beside the store), prints and checks: computed, nothing written. */
export async function storeOutputs(source: SourceOf<'store'>, opts: StoreRouteOptions): Promise<CommandOutputs<AnyAnalysis>> {
  const given: StoreAnalyzeOptions = { ...opts, store: source.file, runId: source.runId, rounds: roundsOf(opts.rounds) };
  const { res, kind, o, verdicts } = await analysedRun(source.file, given, opts);
  return { result: res, files: [...res.files, ...verdicts], print: (logger) => kind.print(res, logger, o), checks: kind.checks(res) };
}

/**
 * A trial store (`source`: its file and run, else the latest): the analysis of its run's kind, written
 * as one atomic set unless dryRun (under `out`, else beside the store), then what that kind prints.
 */
export async function analyzeStore(source: SourceOf<'store'>, opts: StoreRouteOptions): Promise<AnyAnalysis> {
  checkOut(opts, defaultAnalyzeOut(source.file));
  return finish(await storeOutputs(source, opts), opts);
}
