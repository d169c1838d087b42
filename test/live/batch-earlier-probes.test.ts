/**
 * Comprehension probes left in open batches by `run --batch --no-wait --probes N`, in runs whose decisions go round by round
 * (a repeated game) or wave by wave (an adaptive run): the probe phase of a later `run --batch` collects them, also when it asks
 * no probes and has no decision left to send; the rounds and waves never take them for another run's (each probe batch polled
 * once per run, no "earlier run" line for the probes the same command sent); a batch run that collects an earlier run's
 * probes counts them apart from its own trials; and what waits in open batches is counted by the kind of its chunks.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { runBatches } from '../../src/live/batch/run.js';
import { batchKey } from '../../src/live/batch/keys.js';
import { liveBatchMsg } from '../../src/live/batch/messages.js';
import { openBatchesNotice } from '../../src/live/batch/list.js';
import { BatchChunks } from '../../src/live/store/batch-chunks.js';
import { loadDesign, parseDesign } from '../../src/live/design/design.js';
import { expandProbes, type ProbeContext } from '../../src/live/probes/questions.js';
import { prepareSession } from '../../src/live/runner/session.js';
import { TrialStore } from '../../src/live/store/store.js';
import { startBatchLoopback, type BatchLoopback } from '../helpers/loopback-batch.js';
import { cellAnswer } from '../helpers/batch-run.js';
import type { Answer } from '../helpers/loopback-openai.js';

const KEY = 'SG_EP_KEY';
const model = (url: string, id = 'm-oa') => `  - { id: ${id}, provider: openai-chat, model: loop, base_url: "${url}", api_key_env: ${KEY} }`;
const COMMON = `games: [prisoners-dilemma]
framings: [business, friend-sharing]
decoding: { temperature: 0.8, max_tokens: 8, seed: 1 }
scoring: sample
`;
/** One model, 2 rounds against always-cooperate, one match per framing: 2 × 2 decisions, by hand. */
const repeated = (url: string) => `name: rep-earlier\nmodels:\n${model(url)}\n${COMMON}trials: 1\nplay:\n  rounds: 2\n  opponents: [always-cooperate]\n`;
/** Two models, a shift rule over waves of 20 pairs. */
const adaptive = (url: string) => `name: ad-earlier\nmodels:\n${model(url, 'A')}\n${model(url, 'B')}\n${COMMON}trials: 40
stop: { target: shift, decide: sign, wave: 20, method: betting }\n`;
/** A one-shot design of 2 × 2 decisions. */
const oneShot = (url: string) => `name: one-earlier\nmodels:\n${model(url)}\n${COMMON}trials: 2\n`;

/** Probes answered with the right payoff; decisions by cell. */
function answers(text: string): (prompt: string, key: string) => Answer {
  const probes = new Map(expandProbes(parseDesign(text, 'x.yaml'), 8).map((s) => [batchKey(s), s.context.probe as ProbeContext]));
  return (prompt, key) => {
    if (!key.startsWith('probe|')) return cellAnswer(prompt, key);
    const p = probes.get(key);
    if (p === undefined) throw new Error(`the server was sent an unknown probe ${key}`);
    return { text: `${p.expected} points` };
  };
}

function readStore(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      probes: db.prepare("SELECT count(*) FROM probe_trials WHERE status = 'ok'").pluck().get() as number,
      decisions: db.prepare("SELECT count(*) FROM trials WHERE status IN ('ok', 'invalid')").pluck().get() as number,
      chunks: db.prepare('SELECT kind, state, lines FROM batch_chunks ORDER BY id').all() as { kind: string; state: string; lines: number }[],
    };
  } finally {
    db.close();
  }
}

let dir: string;
let srv: BatchLoopback | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-earlier-probes-'));
  process.env[KEY] = 'k-test';
});
afterAll(() => {
  delete process.env[KEY];
  rmSync(dir, { recursive: true, force: true });
});
// A server per test, answering its design: what it was sent is that test's alone.
const serve = async (text: (url: string) => string): Promise<BatchLoopback> => {
  srv = await startBatchLoopback({ answer: answers(text('http://127.0.0.1:1')) });
  return srv;
};
afterEach(async () => { await srv?.close(); srv = undefined; });

function logged() {
  const info: string[] = [], warn: string[] = [];
  return { info, warn, logger: { info: (m: string) => { info.push(m); }, warn: (m: string) => { warn.push(m); } } };
}
/** Retrieve calls per batch id the server has seen so far. */
function polls(srv: BatchLoopback): Map<string, number> {
  const n = new Map<string, number>();
  for (const r of srv.log) {
    const m = /^\/v1\/batches\/(batch_\d+)$/.exec(r.path);
    if (r.method === 'GET' && m) n.set(m[1], (n.get(m[1]) ?? 0) + 1);
  }
  return n;
}
/** Every probe key of a design sent once over all batches (none asked twice). */
function probesAskedOnce(srv: BatchLoopback, text: string): void {
  const keys = expandProbes(parseDesign(text, 'x.yaml'), 8).map(batchKey);
  for (const k of keys) expect(srv.outcomes.get(k), k).toEqual(['ok']);
}

