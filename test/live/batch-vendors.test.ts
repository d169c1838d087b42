/**
 * Claude and Gemini end to end, against loopback servers speaking the Anthropic Messages and
 * Message Batches, and the Gemini generateContent and Batch Mode wire formats: a synchronous and a
 * batch run of the same design through each vendor, beside a synchronous run of the same answers
 * through openai-chat. Every trial is stored once; only errored and expired lines are sent again;
 * each batch carries the synchronous bodies; analyze gives the same tables whichever wire carried
 * the answers; the key is nowhere in the store, the batch files, the logs or an export.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables, type AnalyzeResult } from '../../src/commands/analyze.js';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { startAnthropicLoopback, type AnthropicFault, type AnthropicLoopback } from '../helpers/loopback-anthropic.js';
import { startGeminiLoopback, type GeminiFault, type GeminiLoopback } from '../helpers/loopback-gemini.js';
import { cleanEnv, ROOT, runCli } from '../helpers/cli.js';
import { expandDesign, loadDesign, parseDesign } from '../../src/live/design/design.js';
import { anthropicCustomId } from '../../src/live/batch/anthropic.js';
import { trialKey } from '../../src/live/batch/chunks.js';
import { cellAnswer, requestedAgain, SENTINEL, storeFacts } from '../helpers/batch-run.js';
import { anthropicKeys, runArgs, smallDesign as writeSmallText, SMALL_TRIALS, writeSmall } from '../helpers/vendor-run.js';
import { designMsg } from '../../src/live/design/messages.js';
import { runnerMsg } from '../../src/live/runner/messages.js';

let dir: string;
let osrv: Loopback;
// Trials with rep 3 fail as line-level errors the first time; the second batch created expires (half its lines).
const failsFirst = (k: string, n: number) => n === 1 && /\|3$/.test(k);
const expires = (n: number) => n === 2;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-vendors-e2e-'));
  osrv = await startLoopback({ answer: cellAnswer });
});
afterAll(async () => {
  await osrv.close();
  rmSync(dir, { recursive: true, force: true });
});

const tables = (store: string) => {
  const r = analyzeTables({ store, reps: 100 }) as AnalyzeResult;
  return { table3: r.table3, csv: r.files.filter((f) => f.path.endsWith('.csv')).map((f) => [f.path.split('/').pop(), f.content]) };
};

const CASES = [
  { vendor: 'anthropic', scoring: 'sample', env: { ANTHROPIC_API_KEY: SENTINEL } },
  { vendor: 'gemini', scoring: 'logprobs', env: { GEMINI_API_KEY: SENTINEL } },
] as const;

for (const c of CASES) {
  describe(`${c.vendor}: synchronous and batch runs of one design`, () => {
    let srv: AnthropicLoopback | GeminiLoopback;
    let design: string;
    const st = (n: string) => join(dir, `${c.vendor}-${n}.sqlite`);
    let batch: Awaited<ReturnType<typeof runCli>>;
    let sync: Awaited<ReturnType<typeof runCli>>;

    beforeAll(async () => {
      design = writeSmall(dir, c.scoring);
      const keys = anthropicKeys(c.scoring);
      srv = c.vendor === 'anthropic'
        ? await startAnthropicLoopback({ answer: cellAnswer, lineError: failsFirst, expires, keyOf: (id) => keys.get(id) ?? id })
        : await startGeminiLoopback({ answer: cellAnswer, lineError: failsFirst, expires, pageSize: 2 });
      const env = cleanEnv(c.env);
      batch = await runCli(runArgs(design, st('batch'), c.vendor, srv.url, ['--batch', '--poll', '0.01', '--batch-size', '15']), { env });
      sync = await runCli(runArgs(design, st('sync'), c.vendor, srv.url), { env });
      const o = await runCli(runArgs(design, st('openai'), 'openai-chat', osrv.url), { env: cleanEnv({ OPENAI_API_KEY: 'sk-other' }) });
      expect([batch.code, sync.code, o.code]).toEqual([0, 0, 0]);
    }, 120_000);
    afterAll(() => srv.close());

    it('stores every trial exactly once, both ways; one batch per chunk', () => {
      for (const s of [st('batch'), st('sync')]) {
        const f = storeFacts(s);
        expect([f.rows, f.distinct, f.complete]).toEqual([SMALL_TRIALS, SMALL_TRIALS, SMALL_TRIALS]);
      }
      const chunks = storeFacts(st('batch')).chunks;
      expect(chunks.every((x) => x.state === 'collected' && x.lines <= 15)).toBe(true);
      const created = c.vendor === 'anthropic' ? [...(srv as AnthropicLoopback).batches.keys()] : [...(srv as GeminiLoopback).ops.keys()];
      expect(created).toHaveLength(chunks.length);
      if (c.vendor === 'gemini') expect([...(srv as GeminiLoopback).createdPerName.values()].every((n) => n === 1)).toBe(true);
    });

    it('sends again exactly the lines that errored or expired, never one already answered', () => {
      const outcomes = srv.outcomes;
      const resent = [...outcomes].filter(([, o]) => o.length > 1).map(([k]) => k).sort();
      const failedFirst = [...outcomes].filter(([, o]) => o[0] !== 'ok').map(([k]) => k).sort();
      expect(resent).toEqual(failedFirst);
      expect(new Set([...outcomes.values()].map((o) => o[0]))).toEqual(new Set(['ok', c.vendor === 'anthropic' ? 'errored' : 'error', 'expired']));
      expect(requestedAgain(outcomes)).toEqual([]);
      expect(outcomes.size).toBe(SMALL_TRIALS);
    });

    it('each batch line carries the very body the synchronous provider sends', () => {
      const syncBody = new Map(srv.log.filter((l) => l.key !== '').map((l) => [l.key, JSON.parse(l.body) as unknown]));
      const keys = anthropicKeys(c.scoring);
      const lines = c.vendor === 'anthropic'
        ? [...(srv as AnthropicLoopback).batches.values()].flatMap((b) => b.requests.map((r) => [keys.get(r.custom_id)!, r.params] as const))
        : [...(srv as GeminiLoopback).ops.values()].flatMap((b) => b.requests.map((r) => [r.metadata.key, r.request] as const));
      expect(lines.length).toBeGreaterThan(SMALL_TRIALS);
      for (const [key, body] of lines) expect(body).toEqual(syncBody.get(key));
    });

    it('analyze gives the same tables as the same answers through openai-chat (batch and synchronous)', () => {
      const o = tables(st('openai'));
      expect(o.csv.length).toBeGreaterThan(0);
      expect(tables(st('sync'))).toEqual(o);
      expect(tables(st('batch'))).toEqual(o);
    });

    it('keeps the key out of the stores, the batch files, the logs and the exports (sentinel)', async () => {
      const sent = srv.log.map((l) => ('apiKey' in l ? l.apiKey : undefined) ?? ('authorization' in l ? l.authorization : ''));
      expect(sent.some((h) => h?.includes(SENTINEL))).toBe(true);
      const exp = await runCli(['export', st('batch'), '--format', 'jsonl']);
      const list = await runCli(['batches', st('batch')]);
      const texts = [batch.stdout, batch.stderr, sync.stdout, sync.stderr, exp.stdout, exp.stderr, list.stdout, list.stderr];
      const bdir = `${st('batch')}.batches`;
      const files = [st('batch'), st('sync'), ...readdirSync(bdir).map((f) => join(bdir, f))].flatMap((f) => [f, `${f}-wal`]);
      for (const f of files.filter(existsSync)) texts.push(readFileSync(f).toString('latin1'));
      expect(texts.filter((t) => t.includes(SENTINEL) || t.includes(SENTINEL.slice(3, 20)))).toEqual([]);
      expect(exp.stdout.trim().split('\n')).toHaveLength(SMALL_TRIALS);
    });

    it('`samegame batches STORE` lists each chunk with its vendor status and the cost at its batch discount', async () => {
      const r = await runCli(['batches', st('batch')]);
      const lines = r.stdout.trim().split('\n').slice(1);
      expect(lines).toHaveLength(storeFacts(st('batch')).chunks.length);
      const ended = c.vendor === 'anthropic' ? 'ended' : 'BATCH_STATE_(SUCCEEDED|EXPIRED)';
      expect(lines.every((l) => new RegExp(`\\scollected\\s+${ended}\\s`).test(l))).toBe(true);
      // By hand: 40 input and 2 output tokens per answer at $1 and $2 per million; m-a at half price, m-b at 0.75.
      for (const l of lines) {
        const cells = l.split(/\s+/);
        expect(cells[11]).toBe(((Number(cells[9]) * 44e-6) * (cells[2] === 'm-a' ? 0.5 : 0.75)).toFixed(4));
      }
    });
  });
}

describe('--batch --dry-run and --cancel through the vendors', () => {
  it('data/designs/same-game-vendors.yaml: one model per vendor, sample scoring; a dry run needs no key', async () => {
    const file = join(ROOT, 'data/designs/same-game-vendors.yaml');
    const d = loadDesign(file);
    expect([d.models.map((m) => m.provider), d.scoring]).toEqual([['openai-responses', 'anthropic', 'gemini'], 'sample']);
    const r = await runCli(['run', file, '--batch', '--dry-run', '--store', join(dir, 'sgv.sqlite')], { env: cleanEnv() });
    // By hand: 3 models × 4 games × 9 framings × 300 trials, one file per model.
    expect([r.code, r.stdout.split('\n')[0]]).toEqual([0, 'dry run (batch): 3 files, 32400 requests (32400 trials, 0 already stored, 0 in open batches)']);
  });

  it('prices each model at its design batch discount (default one half), calling nothing', async () => {
    const design = writeSmall(dir, 'sample');
    for (const vendor of ['anthropic', 'gemini']) {
      const store = join(dir, `dry-${vendor}.sqlite`);
      const args = ['run', design, '--store', store, '--provider', vendor, '--dry-run'];
      const b = await runCli([...args, '--batch'], { env: cleanEnv() });
      const s = await runCli(args, { env: cleanEnv() });
      expect([b.code, s.code]).toEqual([0, 0]);
      const tokens = (t: string) => /estimated tokens: (\d+) input .*, (\d+) output/.exec(t)!.slice(1).map(Number);
      const [i, o] = tokens(s.stdout);
      expect(tokens(b.stdout)).toEqual([i, o]);
      // Half the tokens are m-a's (discount 0.5), half m-b's (0.25): the cost is the full price × (0.5 + 0.75) / 2.
      expect(b.stdout).toContain(`estimated cost at batch prices: $${((((i + 2 * o) / 1e6) * 1.25) / 2).toFixed(4)}`);
      expect(existsSync(store)).toBe(false);
    }
  });

  it('--no-wait then `batches --cancel`: the next run collects the cancelled batches and sends their trials again', async () => {
    const design = writeSmall(dir, 'sample');
    const keys = anthropicKeys('sample');
    for (const vendor of ['anthropic', 'gemini'] as const) {
      const srv = vendor === 'anthropic' ? await startAnthropicLoopback({ keyOf: (id) => keys.get(id) ?? id }) : await startGeminiLoopback({});
      try {
        const env = cleanEnv(vendor === 'anthropic' ? { ANTHROPIC_API_KEY: 'k-test' } : { GOOGLE_API_KEY: 'k-test' });
        const store = join(dir, `nw-${vendor}.sqlite`);
        const args = runArgs(design, store, vendor, srv.url, ['--batch', '--poll', '0.01']);
        expect((await runCli([...args, '--no-wait'], { env })).code).toBe(0);
        expect(storeFacts(store).chunks.map((x) => x.state)).toEqual(['created', 'created']);
        const cancel = await runCli(['batches', store, '--cancel'], { env });
        expect([cancel.code, cancel.stderr]).toEqual([0, expect.stringContaining('cancel requested for 2 open batches')]);
        expect((await runCli(args, { env })).code).toBe(0);
        const f = storeFacts(store);
        expect([f.rows, f.distinct, f.complete, f.chunks.length]).toEqual([SMALL_TRIALS, SMALL_TRIALS, SMALL_TRIALS, 4]);
        const cancelled = vendor === 'anthropic' ? 'canceled' : 'cancelled';
        expect([...srv.outcomes.values()].every((o) => o.join() === `${cancelled},ok`)).toBe(true);
      } finally {
        await srv.close();
      }
    }
  }, 60_000);
});

describe('scoring: logprobs on an anthropic model is refused when the design is read', () => {
  it('in the design: one line naming the design file, its line and the model; exit 2; no store', async () => {
    const design = join(dir, 'claude-logprobs.yaml');
    writeFileSync(design, writeSmallText('logprobs').replace('{ id: m-b, provider: openai-chat', '{ id: claude, provider: anthropic'));
    const store = join(dir, 'claude-logprobs.sqlite');
    const r = await runCli(['run', design, '--store', store, '--dry-run'], { env: cleanEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`samegame: ${design}:4: field "models[1].provider": ${designMsg.noLogprobs('claude', 'anthropic')}`]);
    expect(existsSync(store)).toBe(false);
  });
  it('through --provider anthropic: one line naming the design and the model, before any call', async () => {
    const design = writeSmall(dir, 'logprobs');
    const store = join(dir, 'override.sqlite');
    const r = await runCli(['run', design, '--store', store, '--provider', 'anthropic'], { env: cleanEnv({ ANTHROPIC_API_KEY: 'k' }) });
    expect([r.code, r.stderr.trim()]).toEqual([2, `samegame: ${runnerMsg.overrideRefused(design, '--provider anthropic', designMsg.noLogprobs('m-a', 'anthropic'))}`]);
    expect(existsSync(store)).toBe(false);
  });
  it('a temperature above what the Messages API takes (1): one line naming the field and the model', async () => {
    const design = join(dir, 'claude-hot.yaml');
    writeFileSync(design, writeSmallText('sample').replace('temperature: 0.8', 'temperature: 1.5'));
    const r = await runCli(['run', design, '--provider', 'anthropic', '--dry-run'], { env: cleanEnv() });
    expect([r.code, r.stderr.trim()]).toEqual([2, `samegame: ${runnerMsg.overrideRefused(design, '--provider anthropic', designMsg.temperatureTooHigh('m-a', 'anthropic', 1.5, 1))}`]);
    writeFileSync(design, writeSmallText('sample').replace('provider: openai-chat, prices: { input: 1, output: 2 } }', 'provider: anthropic, decoding: { temperature: 1.2 } }'));
    const d = await runCli(['run', design, '--dry-run'], { env: cleanEnv() });
    expect([d.code, d.stderr.trim()]).toEqual([2, `samegame: ${design}:3: field "models[0].decoding.temperature": ${designMsg.temperatureTooHigh('m-a', 'anthropic', 1.2, 1)}`]);
  });
});

describe('the batch endpoints failing: retried, and a create whose answer was lost is found, not repeated', () => {
  it.each(['anthropic', 'gemini'] as const)('%s: lost create answer, 529/503 on the list, 429 and 500 on polls, a bad body: one batch per chunk, each trial once', async (vendor) => {
    const keys = anthropicKeys('sample');
    const overload = vendor === 'anthropic' ? { kind: 'overloaded' as const } : { kind: 'unavailable' as const };
    const srv = vendor === 'anthropic'
      ? await startAnthropicLoopback({ keyOf: (id) => keys.get(id) ?? id, apiFault: (what, n) => (what === 'create' && n === 1 ? { kind: 'truncated' }
        : what === 'list' && n === 1 ? overload as AnthropicFault : what === 'retrieve' && n === 1 ? { kind: 'rate_limit', retryAfter: '0' }
          : what === 'retrieve' && n === 2 ? { kind: 'server' } : what === 'results' && n === 1 ? { kind: 'malformed' } : undefined) })
      : await startGeminiLoopback({ apiFault: (what, n) => (what === 'create' && n === 1 ? { kind: 'truncated' }
        : what === 'list' && n === 1 ? overload as GeminiFault : what === 'get' && n === 1 ? { kind: 'rate_limit', retryAfter: '0' }
          : what === 'get' && n === 2 ? { kind: 'server' } : what === 'get' && n === 4 ? { kind: 'malformed' } : undefined) });
    try {
      const store = join(dir, `faults-${vendor}.sqlite`);
      const env = cleanEnv(vendor === 'anthropic' ? { ANTHROPIC_API_KEY: 'k-test' } : { GEMINI_API_KEY: 'k-test' });
      const r = await runCli(runArgs(writeSmall(dir, 'sample'), store, vendor, srv.url, ['--batch', '--poll', '0.01', '--batch-size', '40']), { env });
      expect([r.code, r.stderr.includes('failed')]).toEqual([0, false]);
      const f = storeFacts(store);
      expect([f.rows, f.distinct, f.complete, f.chunks.length]).toEqual([SMALL_TRIALS, SMALL_TRIALS, SMALL_TRIALS, 2]);
      expect(vendor === 'anthropic' ? (srv as AnthropicLoopback).batches.size : (srv as GeminiLoopback).ops.size).toBe(2);
      expect([...srv.outcomes.values()].every((o) => o.join() === 'ok')).toBe(true);
    } finally {
      await srv.close();
    }
  }, 60_000);
});

describe('one design, three vendors, one --batch run', () => {
  it('each model goes to its vendor\'s batch service; the tables equal those of a synchronous run of the same answers', async () => {
    const { startBatchLoopback } = await import('../helpers/loopback-batch.js');
    const ob = await startBatchLoopback({ answer: cellAnswer });
    const keysOf = new Map<string, string>();
    const a = await startAnthropicLoopback({ answer: cellAnswer, keyOf: (id) => keysOf.get(id) ?? id });
    const g = await startGeminiLoopback({ answer: cellAnswer });
    try {
      const text = (openai: string) => ['name: mixed', 'models:', `  - { id: gpt, provider: openai-chat, base_url: "${openai}" }`,
        `  - { id: claude, provider: anthropic, base_url: "${a.url}" }`, `  - { id: gem, provider: gemini, base_url: "${g.url}" }`,
        'games: [prisoners-dilemma]', 'framings: [business, friend-sharing]', 'trials: 5', 'decoding: { temperature: 0.8, max_tokens: 8 }', 'scoring: sample', ''].join('\n');
      const bd = join(dir, 'mixed-batch.yaml'), sd = join(dir, 'mixed-sync.yaml');
      writeFileSync(bd, text(ob.url));
      writeFileSync(sd, text(osrv.url));
      for (const s of expandDesign(parseDesign(text(ob.url), 'x.yaml'))) keysOf.set(anthropicCustomId(trialKey(s)), trialKey(s));
      const env = cleanEnv({ OPENAI_API_KEY: 'k1', ANTHROPIC_API_KEY: 'k2', GEMINI_API_KEY: 'k3' });
      const bs = join(dir, 'mixed-batch.sqlite'), ss = join(dir, 'mixed-sync.sqlite');
      const rb = await runCli(['run', bd, '--store', bs, '--batch', '--poll', '0.01'], { env });
      const rs = await runCli(['run', sd, '--store', ss], { env });
      expect([rb.code, rs.code]).toEqual([0, 0]);
      expect(storeFacts(bs).chunks.map((c) => c.lines)).toEqual([10, 10, 10]);
      expect([ob.batches.size, a.batches.size, g.ops.size]).toEqual([1, 1, 1]);
      const models = (b: { requests: { custom_id: string }[] }) => new Set(b.requests.map((r) => keysOf.get(r.custom_id)!.split('|')[0]));
      expect(models([...a.batches.values()][0])).toEqual(new Set(['claude']));
      expect(new Set([...g.ops.values()][0].requests.map((r) => r.metadata.key.split('|')[0]))).toEqual(new Set(['gem']));
      expect(tables(bs)).toEqual(tables(ss));
    } finally {
      await Promise.all([ob.close(), a.close(), g.close()]);
    }
  }, 60_000);
});
