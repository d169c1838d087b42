/**
 * Misbehaving provider plug-ins: createProvider once per model (two models naming one module get
 * two instances); a response of the wrong shape breaks the contract and stops the run at once
 * (exit 2, one line), the rerun resumes; a call that never settles is ended by
 * --timeout-ms; Ctrl-C twice ends the process and later answers are not stored; non-finite
 * first-token log-probabilities make the trial invalid; a huge retryAfterMs is ignored (the wait ceiling).
 * Plug-ins are written by each test (a module is imported once per process, so each test has its own file).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli, startCli } from '../helpers/cli.js';
import { runInProcess, STACK } from '../helpers/in-process.js';
import { TrialStore } from '../../src/live/store/store.js';
import { chooseOneShotRun, storeTable } from '../../src/sources/store.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-plugin-hard-'));

/** A design of `models` naming the module ./p.mjs, one game and framing, `trials` reps; and the module. */
function setup(source: string, o: { models?: string[]; trials?: number; scoring?: 'sample' | 'logprobs' } = {}): { design: string; store: string } {
  const d = tmp();
  writeFileSync(join(d, 'p.mjs'), source);
  const models = (o.models ?? ['A']).map((m) => `  - { id: ${m}, provider: ./p.mjs }`).join('\n');
  writeFileSync(join(d, 'd.yaml'), `name: d\nmodels:\n${models}\ngames: [harmony]\nframings: [business]\ntrials: ${o.trials ?? 2}\nscoring: ${o.scoring ?? 'sample'}\n`);
  return { design: join(d, 'd.yaml'), store: join(d, 's.sqlite') };
}

type Row = { model: string; rep: number; status: string; action: string | null; error: string | null; attempts: number; response: string | null; p_cooperate: number | null };
function rows(store: string): Row[] {
  const db = new Database(store, { readonly: true });
  try {
    return db.prepare('SELECT model, rep, status, action, error, attempts, response, p_cooperate FROM trials ORDER BY model, rep').all() as Row[];
  } finally { db.close(); }
}
const lockRows = (store: string) => { const db = new Database(store, { readonly: true }); try { return db.prepare('SELECT count(*) FROM writer_lock').pluck().get(); } finally { db.close(); } };