describe.each([
  ['a repeated game', repeated, 'rep', 4],
  ['an adaptive run', adaptive, 'ad', undefined],
] as const)('%s sent as batches', (_, text, name, decisions) => {
  const opts = (path: string, store: string) => ({ design: path, store, batch: true, poll: 0.01 });

  it('probes left open: a later --batch run with no decision left to send collects them, though it asks none', async () => {
    const srv = await serve(text);
    const design = join(dir, `${name}-done.yaml`);
    writeFileSync(design, text(srv.url));
    const store = join(dir, `${name}-done.sqlite`);
    await run({ ...opts(design, store), logger: logged().logger });
    const done = readStore(store).decisions;
    if (decisions !== undefined) expect(done).toBe(decisions);
    await run({ ...opts(design, store), probes: 8, wait: false, logger: logged().logger });
    const probes = readStore(store).chunks.filter((c) => c.kind === 'probe');
    // 8 per model × game × framing, one chunk per model, submitted and not waited for (the loopback finishes on the third poll)
    const n = text === repeated ? 16 : 32;
    expect(probes.map((c) => [c.state, c.lines])).toEqual(probes.map(() => ['created', 16]));
    expect(probes).toHaveLength(n / 16);
    const l = logged();
    await run({ ...opts(design, store), logger: l.logger });
    const s = readStore(store);
    expect(s.chunks.every((c) => c.state === 'collected')).toBe(true);
    expect([s.probes, s.decisions]).toEqual([n, done]);
    expect(l.info).toContain(liveBatchMsg.earlierProbes(n, false));
    expect(l.warn).toEqual([]);
    probesAskedOnce(srv, text(srv.url));
  }, 120_000);

  it('probes sent with --no-wait before the first round or wave: not taken for an earlier run\'s, each batch polled once', async () => {
    const srv = await serve(text);
    const design = join(dir, `${name}-same.yaml`);
    writeFileSync(design, text(srv.url));
    const store = join(dir, `${name}-same.sqlite`);
    const l = logged();
    await run({ ...opts(design, store), probes: 8, wait: false, logger: l.logger });
    expect(l.info.filter((m) => m.includes('earlier run'))).toEqual([]);
    const s = readStore(store);
    // the probes' chunks and the first round's or wave's, every one submitted
    expect(s.chunks.map((c) => c.kind)).toEqual(text === repeated ? ['probe', 'decision'] : ['probe', 'probe', 'decision', 'decision']);
    expect([...polls(srv).values()]).toEqual(s.chunks.map(() => 1));
    // run again (no probes asked): everything collected, no probe asked twice
    await run({ ...opts(design, store), logger: logged().logger });
    const t = readStore(store);
    expect(t.chunks.every((c) => c.state === 'collected')).toBe(true);
    expect(t.probes).toBe(text === repeated ? 16 : 32);
    if (decisions !== undefined) expect(t.decisions).toBe(decisions);
  }, 120_000);
});

it('a batch run that collects an earlier run\'s probes counts them apart from its own trials', async () => {
  const srv = await serve(oneShot);
  const text = oneShot(srv.url);
  const design = join(dir, 'one.yaml');
  writeFileSync(design, text);
  const path = join(dir, 'one.sqlite');
  // decisions and probes submitted, not waited for
  await run({ design, store: path, batch: true, probes: 8, wait: false, poll: 0.01, logger: logged().logger });
  expect(readStore(path).chunks.map((c) => [c.kind, c.state, c.lines])).toEqual([['probe', 'created', 16], ['decision', 'created', 4]]);
  const session = prepareSession(loadDesign(design), {});
  const store = TrialStore.open(path);
  try {
    const runId = store.findRun(session.hash)!.id;
    const r = await runBatches({ store, storePath: path, runId, designName: 'one-earlier', design: session.design, specs: session.specs, env: process.env,
      timeoutMs: 10_000, pollMs: 10, wait: true, maxRounds: 1 });
    // 4 decisions of its own (1 model × 1 game × 2 framings × 2 trials), 16 probes of the earlier run's, by hand
    expect([r.total, r.alreadyDone, r.stored, r.earlier, r.earlierStored, r.pending, r.open]).toEqual([4, 0, 4, 16, 16, 0, 0]);
  } finally {
    store.close();
  }
  expect(readStore(path).probes).toBe(16);
  probesAskedOnce(srv, text);
}, 120_000);

it('what waits in open batches is counted by chunk kind: the decisions of a model named "probe" are trials', () => {
  const path = join(dir, 'named-probe.sqlite');
  const store = TrialStore.open(path);
  try {
    const { run: r } = store.openRun({ name: 'p', hash: 'hp', json: '{}', toolVersion: 't', started: 's', kind: 'one-shot' });
    const chunks = BatchChunks.open(store);
    const members = (model: string, n: number) => Array.from({ length: n }, (_, rep) => ({ model, game: 'g', framing: 'f', rep }));
    chunks.prepare({ runId: r.id, model: 'probe', kind: 'decision', endpoint: 'e', file: 'f1', fileHash: 'x', lines: 3, bytes: 1, members: members('probe', 3) });
    chunks.prepare({ runId: r.id, model: 'm', kind: 'probe', endpoint: 'e', file: 'f2', fileHash: 'y', lines: 2, bytes: 1, members: members('m', 2) });
    expect(openBatchesNotice(store, 'S', r.id)).toBe(liveBatchMsg.waitingInBatches('S', 3, 2));
  } finally {
    store.close();
  }
});
