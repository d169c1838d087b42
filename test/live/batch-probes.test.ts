/**
 * Comprehension probes through the Batch APIs (docs/methods.md §18c): a design whose models send
 * their decisions as batches — one OpenAI-compatible, one Anthropic, one Gemini model, each against
 * the loopback batch server of its vendor — sends its probes as batches too, in chunks of their own
 * (kind `probe`, custom ids "probe|model|game|framing|rep"), beside the decisions' chunks. The
 * servers answer a probe from the game's payoffs (expandProbes' expected answer), except, under the
 * framing friend-sharing, your payoff of the outcomes where you defect, answered 3 lower (a "fined"
 * payoff); decisions as the loopback's default. Probe reps (0–7) and decision reps (0–3) overlap,
 * so a probe taken for the decision of its rep, or the reverse, would be left unsent or stored in
 * the wrong table. Then: a kill -9 between a probe batch's create call and its commit, and after its
 * collect, resumes without asking any probe twice; a repeated game sent as batches asks its probes
 * as batches before its rounds, an adaptive run before its first wave. A store from before
 * migration 6 keeps its chunks as decisions.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { run } from '../../src/commands/run.js';
import { anthropicCustomId } from '../../src/live/batch/anthropic.js';
import { batchKey } from '../../src/live/batch/chunks.js';
import { CHUNK_COLUMNS, chunkRows } from '../../src/live/batch/list.js';
import { TrialStore } from '../../src/live/store/store.js';
import { BatchChunks } from '../../src/live/store/batch-chunks.js';
import { STORE_VERSION, storeVersion } from '../../src/live/store/migrations.js';
import { expandDesign, parseDesign } from '../../src/live/design/design.js';
import { expandProbes, probeOrder, type ProbeContext } from '../../src/live/probes/questions.js';
import { startBatchLoopback } from '../helpers/loopback-batch.js';
import { startAnthropicLoopback } from '../helpers/loopback-anthropic.js';
import { startGeminiLoopback } from '../helpers/loopback-gemini.js';
import { defaultAnswer, type Answer } from '../helpers/loopback-openai.js';
import { cleanEnv, ROOT, runCli, spawnCli } from '../helpers/cli.js';
import { optionAnswer } from '../helpers/repeated.js';
import { cellAnswer } from '../helpers/batch-run.js';

const designText = (urls: { openai: string; anthropic: string; gemini: string }) => `name: batch-probes
models:
  - { id: m-oa, provider: openai-chat, model: loop, base_url: "${urls.openai}", api_key_env: SG_BP_KEY, batch: true }
  - { id: m-an, provider: anthropic, model: loop, base_url: "${urls.anthropic}", api_key_env: SG_BP_KEY, batch: true }
  - { id: m-ge, provider: gemini, model: loop, base_url: "${urls.gemini}", api_key_env: SG_BP_KEY, batch: true }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: 4
probes: 8
decoding: { temperature: 0.8, max_tokens: 8, seed: 1 }
scoring: sample
`;
const HERE = { openai: 'http://127.0.0.1:1', anthropic: 'http://127.0.0.1:1', gemini: 'http://127.0.0.1:1' };
// By hand: 3 models × 2 games × 2 framings × 8 probes; × 4 decisions.
const PROBES = 96;
const DECISIONS = 48;
// Wrong by design: friend-sharing, your points of DC and DD: 2 per cell of 8, 3 models × 2 games.
const WRONG = 12;

/** Each probe's question by its batch key (the servers' answers and the test's expectations). */
function probeMap(text: string): Map<string, ProbeContext> {
  return new Map(expandProbes(parseDesign(text, 'x.yaml'), 8).map((s) => [batchKey(s), s.context.probe as ProbeContext]));
}
const fined = (key: string, p: ProbeContext) => key.split('|')[3] === 'friend-sharing' && p.player === 'you' && p.outcome[0] === 'D';
function answerOf(probes: Map<string, ProbeContext>, decide: (prompt: string, key: string) => Answer) {
  return (prompt: string, key: string): Answer => {
    const p = probes.get(key);
    if (!key.startsWith('probe|')) return decide(prompt, key);
    if (p === undefined) throw new Error(`the server was sent an unknown probe ${key}`);
    return { text: `${fined(key, p) ? p.expected - 3 : p.expected} points` };
  };
}

