/**
 * The analyses of a trial store (`samegame analyze STORE`; capsule and replay through
 * store-analysis.ts), by the kind of the stored run (RunKind, decided once by sources/store.ts
 * runKind): a typed registry (docs/architecture.md, rule 5), so a new kind of run is an entry here,
 * not a branch in a command. Each entry computes its tables, or its tables, figures and report, as
 * values (the pipeline writes them, write.ts), and says what the CLI prints and its checks.
 */
import type { RunKind, StoreTable } from '../../sources/store.js';
import { openRun } from '../../sources/open-run.js';
import { UserError } from '../../core/errors.js';
import type { RepeatedDecisions } from '../../core/decisions.js';
import type { ScoredProbe } from '../../live/probes/comprehension.js';
import type { VerificationReport } from '../../core/checks.js';
import { silentLogger, type Logger } from '../../core/logger.js';
import { printTwoFraming } from './direct-run-print.js';
import { printSelective } from './selective-print.js';
import { printRepeated } from './repeated-print.js';
import { designFacts, type DesignFacts } from '../../analyses/compare/design-facts.js';
import { DEFAULT_THRESHOLDS } from '../../analyses/selective/estimand.js';
import { namedSelective, selectiveAnalysis, selectiveReportFile, type SelectiveAnalysis } from '../../analyses/selective/index.js';
import { inputNames } from '../input-names.js';
import { figureFiles } from '../../render/figure-files.js';
import { TWO_FRAMING_DEFAULTS as DEFAULTS } from '../../analyses/two-framing/index.js';
import { analyzeDirectRun, type AnalyzeResult } from './direct-run.js';
import { analyzePresentationFiles } from './direct-run-report.js';
import { analyzeCommand, defaultAnalyzeOut, type StoreAnalyzeOptions } from './store-settings.js';
import { analyzeRepeated, repeatedTables, type RepeatedResult } from './repeated.js';
import { labelSynthetic, type Origin } from '../../core/provenance.js';
import { pipelineMsg } from './messages.js';

export type { RunKind } from '../../sources/store.js';

/** A stored run as read to choose its analysis: a one-shot or context-enrichment run's cell table and design facts, or a repeated run. */
export type StoredRun =
  | { readonly kind: 'one-shot' | 'enrichment'; readonly source: StoreTable; readonly facts: DesignFacts; readonly origin: Origin }
  | { readonly kind: 'repeated'; readonly store: string; readonly decisions: RepeatedDecisions; readonly probes: readonly ScoredProbe[] };

interface ResultOf { 'one-shot': AnalyzeResult; enrichment: SelectiveAnalysis; repeated: RepeatedResult }
export type AnyAnalysis = ResultOf[RunKind];

export interface RunKindAnalysis<R> {
  /** The kind of design the run's analysis reads, as messages name it. */
  readonly design: string;
  /** The tables of the analysis (its files: the tables alone). */
  readonly analyze: (run: StoredRun, opts: StoreAnalyzeOptions) => R;
  /** Tables, figures and report (its files: all of them). */
  readonly withFigures: (run: StoredRun, opts: StoreAnalyzeOptions) => Promise<R>;
  /** What the CLI prints of the result (logger.print: the table; the logger: the files and notes). */
  readonly print: (res: R, logger: Logger, opts: StoreAnalyzeOptions) => void;
  /** The Appendix C checks of the result, if it has them (a failed one: the CLI's exit code 3). */
  readonly checks: (res: R) => VerificationReport | undefined;
}

/** The run of the store to analyze, read once as its kind needs (sources/open-run.ts: the store opened once). */
export function readStoredRun(opts: Pick<StoreAnalyzeOptions, 'store' | 'runId' | 'verifyStore'>): StoredRun {
  let facts: DesignFacts | undefined;
  const r = openRun(opts.store, { runId: opts.runId, verify: opts.verifyStore, order: (run) => (facts = designFacts(run.designJson)), repeated: true });
  if (r.repeated) return { kind: 'repeated', store: opts.store, ...r.repeated };
  if (r.kind === 'repeated' || r.source === undefined) throw new Error('a repeated run is read with its decisions');
  return { kind: r.kind, source: r.source, facts: facts ?? designFacts(r.run.designJson), origin: r.origin };
}

