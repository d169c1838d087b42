/**
 * Crash safety: SIGKILL the CLI mid-run, start it again. Every trial ends up in the
 * store exactly once, and no trial committed before the kill is requested again — counted on the
 * loopback server per trial key (the x-samegame-trial header).
 *
 * Nothing here waits on wall time, so a busy machine makes it slower, never wrong: the server
 * holds every answer after the K-th (a gate), so the run is certainly mid-way when it is killed
 * or interrupted, and the test waits on events (K answers sent, a line on stderr, exit). The
 * test timeout is only a backstop for a machine shared by many processes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { cleanEnv, ROOT, runCli, startCli } from '../helpers/cli.js';
import { cliMsg } from '../../src/cli/messages.js';

const QUICKSTART = join(ROOT, 'data/designs/quickstart.yaml');
const TOTAL = 2 * 4 * 4 * 25; // quickstart: models × games × framings × trials, by hand
const CONCURRENCY = 4;
const BACKSTOP_MS = 300_000;

/** Answers pass until `limit` have been sent; later ones wait until release(). */
function gateAfter(limit: number) {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let sent = 0;
  return {
    hold: () => (sent++ < limit ? Promise.resolve() : gate),
    release: () => release(),
  };
}

/** Resolves on the first chunk of the child's stderr containing `text`. */
function stderrLine(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = '';
    const on = (d: Buffer) => { seen += d.toString('utf8'); if (seen.includes(text)) { child.stderr!.off('data', on); resolve(); } };
    child.stderr!.on('data', on);
  });
}

let dir: string;
let srv: Loopback;
const killGate = gateAfter(TOTAL / 4);
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-kill-'));
  srv = await startLoopback({ hold: killGate.hold });
});
afterAll(async () => {
  killGate.release();
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

function storedKeys(path: string): string[] {
  const db = new Database(path); // read-write: opening recovers the WAL the killed process left
  const rows = db.prepare("SELECT model || '|' || game || '|' || framing || '|' || rep AS k FROM trials WHERE status IN ('ok', 'invalid')").pluck().all() as string[];
  db.close();
  return rows;
}

it('kill -9 mid-run, then resume: every trial once, nothing completed requested again', async () => {
  const store = join(dir, 'k.sqlite');
  const args = ['run', QUICKSTART, '--store', store, '--provider', 'openai-chat', '--base-url', srv.url, '--model', 'loop',
    '--concurrency', String(CONCURRENCY)];
  const first = startCli(args, { env: cleanEnv() });
  // Kill once a quarter of the run is answered and the next calls are held: certainly mid-way.
  await srv.waitFor('answered', TOTAL / 4);
  await srv.waitFor('request', TOTAL / 4 + 1);
  first.child.kill('SIGKILL');
  const r1 = await first.done;
  expect(r1.signal).toBe('SIGKILL');

  // The store a killed run left behind is readable as it is (read-only export, before any recovery).
  const exported = await runCli(['export', store, '--format', 'csv']);
  expect(exported.code).toBe(0);
  const before = new Set(storedKeys(store));
  expect(exported.stdout.trim().split('\n')).toHaveLength(1 + before.size);
  expect(before.size).toBeGreaterThan(0);
  expect(before.size).toBeLessThan(TOTAL);
  const phase1 = new Map(srv.requests);
  srv.requests.clear();
  killGate.release();

  const r2 = await runCli(args, { env: cleanEnv() });
  expect(r2.code).toBe(0);
  expect(r2.stderr).toContain(`${before.size} already stored`);

  // Every trial exactly once.
  const db = new Database(store, { readonly: true });
  const total = db.prepare('SELECT count(*) FROM trials').pluck().get();
  const distinct = db.prepare("SELECT count(DISTINCT model || '|' || game || '|' || framing || '|' || rep) FROM trials").pluck().get();
  const runs = db.prepare('SELECT count(*) FROM runs').pluck().get();
  db.close();
  expect([total, distinct, runs]).toEqual([TOTAL, TOTAL, 1]);

  // Nothing committed before the kill was requested again …
  const again = [...before].filter((k) => srv.requests.has(k));
  expect(again).toEqual([]);
  // … and what was requested twice is at most what was in flight at the kill.
  const twice = [...srv.requests.keys()].filter((k) => phase1.has(k));
  expect(twice.length).toBeLessThanOrEqual(CONCURRENCY);
  // The second run requested exactly the trials the first had not committed.
  expect(srv.requests.size).toBe(TOTAL - before.size);
}, BACKSTOP_MS);

it('Ctrl-C (SIGINT) finishes the calls in flight, stores them and exits 130; the rerun completes', async () => {
  const intGate = gateAfter(40);
  const server = await startLoopback({ hold: intGate.hold });
  try {
    const store = join(dir, 'int.sqlite');
    const args = ['run', QUICKSTART, '--store', store, '--provider', 'openai-chat', '--base-url', server.url, '--model', 'loop',
      '--concurrency', String(CONCURRENCY)];
    const run = startCli(args, { env: cleanEnv() });
    await server.waitFor('answered', 40);
    await server.waitFor('request', 41); // the next calls are in flight, held
    const stopping = stderrLine(run.child, cliMsg.stopping());
    run.child.kill('SIGINT');
    await stopping; // the run has stopped dispatching: now let the calls in flight finish
    intGate.release();
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(cliMsg.stopping());
    const stored = new Set(storedKeys(store));
    // Every call the server answered was stored: none was dropped on the way out.
    expect([...server.answered.keys()].filter((k) => !stored.has(k))).toEqual([]);
    expect(stored.size).toBeLessThan(TOTAL);
    server.requests.clear();
    const r2 = await runCli(args, { env: cleanEnv() });
    expect(r2.code).toBe(0);
    expect(server.requests.size).toBe(TOTAL - stored.size);
  } finally {
    intGate.release();
    await server.close();
  }
}, BACKSTOP_MS);