interface ProbeRow { model: string; game: string; framing: string; rep: number; outcome: string; player: string; status: string; score: string | null }
function readStore(path: string) {
  // Read-write: opening recovers the WAL a killed run left.
  const db = new Database(path);
  try {
    return {
      probes: db.prepare('SELECT model, game, framing, rep, outcome, player, status, score FROM probe_trials ORDER BY model, game, framing, rep')
        .all() as ProbeRow[],
      decisions: db.prepare("SELECT count(*) FROM trials WHERE status IN ('ok', 'invalid')").pluck().get() as number,
      chunks: db.prepare(`SELECT c.id, c.model, c.kind, c.state, count(m.rep) AS members FROM batch_chunks c JOIN batch_members m ON m.chunk_id = c.id
        GROUP BY c.id ORDER BY c.id`).all() as { id: number; model: string; kind: string; state: string; members: number }[],
    };
  } finally {
    db.close();
  }
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sg-batch-probes-'));
  process.env.SG_BP_KEY = 'k-test';
});
afterAll(() => {
  delete process.env.SG_BP_KEY;
  rmSync(dir, { recursive: true, force: true });
});

it('OpenAI, Anthropic and Gemini batches: probes in chunks of their own, scored and stored apart; run again, nothing sent', async () => {
  const text = designText(HERE);
  const probes = probeMap(text);
  const decisions = expandDesign(parseDesign(text, 'x.yaml'));
  const hashed = new Map([...probes.keys(), ...decisions.map(batchKey)].map((k) => [anthropicCustomId(k), k]));
  const answer = answerOf(probes, defaultAnswer);
  const openai = await startBatchLoopback({ answer });
  const anthropic = await startAnthropicLoopback({ answer, keyOf: (id) => hashed.get(id) ?? id });
  const gemini = await startGeminiLoopback({ answer });
  try {
    const design = join(dir, 'three.yaml');
    writeFileSync(design, designText({ openai: openai.url, anthropic: anthropic.url, gemini: gemini.url }));
    const store = join(dir, 'three.sqlite');
    const printed: string[] = [];
    const info: string[] = [];
    const logger = { info: (m: string) => { info.push(m); }, warn: () => {}, print: (t: string) => { printed.push(t); } };
    await run({ design, store, dryRun: true, logger });
    // The dry run: the probes as batch requests, on a line of their own (3 files: one per model), before the decisions'.
    expect(printed.join('')).toMatch(
      /comprehension probes \(batch\): 3 files, 96 requests \(96 probes = 8 per model × game × framing, 0 already stored, 0 in open batches\)/);
    expect(printed.join('')).toMatch(/dry run \(batch\): 3 files, 48 requests \(48 trials/);

    await run({ design, store, poll: 0.01, logger });
    const s = readStore(store);
    expect(s.decisions).toBe(DECISIONS);
    // The closing summary counts the decisions' tokens, as a synchronous run's does (the probes' are stored with them).
    const db = new Database(store, { readonly: true });
    const tokens = (table: string) => db.prepare(`SELECT sum(input_tokens + output_tokens) FROM ${table}`).pluck().get() as number;
    const [decided, probed] = [tokens('trials'), tokens('probe_trials')];
    db.close();
    expect(probed).toBeGreaterThan(0);
    expect(info.filter((m) => m.startsWith('done: '))).toEqual([expect.stringMatching(new RegExp(`^done: 48 trials stored .*, ${decided} tokens;`))]);
    expect(info).toContain('comprehension probes stored: 96 answered with a number, 0 without one, 0 errors (analyze writes reports/comprehension.csv)');
    expect(s.probes).toHaveLength(PROBES);
    expect(s.probes.every((p) => p.status === 'ok')).toBe(true);
    const wrong = s.probes.filter((p) => p.score === 'wrong');
    expect([s.probes.length - wrong.length, wrong.length]).toEqual([PROBES - WRONG, WRONG]);
    expect(wrong.every((p) => p.framing === 'friend-sharing' && p.player === 'you' && p.outcome[0] === 'D')).toBe(true);
    // One chunk per model and kind, each of one kind only: 32 probes, 16 decisions.
    const models = ['m-oa', 'm-an', 'm-ge'];
    expect(s.chunks.map((c) => [c.model, c.kind, c.members, c.state])).toEqual([
      ...models.map((m) => [m, 'probe', 32, 'collected']), ...models.map((m) => [m, 'decision', 16, 'collected'])]);
    // Each server was sent every probe of its model once, under its own key, and every decision once.
    for (const [srv, model] of [[openai, 'm-oa'], [anthropic, 'm-an'], [gemini, 'm-ge']] as const) {
      const keys = [...srv.outcomes.keys()];
      expect(keys.filter((k) => k.startsWith('probe|')).sort()).toEqual([...probes.keys()].filter((k) => k.startsWith(`probe|${model}|`)).sort());
      expect(keys.filter((k) => !k.startsWith('probe|'))).toHaveLength(16);
      expect([...srv.outcomes.values()].every((o) => o.length === 1 && o[0] === 'ok')).toBe(true);
    }

    // samegame batches names each chunk's kind.
    const ro = TrialStore.openExisting(store);
    try {
      expect(chunkRows(ro, store).map((r) => r[CHUNK_COLUMNS.indexOf('kind')])).toEqual(['probe', 'probe', 'probe', 'decision', 'decision', 'decision']);
    } finally {
      ro.close();
    }

    const before = [openai.batches.size, anthropic.batches.size, gemini.ops.size];
    await run({ design, store, poll: 0.01, logger });
    expect([openai.batches.size, anthropic.batches.size, gemini.ops.size]).toEqual(before);
    expect(readStore(store).probes).toHaveLength(PROBES);
  } finally {
    await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
  }
}, 120_000);

it('kill -9 between a probe batch\'s create call and its commit, and after its collect: resumed, no probe asked twice', async () => {
  const probes = probeMap(designText(HERE));
  const srv = await startBatchLoopback({ answer: answerOf(probes, defaultAnswer) });
  try {
    const design = join(dir, 'kill.yaml');
    writeFileSync(design, designText({ openai: srv.url, anthropic: 'http://127.0.0.1:9', gemini: 'http://127.0.0.1:9' })
      .replace(/^ {2}- \{ id: m-(an|ge),.*\n/gm, ''));
    const store = join(dir, 'kill.sqlite');
    const args = ['run', design, '--store', store, '--poll', '0.01'];
    // The first chunk is the probes' (they come first): the kill at create-call leaves its batch created and uncommitted,
    // the kill at collected leaves the probes stored and the decisions' batch open.
    for (const point of ['create-call', 'collected']) {
      const r = await spawnCli(args, { env: cleanEnv({ SG_BP_KEY: 'k', SAMEGAME_CRASH_AT: point }) });
      expect(r.signal, point).toBe('SIGKILL');
    }
    expect(readStore(store).probes).toHaveLength(32);
    const r = await runCli(args, { env: cleanEnv({ SG_BP_KEY: 'k' }) });
    expect(r.code, r.stderr).toBe(0);
    const s = readStore(store);
    expect([s.probes.length, s.decisions]).toEqual([32, 16]);
    expect(s.probes.filter((p) => p.score === 'correct')).toHaveLength(32 - 4);
    expect(s.chunks.map((c) => [c.kind, c.state])).toEqual([['probe', 'collected'], ['decision', 'collected']]);
    expect([...srv.createdPerChunk.values()]).toEqual([1, 1]);
    const probeKeys = [...srv.outcomes.keys()].filter((k) => k.startsWith('probe|'));
    expect(probeKeys).toHaveLength(32);
    expect([...srv.outcomes.values()].every((o) => o.length === 1)).toBe(true);
  } finally {
    await srv.close();
  }
}, 120_000);

it('a repeated game sent as batches: its probes go as batches before the rounds, stored apart from the decisions', async () => {
  const shipped = readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8');
  const text = shipped.replace(/^trials: 10$/m, 'trials: 1').replace(/^ {2}rounds: 10$/m, '  rounds: 2');
  expect(text).not.toBe(shipped);
  const design = join(dir, 'rep.yaml');
  writeFileSync(design, text);
  const probes = new Map(expandProbes(parseDesign(text, 'x.yaml'), 8).map((s) => [batchKey(s), s.context.probe as ProbeContext]));
  const srv = await startBatchLoopback({ answer: answerOf(probes, (p) => optionAnswer(p)) });
  try {
    const store = join(dir, 'rep.sqlite');
    const r = await runCli(['run', design, '--store', store, '--provider', 'openai-responses', '--model', 'loop', '--base-url', srv.url, '--batch',
      '--probes', '8', '--poll', '0.01'], { env: cleanEnv({ OPENAI_API_KEY: 'k' }) });
    expect(r.code, r.stderr).toBe(0);
    const s = readStore(store);
    expect(s.probes).toHaveLength(16);
    expect(s.probes.every((p) => p.score === 'correct')).toBe(true);
    // The probes' chunks first (one per model), then two rounds of one chunk per model.
    expect(s.chunks.map((c) => c.kind)).toEqual(['probe', 'probe', 'decision', 'decision', 'decision', 'decision']);
    // 2 models × (2 + 2 + 3 seats of LLMs) × 1 match × 2 rounds, by hand.
    expect(s.decisions).toBe(28);
    expect([...srv.outcomes.values()].every((o) => o.length === 1)).toBe(true);
  } finally {
    await srv.close();
  }
}, 120_000);

it('an adaptive run sent as batches: its probes go as batches before the first wave, stored apart from the decisions', async () => {
  const text = `name: ad
models:
  - { id: A, provider: openai-responses, model: loop-a }
  - { id: B, provider: openai-responses, model: loop-b }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: 40
stop: { target: shift, decide: sign, wave: 20, method: betting }
`;
  const design = join(dir, 'ad.yaml');
  writeFileSync(design, text);
  const probes = new Map(expandProbes(parseDesign(text, 'x.yaml'), 8).map((s) => [batchKey(s), s.context.probe as ProbeContext]));
  const srv = await startBatchLoopback({ answer: answerOf(probes, cellAnswer) });
  try {
    const store = join(dir, 'ad.sqlite');
    const r = await runCli(['run', design, '--store', store, '--base-url', srv.url, '--batch', '--probes', '8', '--poll', '0.01'],
      { env: cleanEnv({ OPENAI_API_KEY: 'k' }) });
    expect(r.code, r.stderr).toBe(0);
    const s = readStore(store);
    // 2 models × 2 games × 2 framings × 8, the friend-sharing ones of DC and DD answered with the fined payoff.
    expect(s.probes).toHaveLength(64);
    expect(s.probes.filter((p) => p.score === 'wrong')).toHaveLength(8);
    // The probes' chunks first (one per model), then each wave's (one per model): the waves read only decisions.
    expect(s.chunks.slice(0, 2).map((c) => [c.kind, c.members])).toEqual([['probe', 32], ['probe', 32]]);
    expect(s.chunks.slice(2).every((c) => c.kind === 'decision')).toBe(true);
    expect(s.chunks.slice(2).length % 2).toBe(0);
    expect(s.decisions).toBe(s.chunks.slice(2).reduce((n, c) => n + c.members, 0));
    expect([...srv.outcomes.values()].every((o) => o.length === 1)).toBe(true);
  } finally {
    await srv.close();
  }
}, 120_000);

it('probes left open by --batch --no-wait: a later run without probes says so when it sends no batch, and collects them with --batch', async () => {
  const text = (url: string) => `name: later-probes
models:
  - { id: m-oa, provider: openai-chat, model: loop, base_url: "${url}", api_key_env: SG_BP_KEY }
games: [prisoners-dilemma]
framings: [business, friend-sharing]
trials: 2
decoding: { temperature: 0.8, max_tokens: 8, seed: 1 }
scoring: sample
`;
  const probes = new Map(expandProbes(parseDesign(text(HERE.openai), 'x.yaml'), 8).map((s) => [batchKey(s), s.context.probe as ProbeContext]));
  const srv = await startBatchLoopback({ answer: answerOf(probes, defaultAnswer) });
  try {
    const design = join(dir, 'later.yaml');
    writeFileSync(design, text(srv.url));
    const store = join(dir, 'later.sqlite');
    const info: string[] = [], warn: string[] = [];
    const logger = { info: (m: string) => { info.push(m); }, warn: (m: string) => { warn.push(m); } };
    // Each decision looked up in the store once before the batches and once after (what a round stores stays stored).
    const lookups = vi.spyOn(TrialStore.prototype, 'isComplete');
    try {
      await run({ design, store, batch: true, poll: 0.01, logger });
      expect(lookups).toHaveBeenCalledTimes(2 * 4);
    } finally {
      lookups.mockRestore();
    }
    // The probes asked later, submitted and not waited for (the loopback batch needs three polls to finish).
    await run({ design, store, batch: true, probes: 8, wait: false, poll: 0.01, logger });
    let s = readStore(store);
    expect([s.decisions, s.probes.length]).toEqual([4, 0]);
    expect(s.chunks.map((c) => [c.kind, c.state, c.members])).toEqual([['decision', 'collected', 4], ['probe', 'created', 16]]);
    // Without --batch nothing is sent as a batch: the run says what waits and how to collect it.
    await run({ design, store, poll: 0.01, logger });
    expect(warn).toEqual([`${store}: 16 comprehension probes of this run wait in batches not yet collected, and this run sends nothing as batches: `
      + 'run again with --batch to collect them (samegame batches lists them)']);
    expect(readStore(store).chunks[1].state).toBe('created');
    // With --batch and without --probes: the earlier probes are collected, scored and stored, none sent again.
    await run({ design, store, batch: true, poll: 0.01, logger });
    s = readStore(store);
    expect(s.chunks.map((c) => [c.kind, c.state])).toEqual([['decision', 'collected'], ['probe', 'collected']]);
    expect(s.probes).toHaveLength(16);
    // friend-sharing, your points of DC and DD: 2 of its 8 probes answered with the fined payoff.
    expect(s.probes.filter((p) => p.score === 'wrong').map((p) => [p.framing, p.player, p.outcome[0]])).toEqual([
      ['friend-sharing', 'you', 'D'], ['friend-sharing', 'you', 'D']]);
    expect(info).toContain('16 comprehension probes asked by an earlier run (--probes) wait in open batches: collected by this run, never sent again');
    expect([...srv.createdPerChunk.values()]).toEqual([1, 1]);
    expect([...srv.outcomes.keys()].filter((k) => k.startsWith('probe|')).sort()).toEqual([...probes.keys()].sort());
    expect([...srv.outcomes.values()].every((o) => o.length === 1)).toBe(true);
  } finally {
    await srv.close();
  }
}, 120_000);

it('a cell\'s first n probes are the same questions whatever the count asked (what rebuilds an earlier run\'s open probes)', () => {
  for (const seed of [0, 1, 7]) {
    const all = probeOrder(24, seed, 'm\u0000g\u0000f');
    for (let n = 1; n <= 24; n++) expect(probeOrder(n, seed, 'm\u0000g\u0000f')).toEqual(all.slice(0, n));
    // every 8 hold the 8 questions
    expect(new Set(all.slice(8, 16).map((q) => `${q.outcome}${q.player}`)).size).toBe(8);
  }
});

it('a store from before migration 6: its open chunk is read as decisions, and kept so when migrated; a kind never written is refused', () => {
  const path = join(dir, 'v5.sqlite');
  const rw = TrialStore.open(path);
  const { run: r } = rw.openRun({ name: 'v5', hash: 'h5', json: '{}', toolVersion: 't', started: 's', kind: 'one-shot' });
  const chunks = BatchChunks.open(rw);
  chunks.prepare({ runId: r.id, model: 'm', kind: 'decision', endpoint: 'e', file: 'f', fileHash: 'x', lines: 1, bytes: 1,
    members: [{ model: 'm', game: 'g', framing: 'f', rep: 0 }] });
  // Back to version 5: the chunks table without its kind column.
  rw.database.exec('ALTER TABLE batch_chunks DROP COLUMN kind');
  rw.database.pragma('user_version = 5');
  rw.close();
  expect(STORE_VERSION).toBe(6);
  const ro = TrialStore.openExisting(path);
  try {
    const old = BatchChunks.readOnly(ro)!;
    expect(old.chunks().map((c) => c.kind)).toEqual(['decision']);
    expect([...old.inOpenChunks(r.id)]).toEqual(['m|g|f|0']);
  } finally {
    ro.close();
  }
  const again = TrialStore.open(path);
  try {
    const migrated = BatchChunks.open(again);
    expect(storeVersion(again.database)).toBe(6);
    expect(migrated.chunks().map((c) => c.kind)).toEqual(['decision']);
    expect([...migrated.inOpenChunks(r.id)]).toEqual(['m|g|f|0']);
  } finally {
    again.close();
  }
  // A kind samegame never writes: samegame batches refuses the table in one line.
  const raw = new Database(path);
  raw.pragma('ignore_check_constraints = ON');
  raw.exec("UPDATE batch_chunks SET kind = 'other'");
  raw.close();
  const bad = TrialStore.openExisting(path);
  try {
    expect(() => chunkRows(bad, 'STORE'))
      .toThrow('STORE: the batch table is damaged or not one samegame wrote (chunk 1: kind is "other", not one of decision, probe)');
  } finally {
    bad.close();
  }
});
