import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { compiledModule } from '../core/paths.js';
import { SearchWorkspace, takeTasks, type SearchJob, type SearchTask, type SearchTaskResult } from '../analyses/audit/index.js';

/**
 * The audit's searches on several threads: the calling thread and `threads − 1` workers take
 * tasks in turn from one shared counter (the costliest first), each on replicate states of its
 * own. A task's result does not depend on the thread that ran it (see search-tasks.ts), so the
 * audit's files are the same bytes with any number of threads.
 *
 * Each worker posts every result as it finishes it. A worker that fails (its task threw, or the
 * thread died) is noticed when the calling thread has taken the last task: the tasks it had taken
 * but not answered are run on the calling thread, where a task that throws reports its error.
 *
 * The worker is plain JavaScript evaluated from a string that imports the compiled tasks
 * (dist/analyses/audit/search-tasks.js); without a build every task runs on the calling thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then((m) => {
  const ws = new m.SearchWorkspace(workerData.job);
  m.takeTasks(ws, workerData.tasks, new Int32Array(workerData.next), (position, result) => parentPort.postMessage({ position, result }));
});
`;

/**
 * Fewest cells for which workers pay for their start (loading the modules and warming caches of
 * their own, while the figure thread also wants a core). Measured on two cores, alternating
 * (shipped seed and replicates): 24 cells 1.88 s on one thread vs 2.10 s on two, 48 cells 2.24 vs
 * 2.40 s, 96 cells 3.81 vs 3.63 s, 240 cells 10.5 vs 7.9 s.
 */
export const MIN_CELLS_FOR_WORKERS = 96;

/** The default number of threads for the searches: the cores Node may use, at most 4. */
export function defaultSearchThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** Searches under way on worker threads; `finish` joins them from the calling thread. */
export interface SearchRun {
  /** Workers started. */
  readonly workers: number;
  /** Settles when every worker has exited. */
  readonly ended: Promise<void>;
  /** Tasks whose results came from a worker (known once `finish` has returned). */
  readonly fromWorkers: () => number;
  /**
   * Take the remaining tasks on the calling thread (`local`, its workspace) until none is left,
   * wait for the workers, and return every result by task position. `onProgress` sees the tasks
   * finished on every thread.
   */
  finish(local: SearchWorkspace, onProgress?: (done: number, total: number) => void): Promise<SearchTaskResult[]>;
  /** Stop the workers (the calling thread failed before joining): they must not keep the process alive. */
  cancel(): void;
}

/**
 * Start a job's tasks on `threads − 1` workers (none below MIN_CELLS_FOR_WORKERS or without a build). The
 * workers take tasks at once, while the calling thread does other work, until it joins (`finish`).
 * `module` is the compiled search-tasks module the workers import.
 */
export function startSearchTasks(job: SearchJob, tasks: readonly SearchTask[], threads: number,
  module = compiledModule('analyses/audit/search-tasks.js')): SearchRun {
  const results: (SearchTaskResult | undefined)[] = new Array(tasks.length);
  const next = new Int32Array(new SharedArrayBuffer(8));
  let fromWorkers = 0;
  const workers = module === undefined || job.table.cells.length < MIN_CELLS_FOR_WORKERS ? 0 : Math.max(0, Math.min(threads - 1, tasks.length - 1));
  const ended: Promise<void>[] = [];
  const started: Worker[] = [];
  for (let w = 0; w < workers; w++) {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, job, tasks, next: next.buffer } });
    started.push(worker);
    worker.on('message', (m: { position: number; result: SearchTaskResult }) => { results[m.position] = m.result; fromWorkers++; });
    ended.push(new Promise((resolve) => {
      worker.on('error', () => undefined); // its unanswered tasks are redone on the calling thread
      worker.on('exit', () => resolve());
    }));
  }
  const cancel = () => { for (const w of started) void w.terminate(); };
  const allEnded = Promise.all(ended).then(() => undefined);
  return {
    workers,
    ended: allEnded,
    fromWorkers: () => fromWorkers,
    cancel,
    async finish(local, onProgress) {
      try {
        takeTasks(local, tasks, next, (position, r) => {
          results[position] = r;
          onProgress?.(Atomics.load(next, 1), tasks.length);
        });
      } catch (e) {
        cancel();
        throw e;
      }
      await allEnded;
      tasks.forEach((t, p) => { results[p] ??= local.run(t); });
      onProgress?.(tasks.length, tasks.length);
      return results as SearchTaskResult[];
    },
  };
}