describe('createProvider once per model', () => {
  it('two models naming one module get two instances: each model\'s trials are answered by its own', async () => {
    const { design, store } = setup(`
let made = 0;
export function createProvider(model) {
  const me = { model: model.id, instance: ++made };
  return { id: 'p', async complete({ spec }) {
    const word = me.model === 'A' ? spec.actionWords[0] : spec.actionWords[1];
    return { text: word, raw: JSON.stringify(me), request: { asked: spec.model.id } };
  } };
}
`, { models: ['A', 'B'], trials: 3 });
    const r = await runCli(['run', design, '--store', store, '-q'], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    const all = rows(store);
    expect(all).toHaveLength(6);
    for (const t of all) {
      expect(JSON.parse(t.response!).model).toBe(t.model);
      expect(t.action).toBe(t.model === 'A' ? 'C' : 'D');
    }
    expect(new Set(all.map((t) => JSON.parse(t.response!).instance)).size).toBe(2);
  });
});

describe('a response of the wrong shape', () => {
  it('breaks the contract: the run stops at once with one line naming the plug-in and the field, exit 2; the trials stored are kept and the rerun resumes', async () => {
    const { design, store } = setup(`
export function createProvider(model, settings) {
  return { id: 'p', async complete({ spec }) {
    const good = { text: spec.actionWords[0], raw: '{}', request: {} };
    if (settings.env.PLUGIN_MODE === 'good' || spec.rep < 2) return good;
    return { ...good, raw: { body: 1 } };
  } };
}
`, { trials: 6 });
    const r = await runCli(['run', design, '--store', store, '--max-retries', '3', '--concurrency', '1'], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr).toMatch(/^samegame: plug-in \.\/p\.mjs \(model A\) broke the provider contract: "raw" is object, not a string .*the trials stored are kept$/m);
    const first = rows(store);
    expect(first.map((t) => [t.rep, t.status, t.attempts])).toEqual([[0, 'ok', 1], [1, 'ok', 1]]);
    expect(lockRows(store)).toBe(0);
    const again = await runCli(['run', design, '--store', store, '-q'], { env: cleanEnv({ PLUGIN_MODE: 'good' }) });
    expect(again.code, again.stderr).toBe(0);
    expect(rows(store).map((t) => t.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
  });
});

describe('a call that never settles', () => {
  it('is ended by --timeout-ms although the provider ignores its signal: failed as timeout, summary printed, lock released', async () => {
    const { design, store } = setup(`
export function createProvider() {
  return { id: 'p', complete({ spec }) {
    if (spec.rep === 0) return new Promise(() => {});
    return Promise.resolve({ text: spec.actionWords[1], raw: '{}', request: {} });
  } };
}
`, { trials: 2 });
    const r = await runInProcess(['run', design, '--store', store, '--timeout-ms', '100', '--max-retries', '1'], 20_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/done: 2 trials/i);
    const all = rows(store);
    expect(all.map((t) => [t.rep, t.status, t.attempts])).toEqual([[0, 'error', 2], [1, 'ok', 1]]);
    expect(all[0].error).toMatch(/^timeout: .*--timeout-ms 100/);
    expect(lockRows(store)).toBe(0);
  }, 30_000);
});

describe('Ctrl-C twice', () => {
  it('ends the process although the provider ignores its signal and holds the process; later answers are not stored', async () => {
    const { design, store } = setup(`
export function createProvider() {
  setInterval(() => {}, 1000); // something that keeps a process alive
  return { id: 'p', complete({ spec }) {
    process.stderr.write('call ' + spec.rep + '\\n');
    return new Promise((resolve) => setTimeout(() => resolve({ text: spec.actionWords[0], raw: '{}', request: {} }), 1500));
  } };
}
`, { trials: 3 });
    const { child, done } = startCli(['run', design, '--store', store, '--concurrency', '3']);
    await new Promise<void>((resolve) => {
      let seen = '';
      child.stderr!.on('data', (d: Buffer) => { seen += d.toString(); if (/call 2/.test(seen)) resolve(); });
    });
    const t0 = Date.now();
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    const res = await done;
    // The answers arrive 1.5 s after the calls, after the second Ctrl-C: dropped; the plug-in's
    // interval would hold the process for ever, so it ends by the forced exit (3 s) at the latest.
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(res.code).toBe(130);
    expect(res.stderr).toMatch(/aborted/);
    expect(rows(store)).toEqual([]);
  }, 30_000);
});

describe('first-token log-probabilities that are not finite numbers', () => {
  it('make the trial invalid with a reason, never ok with a null probability', async () => {
    const { design, store } = setup(`
const bad = [Infinity, NaN, 'x', null];
export function createProvider() {
  return { id: 'p', async complete({ spec }) {
    const w = spec.actionWords;
    const lp = spec.rep < bad.length ? bad[spec.rep] : -0.5;
    return { text: w[0], raw: '{}', request: {}, firstTokenTopLogprobs: [{ token: w[0], logprob: lp }, { token: w[1], logprob: -1 }] };
  } };
}
`, { trials: 5, scoring: 'logprobs' });
    const r = await runCli(['run', design, '--store', store, '-q'], { env: cleanEnv() });
    expect(r.code, r.stderr).toBe(0);
    const all = rows(store);
    expect(all.map((t) => t.status)).toEqual(['invalid', 'invalid', 'invalid', 'invalid', 'ok']);
    for (const t of all.slice(0, 4)) {
      expect(t.p_cooperate).toBeNull();
      expect(t.error).toMatch(/log-probability that is not a number or not finite/);
    }
    // Independent: P(C) = e^−0.5 / (e^−0.5 + e^−1).
    expect(all[4].p_cooperate).toBeCloseTo(Math.exp(-0.5) / (Math.exp(-0.5) + Math.exp(-1)), 12);
    // What analyze reads: the cell holds the one probability, not counts of the texts' actions.
    const st = TrialStore.openExisting(store);
    try {
      const cells = storeTable(st, chooseOneShotRun(st, store)).table.cells;
      expect(cells.map((c) => c.obs)).toEqual([{ kind: 'prob', values: Float64Array.from([all[4].p_cooperate!]) }]);
    } finally { st.close(); }
  });
});

describe('retryAfterMs beyond the wait ceiling', () => {
  it('1e12 ms is ignored with one warning naming it: the ordinary backoff retries, no TimeoutOverflowWarning, the trial fails after its attempts', async () => {
    const { design, store } = setup(`
import { ProviderError } from ${JSON.stringify(new URL('../../dist/index.js', import.meta.url).href)};
export function createProvider() {
  return { id: 'p', async complete() {
    throw new ProviderError('rate_limit', 'slow down', 429, 1e12);
  } };
}
`, { trials: 1 });
    const t0 = Date.now();
    const res = await startCli(['run', design, '--store', store, '--max-retries', '2']).done;
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).not.toMatch(/TimeoutOverflowWarning/);
    expect(res.stderr.match(/above the ceiling of 60 s \(--max-wait\)/g)).toHaveLength(1);
    expect(rows(store).map((t) => [t.status, t.attempts])).toEqual([['error', 3]]);
  }, 30_000);
});
