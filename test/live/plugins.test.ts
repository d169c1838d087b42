/**
 * Provider plug-ins: the example gateway plug-in runs the quickstart end to end; a module without
 * createProvider, one whose createProvider throws, and a path that does not exist each fail with
 * one line naming the design file and the model, exit 2, and no store written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designJsonSchema, PROVIDER_IDS } from '../../src/live/design/schema.js';
import { parseDesign } from '../../src/live/design/design.js';
import { BUILTIN_PROVIDERS, providerIds } from '../../src/live/providers/registry.js';
import { pluginMsg } from '../../src/live/providers/messages.js';
import { startLoopback } from '../helpers/loopback-openai.js';
import { cleanEnv, ROOT, runCli, startCli } from '../helpers/cli.js';
import { cellAnswer, QUICKSTART, QUICKSTART_TRIALS, storeFacts } from '../helpers/batch-run.js';
import Database from 'better-sqlite3';
import { runInProcess, STACK } from '../helpers/in-process.js';
import { TrialStore } from '../../src/live/store/store.js';
import { chooseOneShotRun, storeTable } from '../../src/sources/store.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-plugins-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXAMPLE = join(ROOT, 'examples/providers/gateway.mjs');

describe('the example plug-in (examples/providers/gateway.mjs)', () => {
  it('runs the quickstart end to end, with the key it reads sent and nowhere stored', async () => {
    const srv = await startLoopback({ answer: cellAnswer });
    try {
      const store = join(dir, 'gw.sqlite');
      const r = await runCli(['run', QUICKSTART, '--store', store, '--provider', EXAMPLE, '--base-url', srv.url, '--model', 'loop'],
        { env: cleanEnv({ GATEWAY_API_KEY: 'gw-secret-key-123' }) });
      expect(r.code).toBe(0);
      const f = storeFacts(store);
      expect([f.rows, f.distinct, f.complete]).toEqual([QUICKSTART_TRIALS, QUICKSTART_TRIALS, QUICKSTART_TRIALS]);
      expect(srv.log).toHaveLength(QUICKSTART_TRIALS);
      expect(srv.log.every((l) => l.path === '/v1/chat/completions' && l.authorization === 'Bearer gw-secret-key-123')).toBe(true);
      const exp = await runCli(['export', store, '--format', 'csv']);
      expect(exp.stdout).not.toContain('gw-secret-key-123');
      // First-token scoring worked through the plug-in: every trial carries a probability.
      expect(exp.stdout.split('\n')[0]).toContain('p_cooperate');
    } finally {
      await srv.close();
    }
  }, 120_000);
});

describe('a broken plug-in: one line naming the design and the model, exit 2, no store', () => {
  const cases: [string, string | undefined, (design: string) => string][] = [
    ['no createProvider', 'export const provider = {};\n', () => pluginMsg.noExport()],
    ['createProvider throws', "export function createProvider() { throw new Error('no licence for this model'); }\n", () => pluginMsg.threw('no licence for this model')],
    ['a wrong shape', 'export function createProvider() { return { id: 1 }; }\n', () => pluginMsg.badShape('an object without a string "id"')],
    ['a module that does not load', 'export function createProvider( {\n', () => ''],
    ['a path that does not exist', undefined, (d) => pluginMsg.notFound(join(d, '..', '..', 'providers', 'p.mjs'))],
  ];
  it.each(cases)('%s', async (name, source, expected) => {
    const d = join(dir, name.replace(/\W+/g, '-'));
    mkdirSync(join(d, 'providers'), { recursive: true });
    if (source !== undefined) writeFileSync(join(d, 'providers', 'p.mjs'), source);
    const design = join(d, 'designs', 'x.yaml');
    mkdirSync(join(d, 'designs'));
    writeFileSync(design, 'name: x\nmodels:\n  - { id: mine, provider: ../providers/p.mjs }\ngames: [harmony]\nframings: [business]\ntrials: 2\n');
    const store = join(d, 'x.sqlite');
    for (const cmd of [['run', design, '--store', store], ['run', design, '--store', store, '--dry-run'], ['prompts', design]]) {
      if (name === 'createProvider throws' || name === 'a wrong shape') { if (cmd[0] !== 'run' || cmd.includes('--dry-run')) continue; }
      const r = await runCli(cmd, { env: cleanEnv() });
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      const prefix = `samegame: ${design}: model "mine": provider "../providers/p.mjs": `;
      expect(lines[0].startsWith(prefix)).toBe(true);
      if (expected(design) !== '') expect(lines[0]).toBe(`${prefix}${expected(design)}`);
      else expect(lines[0]).toContain('the provider module failed to load');
      expect(existsSync(store)).toBe(false);
    }
  }, 60_000);
});

describe('built-in provider ids: one Record', () => {
  it('the design schema, the error for an unknown id and the help text list the Record\'s keys', async () => {
    const keys = Object.keys(BUILTIN_PROVIDERS);
    expect([...PROVIDER_IDS]).toEqual(keys);
    expect(providerIds()).toEqual([...keys].sort());
    expect(JSON.stringify(designJsonSchema())).toContain(JSON.stringify(keys));
    expect(() => parseDesign('name: t\nmodels: [{ id: a, provider: openai }]\ngames: [harmony]\nframings: [business]\ntrials: 1\n', 't.yaml'))
      .toThrow(`expected one of ${keys.map((k) => JSON.stringify(k)).join('|')}`);
    const help = await runCli(['run', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`(${[...keys].sort().join(', ')}, or a plug-in module path)`);
  });
  it('module specs a design may name: paths, @scope/name, samegame-provider-*', () => {
    const ok = (p: string) => parseDesign(`name: t\nmodels: [{ id: a, provider: "${p}" }]\ngames: [harmony]\nframings: [business]\ntrials: 1\n`, 't.yaml').models[0].provider;
    for (const p of ['./p.mjs', '../x/p.js', '/abs/p.mjs', '@acme/samegame-gateway', 'samegame-provider-acme']) expect(ok(p)).toBe(p);
    for (const p of ['openai', 'gateway', 'openai-chatt']) expect(() => ok(p)).toThrow('or a provider module');
  });
});

describe('the minimal provider of docs/guides/write-a-provider.md', () => {
  it('runs a small design end to end (scoring: sample)', async () => {
    const guide = readFileSync(join(ROOT, 'docs/guides/write-a-provider.md'), 'utf8');
    const code = /## 2\. The interface[\s\S]*?```js\n([\s\S]*?)```/.exec(guide)![1]
      .replace("from 'samegame'", `from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/index.js')).href)}`);
    const d = join(dir, 'readme');
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'mine.mjs'), code);
    writeFileSync(join(d, 'd.yaml'), 'name: d\nmodels:\n  - { id: mine, provider: ./mine.mjs }\ngames: [harmony, stag-hunt]\nframings: [business]\ntrials: 3\n');
    const srv = await startLoopback();
    try {
      const r = await runCli(['run', join(d, 'd.yaml'), '--store', join(d, 'd.sqlite'), '--base-url', srv.url], { env: cleanEnv({ GATEWAY_API_KEY: 'k-123456' }) });
      expect(r.code).toBe(0);
      expect(storeFacts(join(d, 'd.sqlite')).complete).toBe(2 * 3);
      expect(srv.log.every((l) => l.authorization === 'Bearer k-123456')).toBe(true);
    } finally {
      await srv.close();
    }
  }, 60_000);
});

/**
 * Misbehaving provider plug-ins: createProvider once per model (two models naming one module get
 * two instances); a response of the wrong shape breaks the contract and stops the run at once
 * (exit 2, one line), the rerun resumes; a call that never settles is ended by
 * --timeout-ms; Ctrl-C twice ends the process and later answers are not stored; non-finite
 * first-token log-probabilities make the trial invalid; a huge retryAfterMs is ignored (the wait ceiling).
 * Plug-ins are written by each test (a module is imported once per process, so each test has its own file).
 */
describe('provider plug-ins that misbehave', () => {
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
      return db.prepare('SELECT model, rep, status, action, error, attempts, response, p_cooperate FROM trial_records ORDER BY model, rep').all() as Row[];
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
});
