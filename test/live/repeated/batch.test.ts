/**
 * Repeated games through the Batch API: akata-pd-sim with 4 matches per cell instead of 10 (the
 * shipped design otherwise: 40 matches, 10 rounds, 560 decisions; smaller only to keep the suite
 * fast — the batch path does not depend on the number of matches) with its models routed to loopback servers that answer deterministically from the prompt. The
 * batch run sends round t of every open match as one batch per model — 10 rounds of batches — and
 * stores the same decisions as a synchronous run against the same answers — also when killed
 * (SIGKILL at the batch crash points, src/live/batch/crash.ts) and resumed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import * as matchPlans from '../../../src/live/repeated/plan.js';
import { startBatchLoopback, type BatchLoopback } from '../../helpers/loopback-batch.js';
import { startLoopback, type Loopback } from '../../helpers/loopback-openai.js';
import { cleanEnv, ROOT, runCli, spawnCli } from '../../helpers/cli.js';
import { optionAnswer } from '../../helpers/repeated.js';

const DECISIONS = 560; // 2 models × (self 2 + other 2 + three strategies 1) × 4 matches × 10 rounds, by hand
let dir: string;
let DESIGN: string;
let bsrv: BatchLoopback;
let ssrv: Loopback;
const env = () => cleanEnv({ OPENAI_API_KEY: 'sk-loop' });
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-rbatch-'));
  DESIGN = join(dir, 'akata-pd-sim.yaml');
  const shipped = readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8');
  expect(shipped).toMatch(/^trials: 10$/m);
  writeFileSync(DESIGN, shipped.replace(/^trials: 10$/m, 'trials: 4'));
  bsrv = await startBatchLoopback({ answer: (p) => optionAnswer(p) });
  ssrv = await startLoopback({ answer: (p) => optionAnswer(p) });
});
afterAll(async () => { await bsrv.close(); await ssrv.close(); rmSync(dir, { recursive: true, force: true }); });

function decisions(path: string): string[] {
  const db = new Database(path, { readonly: true });
  const r = db.prepare(`SELECT model, match_id, round, seat, opponent, opponent_move, status, action, text, prompt FROM trial_records
    ORDER BY match_id, round, seat`).all().map((x) => JSON.stringify(x));
  db.close();
  return r;
}

it('a batch run and a synchronous run store the same decisions; one batch per model and round', async () => {
  const common = ['run', DESIGN, '--provider', 'openai-responses', '--model', 'loop'];

  const b = await runCli([...common, '--store', join(dir, 'b.sqlite'), '--base-url', bsrv.url, '--batch', '--poll', '0.01'], { env: env() });
  expect(b.code, b.stderr).toBe(0);
  const s = await runCli([...common, '--store', join(dir, 's.sqlite'), '--base-url', ssrv.url, '--concurrency', '8'], { env: env() });
  expect(s.code, s.stderr).toBe(0);
  const batch = decisions(join(dir, 'b.sqlite'));
  expect(batch).toHaveLength(DECISIONS);
  expect(batch).toEqual(decisions(join(dir, 's.sqlite')));
  // 10 rounds × 2 models; each batch holds one model's decisions of one round (rep → round: ⌊rep / 2⌋ mod 10 + 1).
  expect(bsrv.batches.size).toBe(20);
  for (const f of bsrv.files.values()) {
    const rounds = new Set(f.trim().split('\n').map((l) => Math.floor(Number((JSON.parse(l) as { custom_id: string }).custom_id.split('|')[3]) / 2) % 10 + 1));
    expect(rounds.size).toBe(1);
  }
}, 120_000);

it('killed between a batch\'s create call and its commit, then after a collect, and resumed: the same decisions, no batch created twice', async () => {
  const srv = await startBatchLoopback({ answer: (p) => optionAnswer(p) });
  try {
    const store = join(dir, 'crash.sqlite');
    const args = ['run', DESIGN, '--provider', 'openai-responses', '--model', 'loop', '--store', store, '--base-url', srv.url, '--batch', '--poll', '0.01'];
    for (const point of ['create-call', 'collected']) {
      const r = await spawnCli(args, { env: cleanEnv({ OPENAI_API_KEY: 'sk-loop', SAMEGAME_CRASH_AT: point }) });
      expect(r.signal, point).toBe('SIGKILL');
    }
    const r = await runCli(args, { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(decisions(store)).toEqual(decisions(join(dir, 's.sqlite')));
    expect([...srv.createdPerChunk.values()].every((n) => n === 1)).toBe(true);
  } finally {
    await srv.close();
  }
}, 120_000);

it('a round left open by --batch --no-wait (rendered once), resumed without --batch: refused in one line before any call (never asked twice)', async () => {
  const small = join(dir, 'open-round.yaml');
  writeFileSync(small, readFileSync(DESIGN, 'utf8').replace(/^trials: 4$/m, 'trials: 1').replace(/^ {2}rounds: 10$/m, '  rounds: 2'));
  const store = join(dir, 'open-round.sqlite');
  const common = ['run', small, '--store', store, '--provider', 'openai-responses', '--model', 'loop'];
  // Each decision of the round sent is rendered once (the summary counts the round left open without rendering it again).
  // The matches are planned once by the design's check of its longest prompt, once by the run.
  const rendered = vi.spyOn(matchPlans, 'decisionSpec');
  const planned = vi.spyOn(matchPlans, 'planMatches');
  try {
    const b = await runCli([...common, '--base-url', bsrv.url, '--batch', '--no-wait', '--poll', '0.01'], { env: env() });
    expect(b.code, b.stderr).toBe(0);
    expect(rendered).toHaveBeenCalledTimes(14);
    expect(planned).toHaveBeenCalledTimes(2);
  } finally {
    rendered.mockRestore();
    planned.mockRestore();
  }
  // Round 1 of every match, one file per model: 2 models × (2 + 2 + 3 seats of LLMs) × 1 match, by hand.
  const db = new Database(store, { readonly: true });
  const open = db.prepare("SELECT count(*) FROM batch_members m JOIN batch_chunks c ON c.id = m.chunk_id WHERE c.state = 'created'").pluck().get();
  db.close();
  expect(open).toBe(14);
  const before = ssrv.log.length;
  const s = await runCli([...common, '--base-url', ssrv.url], { env: env() });
  expect(s.code).toBe(2);
  expect(s.stderr.trim()).toBe(`samegame: ${store}: 14 of this run's trials or probes wait in batches not yet collected: run again with --batch to collect `
    + 'them (samegame batches lists them; --cancel stops them, and the next run --batch collects what they answered)');
  expect(ssrv.log.length).toBe(before);
  expect(decisions(store)).toEqual([]);
}, 120_000);
