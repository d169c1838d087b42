/**
 * The audit's searches on a worker give the results of the calling thread, task for task, and
 * the files on two threads are those of one, byte for byte (whichever thread takes which task); a worker that dies mid-task costs time, not results; small tables stay on
 * one thread (a worker's start costs more than it saves there).
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/commands/audit.js';
import { MIN_CELLS_FOR_WORKERS, startSearchTasks } from '../../src/commands/audit-threads.js';
import { auditPlan, auditSettings, auditStart, SearchWorkspace } from '../../src/analyses/audit/index.js';
import { runSearchesHere } from '../../src/analyses/audit/audit.js';
import { readRates } from '../../src/sources/rates-csv.js';
import { registerTable3Column, table3Columns } from '../../src/stats/table3.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-threads-'));
/** The first 12 models of the 240-cell fixture: 96 cells, the smallest table that gets workers. */
const lines = readFileSync('test/fixtures/audit/rates-240-cells.csv', 'utf8').trim().split('\n');
const file96 = join(dir, 'rates-96.csv');
writeFileSync(file96, `${[lines[0], ...lines.slice(1).filter((l) => Number(l.slice(1, 3)) <= 12)].join('\n')}\n`);
const quick = { reps: 200, searchReps: 100 };

function stageOf(file: string) {
  const settings = auditSettings(quick);
  const input = readRates(file, { base: settings.base, alt: settings.alt });
  return { input, settings, stage: auditStart(input, settings) };
}

/** Every task of the 96-cell table on the calling thread, computed once for the tests that compare with it. */
let serial: ReturnType<typeof runSearchesHere> | undefined;
const onOneThread = () => (serial ??= runSearchesHere(stageOf(file96).stage));

describe('the audit searches on two threads', () => {
  it('give every task the result of one thread when the worker does them all', async () => {
    const { input, settings } = stageOf(file96);
    expect(input.table.cells).toHaveLength(MIN_CELLS_FOR_WORKERS);
    const plan = auditPlan(input, settings);
    const run = startSearchTasks(plan.job, plan.tasks, 2);
    expect(run.workers).toBe(1);
    // This thread joins only once the worker has taken every task and exited.
    await run.ended;
    const threaded = await run.finish(new SearchWorkspace(plan.job));
    expect(run.fromWorkers()).toBe(plan.tasks.length);
    expect(threaded).toEqual(onOneThread());
  });

  it('write the same audit.json, audit.md and figures as one thread', async () => {
    const one = await audit({ data: file96, out: join(dir, 'one'), threads: 1, ...quick });
    const two = await audit({ data: file96, out: join(dir, 'two'), threads: 2, ...quick });
    const bytes = (r: typeof one, base: string) => r.files.map((f) => [f.path.slice(resolve(base).length), Buffer.from(f.content).toString('base64')]);
    expect(bytes(two, join(dir, 'two'))).toEqual(bytes(one, join(dir, 'one')));
    expect(one.files.map((f) => f.path).some((p) => p.endsWith('audit.json'))).toBe(true);
  }, 240_000); // two whole audits of 96 cells, figures included: over a minute on a loaded machine

  it('redo the tasks of a worker that died after taking them', async () => {
    const { input, settings } = stageOf(file96);
    const plan = auditPlan(input, settings);
    const failing = pathToFileURL(resolve('test/fixtures/audit/failing-search-worker.mjs')).href;
    const run = startSearchTasks(plan.job, plan.tasks, 2, failing);
    expect(run.workers).toBe(1);
    // The worker takes the first two tasks (the costliest) and dies before this thread takes any.
    await run.ended;
    const threaded = await run.finish(new SearchWorkspace(plan.job));
    expect(run.fromWorkers()).toBe(0);
    expect(threaded).toEqual(onOneThread());
  });

  it('run on the calling thread a Table 3 column registered at run time, which the worker\'s spec lacks', async () => {
    const shift = table3Columns().find((c) => c.column === 'shift')!;
    const unregister = registerTable3Column({ ...shift, column: 'shift_again', label: 'Shift again',
      names: { cell: 'sa_raw', cellConservative: 'sa_conservative', group: 'sa_raw', groupConservative: 'sa' }, audit: { ...shift.audit!, groups: 'pooled', order: 3 } });
    try {
      const { input, settings } = stageOf(file96);
      const plan = auditPlan(input, settings);
      expect(plan.job.columns).toContain('shift_again');
      const run = startSearchTasks(plan.job, plan.tasks, 2);
      expect(run.workers).toBe(1);
      await run.ended; // the worker refused the job: it took no task
      const threaded = await run.finish(new SearchWorkspace(plan.job));
      expect(run.fromWorkers()).toBe(0);
      const here = runSearchesHere(stageOf(file96).stage);
      expect(threaded).toEqual(here);
      expect(here.some((r) => r.kind === 'tipping' && r.finding.id === 'shift_again-excludes-0[Pooled]')).toBe(true);
    } finally { unregister(); }
  });

  it('stay on one thread below the cell threshold, whatever --threads says', () => {
    const { input, settings } = stageOf('data/lore-heydari-2024/rates.csv');
    const plan = auditPlan(input, settings);
    const run = startSearchTasks(plan.job, plan.tasks, 4);
    expect(run.workers).toBe(0);
  });
});