function oneShot(run: StoredRun, wanted: 'one-shot' | 'enrichment', opts: StoreAnalyzeOptions): { source: StoreTable; facts: DesignFacts; origin: Origin } {
  if (run.kind !== wanted) throw new UserError(pipelineMsg.wrongDesignKind(opts.store, RUN_KINDS[run.kind].design, RUN_KINDS[wanted].design));
  if (opts.factors?.length) throw new UserError(pipelineMsg.factorRepeatedOnly(opts.store));
  if (opts.rounds !== undefined) throw new UserError(pipelineMsg.roundsRepeatedOnly(opts.store));
  return run;
}

function selectiveOf(run: StoredRun, opts: StoreAnalyzeOptions): SelectiveAnalysis {
  const { source, origin } = oneShot(run, 'enrichment', opts);
  if (opts.expect !== undefined) throw new UserError(pipelineMsg.expectNeedsTwoFraming(opts.store));
  const thresholds = { maxSurface: opts.thresholds?.maxSurface ?? DEFAULT_THRESHOLDS.maxSurface,
    minWorldLo: opts.thresholds?.minWorldLo ?? DEFAULT_THRESHOLDS.minWorldLo };
  const settings = { seed: opts.seed ?? DEFAULTS.seed, reps: opts.reps ?? DEFAULTS.reps };
  // A context-enrichment run names its models only (its games and framings are the design's conditions).
  const names = inputNames(source.table, origin, opts.namesFile, opts.logger ?? silentLogger, ['model'])?.map;
  return selectiveAnalysis(source, {
    ...opts, storeSha256: origin.source.sha256, thresholds, out: opts.out ?? defaultAnalyzeOut(opts.store), ...(names ? { names } : {}),
    command: analyzeCommand(opts.store, source.run.id, settings, { thresholds, names: opts.namesFile, latexWidth: opts.latexWidth }),
  });
}

const twoFramingRun = (run: StoredRun, opts: StoreAnalyzeOptions): AnalyzeResult => {
  const { source, facts, origin } = oneShot(run, 'one-shot', opts);
  return analyzeDirectRun(source, facts, origin, opts, opts.logger ?? silentLogger);
};

/** The repeated run; what applies to one-shot runs only (--expect, --compare) is refused in one line. */
function repeatedRun(run: StoredRun, opts: StoreAnalyzeOptions) {
  if (run.kind !== 'repeated') throw new UserError(pipelineMsg.wrongDesignKind(opts.store, RUN_KINDS[run.kind].design, RUN_KINDS.repeated.design));
  if (opts.expect !== undefined) throw new UserError(pipelineMsg.expectOneShotOnly(opts.store));
  if (opts.compare !== undefined) throw new UserError(pipelineMsg.compareOneShotOnly(opts.store));
  const probes = run.probes.length ? { probes: [...run.probes] } : {};
  return { decisions: run.decisions, opts: { ...opts, out: opts.out ?? defaultAnalyzeOut(opts.store), ...probes } };
}

/** The one registry from the kind of a stored run to its analysis. */
export const RUN_KINDS: { readonly [K in RunKind]: RunKindAnalysis<ResultOf[K]> } = {
  'one-shot': {
    design: 'two-framing',
    analyze: twoFramingRun,
    async withFigures(run, opts) {
      const res = twoFramingRun(run, opts);
      return { ...res, files: [...res.files, ...labelSynthetic(await analyzePresentationFiles(res, opts.logger, opts.figureStyle), res.origin)] };
    },
    print: (res, logger, opts) => printTwoFraming(res, logger, opts.compare),
    checks: (res) => res.verification,
  },
  enrichment: {
    design: 'context-enrichment',
    analyze: (run, opts) => selectiveOf(run, opts),
    async withFigures(run, opts) {
      const res = selectiveOf(run, opts);
      return { ...res, files: [...res.files, ...await figureFiles(res.figures, res.outDir, opts.logger, undefined, opts.figureStyle),
        selectiveReportFile(namedSelective(res, res.names))] };
    },
    print: (res, logger) => printSelective(namedSelective(res, res.names), logger),
    checks: () => undefined,
  },
  repeated: {
    design: 'repeated',
    analyze(run, opts) {
      const r = repeatedRun(run, opts);
      return repeatedTables(r.decisions, r.opts);
    },
    withFigures(run, opts) {
      const r = repeatedRun(run, opts);
      return analyzeRepeated(r.decisions, r.opts);
    },
    print: (res, logger) => printRepeated(res, logger),
    checks: (res) => res.twoFraming?.verification,
  },
};
