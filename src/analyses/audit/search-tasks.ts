import type { CellTable } from '../../core/cells.js';
import { POOLED } from '../../core/names.js';
import type { TwoFramingLayout, TwoFramingSettings } from '../two-framing/index.js';
import { ReplicateState } from './replicate-state.js';
import { readingBounds, readingErrorRange, readingErrorStatistics, reconstructedCount, type ReadingErrorRange, type ReadingRanges } from './reading-error.js';
import { intervalConclusions, intervalFinding, type IntervalFinding } from './tipping.js';
import { influence, type InfluenceResult } from './influence.js';
import { table3Column } from '../../stats/table3.js';

/**
 * The audit's searches as independent tasks: one reading-error range per headline statistic,
 * one tipping-point search per interval conclusion, and the influence analysis. Each task's result is a pure function of the
 * observed table and the settings — every search leaves its states at the observed counts, and the
 * states' caches only save work — so the tasks may run in any order, on any thread, and the audit's
 * files are the same bytes. A `SearchJob` is plain data (it crosses to a worker thread as is).
 */
export interface SearchJob {
  readonly table: CellTable;
  readonly layout: TwoFramingLayout;
  readonly settings: TwoFramingSettings & { readonly readingError: number; readonly searchReps: number; readonly readingRanges?: ReadingRanges };
  /** Cells reconstructed from rates (the only ones reading error moves). */
  readonly reconstructed: readonly boolean[];
  /**
   * The Table 3 columns searched, by name (those that declare an audit conclusion). A worker
   * thread finds them in its own spec: a column registered at run time on the calling thread is
   * not there, the worker fails and the calling thread runs its tasks (commands/audit-threads.ts).
   */
  readonly columns: readonly string[];
}

/** A reading-error range (index into `readingErrorStatistics`), a tipping search (index into `intervalConclusions`) or the influence analysis (index 0). */
export interface SearchTask { readonly kind: 'reading' | 'tipping' | 'influence'; readonly index: number }

export type SearchTaskResult =
  | { readonly kind: 'reading'; readonly index: number; readonly range: ReadingErrorRange; readonly evaluations: number }
  | { readonly kind: 'tipping'; readonly index: number; readonly finding: IntervalFinding }
  | { readonly kind: 'influence'; readonly index: 0; readonly influence: InfluenceResult };

/**
 * The tasks of a job, the costliest first so that two threads taking them in turn finish close
 * together: Pooled's searches read every cell, a model's only its own; interval ends search, points
 * are closed-form.
 */
export function searchTasks(job: SearchJob): SearchTask[] {
  const given = reconstructedCount(job.table.cells.length, job.reconstructed) === 0;
  const reading = given ? [] : readingErrorStatistics(job.layout.models, job.columns).map((s, index) => ({ kind: 'reading' as const, index, s }));
  const tipping = intervalConclusions(job.layout.models, job.columns.map(table3Column)).map((c, index) => ({ kind: 'tipping' as const, index,
    pooled: c.group === POOLED }));
  const cost = (t: (typeof reading)[number] | (typeof tipping)[number] | { kind: 'influence'; index: 0 }) =>
    t.kind === 'tipping' ? (t.pooled ? 4 : 2) : t.kind === 'influence' ? 3 : (t.s.group === POOLED ? 3 : 1) - (t.s.which === 'point' ? 1 : 0);
  return [...tipping, { kind: 'influence' as const, index: 0 as const }, ...reading]
    .map((t, order) => ({ t, order, c: cost(t) }))
    .sort((a, b) => b.c - a.c || a.order - b.order)
    .map(({ t }) => ({ kind: t.kind, index: t.index }));
}

/** One thread's replicate states for a job: runs tasks. */
export class SearchWorkspace {
  /** The state at full replicates (the calling thread's also serves the audit's assembly afterwards). */
  readonly full: ReplicateState;
  private readonly search: ReplicateState;
  private readonly observed: Int32Array;
  private readonly bound: { readonly down: Int32Array; readonly up: Int32Array };
  private readonly statistics: ReturnType<typeof readingErrorStatistics>;
  private readonly conclusions: ReturnType<typeof intervalConclusions>;

  constructor(private readonly job: SearchJob) {
    const { seed, attenuation, reps, searchReps } = job.settings;
    this.full = new ReplicateState(job.table, job.layout, { seed, attenuation, reps, columns: job.columns });
    this.search = new ReplicateState(job.table, job.layout, { seed, attenuation, reps: searchReps, columns: job.columns });
    this.observed = Int32Array.from(this.full.counts);
    this.bound = readingBounds(this.observed.length, job.settings.readingError, job.reconstructed, job.settings.readingRanges);
    this.statistics = readingErrorStatistics(job.layout.models, job.columns);
    this.conclusions = intervalConclusions(job.layout.models, this.full.columns);
  }

  run(task: SearchTask): SearchTaskResult {
    if (task.kind === 'reading') {
      const { group, kind, which } = this.statistics[task.index];
      const tally = { n: 0 };
      const range = readingErrorRange(this.full, this.observed, this.bound, group, kind, which, tally);
      return { kind: 'reading', index: task.index, range, evaluations: tally.n };
    }
    if (task.kind === 'influence') return { kind: 'influence', index: 0, influence: influence(this.full) };
    const { group, kind } = this.conclusions[task.index];
    return { kind: 'tipping', index: task.index, finding: intervalFinding(this.full, this.search, group, kind, this.job.settings) };
  }
}

/**
 * Take tasks in turn from a shared counter (`next[0]`, the next task's position; `next[1]`, the
 * tasks finished, for progress) until none is left; every thread of a job calls this with the
 * same tasks and counter.
 */
export function takeTasks(ws: SearchWorkspace, tasks: readonly SearchTask[], next: Int32Array,
  onResult: (position: number, r: SearchTaskResult) => void): void {
  for (let p = Atomics.add(next, 0, 1); p < tasks.length; p = Atomics.add(next, 0, 1)) {
    const r = ws.run(tasks[p]);
    Atomics.add(next, 1, 1);
    onResult(p, r);
  }
}
