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
import { pluginMsg } from '../../src/live/providers/plugin-messages.js';
import { startLoopback } from '../helpers/loopback-openai.js';
import { cleanEnv, ROOT, runCli } from '../helpers/cli.js';
import { cellAnswer, QUICKSTART, QUICKSTART_TRIALS, storeFacts } from '../helpers/batch-run.js';

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
