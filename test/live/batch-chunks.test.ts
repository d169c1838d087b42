/**
 * Batch files: never over the line or byte limit (property test over synthetic trial sets, and a
 * lowered limit on a synthetic design through the CLI), one model per file, every trial once in
 * order; lines carry the synchronous providers' bodies; the store migration keeps old stores readable.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchLine, planChunks, trialKey } from '../../src/live/batch/chunks.js';
import { planBatchRun } from '../../src/live/batch/dry-run.js';
import { responsesBody } from '../../src/live/providers/openai-responses.js';
import { chatBody } from '../../src/live/providers/openai-chat.js';
import { BatchChunks } from '../../src/live/store/batch-chunks.js';
import { STORE_VERSION, storeVersion } from '../../src/live/store/migrations.js';
import { TrialStore } from '../../src/live/store/store.js';
import { UserError } from '../../src/core/errors.js';
import { parseDesign } from '../../src/live/design/design.js';
import { prepareSession } from '../../src/live/runner/session.js';
import { model, spec } from '../helpers/trial-specs.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { startBatchLoopback } from '../helpers/loopback-batch.js';
import { storeFacts } from '../helpers/batch-run.js';
import { writeStore } from '../helpers/store.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-chunks-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const specsArb = fc.array(fc.record({
  model: fc.constantFrom('a', 'b', 'c'),
  provider: fc.constantFrom('openai-responses', 'openai-chat'),
  promptLen: fc.integer({ min: 0, max: 400 }),
}), { maxLength: 120 }).map((xs) => xs.map((x, i) => spec(model(x.provider, 'http://127.0.0.1:9/v1', { id: x.model }), i, 'logprobs',
  { prompt: 'p'.repeat(x.promptLen) })));

describe('planChunks', () => {
  it('never exceeds maxLines or maxBytes, keeps one model per file, and keeps every trial once in order', () => {
    fc.assert(fc.property(specsArb, fc.integer({ min: 1, max: 30 }), fc.integer({ min: 2_000, max: 20_000 }), (specs, maxLines, maxBytes) => {
      const chunks = planChunks(specs, { maxLines, maxBytes });
      for (const c of chunks) {
        expect(c.specs.length).toBeLessThanOrEqual(maxLines);
        expect(Buffer.byteLength(c.text)).toBe(c.bytes);
        expect(c.bytes).toBeLessThanOrEqual(maxBytes);
        expect(new Set(c.specs.map((s) => s.model.id)).size).toBe(1);
        expect(c.text.split('\n').filter((l) => l !== '')).toHaveLength(c.specs.length);
      }
      expect(chunks.flatMap((c) => c.specs.map(trialKey))).toEqual(specs.map(trialKey));
    }));
  });

  it('refuses a single request larger than a file may be', () => {
    expect(() => planChunks([spec(model('openai-chat', 'http://x/v1'), 0, 'sample', { prompt: 'x'.repeat(5000) })], { maxLines: 10, maxBytes: 1000 }))
      .toThrow(UserError);
  });

  it('writes the body the synchronous provider sends, with custom_id = the trial key', () => {
    const r = spec(model('openai-responses'), 3);
    const c = spec(model('openai-chat', 'http://127.0.0.1:8000/v1'), 4);
    const o = spec(model('openai-chat'), 5);
    expect(JSON.parse(batchLine(r).line)).toEqual({ custom_id: 'm1|pd|abstract|3', method: 'POST', url: '/v1/responses', body: responsesBody(r) });
    expect(JSON.parse(batchLine(c).line)).toEqual({ custom_id: 'm1|pd|abstract|4', method: 'POST', url: '/v1/chat/completions', body: chatBody(c, false) });
    // OpenAI's own endpoint gets max_completion_tokens, as the synchronous provider sends it.
    expect((JSON.parse(batchLine(o).line) as { body: Record<string, unknown> }).body.max_completion_tokens).toBe(4);
  });

  it('prices a dry run at the batch discount (default one half)', () => {
    const specs = [0, 1].map((i) => spec(model('openai-chat', 'http://x/v1'), i));
    const full = planBatchRun(specs, () => false, new Set(), () => ({ input: 1, output: 2, batchDiscount: 0 }));
    const half = planBatchRun(specs, () => false, new Set(), () => ({ input: 1, output: 2 }));
    const quarter = planBatchRun(specs, () => false, new Set(['m1|pd|abstract|1']), () => ({ input: 1, output: 2, batchDiscount: 0.25 }));
    expect(half.cost).toBeCloseTo(full.cost! / 2, 12);
    expect([quarter.lines, quarter.inBatches, quarter.files]).toEqual([1, 1, 1]);
    expect(quarter.cost).toBeCloseTo((full.cost! / 2) * 0.75, 12);
  });
});

describe('a lowered limit on a synthetic design, through the CLI', () => {
  it('--batch-size 7 on 3 models × 2 games × 2 framings × 10 trials: files of at most 7 lines, one batch each', async () => {
    const design = join(dir, 'syn.yaml');
    writeFileSync(design, ['name: syn', 'models:', ...['x', 'y', 'z'].map((m) => `  - { id: ${m}, provider: openai-chat, batch: true }`),
      'games: [harmony, stag-hunt]', 'framings: [business, abstract-matrix]', 'trials: 10', 'decoding: { max_tokens: 4 }', ''].join('\n'));
    const srv = await startBatchLoopback();
    try {
      const store = join(dir, 'syn.sqlite');
      const r = await runCli(['run', design, '--store', store, '--base-url', srv.url, '--batch-size', '7', '--poll', '0.01'], { env: cleanEnv() });
      expect(r.code).toBe(0);
      const f = storeFacts(store);
      expect(f.complete).toBe(3 * 2 * 2 * 10);
      // By hand: 40 trials per model → files of 7,7,7,7,7,5 → 6 per model, 18 in all.
      expect(f.chunks.map((c) => c.lines)).toEqual([7, 7, 7, 7, 7, 5, 7, 7, 7, 7, 7, 5, 7, 7, 7, 7, 7, 5]);
      expect([...srv.createdPerChunk.values()]).toEqual(f.chunks.map(() => 1));
      const files = readdirSync(`${store}.batches`);
      expect(files).toHaveLength(18);
      for (const file of files) expect(readFileSync(join(`${store}.batches`, file), 'utf8').trim().split('\n').length).toBeLessThanOrEqual(7);
    } finally {
      await srv.close();
    }
  }, 60_000);
});

describe('store migration', () => {
  it('a store written before the batch tables is readable as it is, and gains them (version 1) when a batch run opens it', () => {
    const path = join(dir, 'old.sqlite');
    writeStore(path, { name: 'old' }, [{ model: 'm', game: 'g', framing: 'f', actions: ['C', 'D'] }]);
    const raw = new Database(path);
    expect(storeVersion(raw)).toBe(0);
    raw.close();
    const ro = TrialStore.openExisting(path);
    expect(BatchChunks.readOnly(ro)).toBeUndefined();
    expect(ro.statusCounts()).toEqual({ ok: 2, invalid: 0, error: 0 });
    ro.close();
    const rw = TrialStore.open(path);
    const chunks = BatchChunks.open(rw);
    expect(storeVersion(rw.database)).toBe(STORE_VERSION);
    expect(chunks.tag()).toMatch(/^[0-9a-f-]{36}$/);
    const tag = chunks.tag();
    BatchChunks.open(rw); // idempotent: the same tag, no second migration
    expect(BatchChunks.open(rw).tag()).toBe(tag);
    rw.close();
    const again = TrialStore.openExisting(path);
    expect(again.statusCounts()).toEqual({ ok: 2, invalid: 0, error: 0 });
    expect(BatchChunks.readOnly(again)!.chunks()).toEqual([]);
    again.close();
  });
});

describe('design fields of batch runs', () => {
  const doc = (extra: string, model = '') => `name: t\nmodels: [{ id: a, provider: openai-chat${model} }]\ngames: [harmony]\nframings: [business]\ntrials: 1\n${extra}`;
  it('prices.batch_discount reaches the model\'s prices; batch: true does not change the run identity', () => {
    const d = parseDesign(doc('prices: { input: 1, output: 2, batch_discount: 0.25 }\n'), 't.yaml');
    expect(d.models[0].prices).toEqual({ input: 1, output: 2, batchDiscount: 0.25 });
    expect(parseDesign(doc(''), 't.yaml').models[0].prices).toBeUndefined();
    const plain = prepareSession(parseDesign(doc(''), 't.yaml'), {});
    const batched = prepareSession(parseDesign(doc('', ', batch: true'), 't.yaml'), {});
    expect(batched.design.models[0].batch).toBe(true);
    expect(batched.hash).toBe(plain.hash);
  });
  it('batch_discount must be a fraction', () => {
    expect(() => parseDesign(doc('prices: { input: 1, output: 2, batch_discount: 2 }\n'), 't.yaml')).toThrow('t.yaml:6: field "prices.batch_discount"');
  });
});
