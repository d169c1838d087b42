import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { cleanEnv, ROOT, runCli } from '../helpers/cli.js';
import { commandsMsg } from '../../src/commands/messages.js';
import { cliMsg } from '../../src/cli/messages.js';
import { providersMsg } from '../../src/live/providers/messages.js';

const QUICKSTART = join(ROOT, 'data/designs/quickstart.yaml');
// By hand from data/designs/quickstart.yaml: 2 models × 4 games × 4 framings × 25 trials, max_tokens 8.
const QUICKSTART_TRIALS = 2 * 4 * 4 * 25;
const QUICKSTART_MAX_TOKENS = 8;

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-cli-run-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('samegame run: the quickstart, offline', () => {
  it('dry-runs without creating a store: calls, output tokens by max tokens, and cost from price flags', async () => {
    const store = join(dir, 'dry.sqlite');
    const r = await runCli(['run', QUICKSTART, '--store', store, '--dry-run', '--provider', 'openai-chat', '--price-in', '1', '--price-out', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`dry run: ${QUICKSTART_TRIALS} calls (${QUICKSTART_TRIALS} trials, 0 already stored)`);
    const m = /estimated tokens: (\d+) input .*, (\d+) output/.exec(r.stdout)!;
    expect(Number(m[2])).toBe(QUICKSTART_TRIALS * QUICKSTART_MAX_TOKENS);
    const cost = (Number(m[1]) * 1 + Number(m[2]) * 2) / 1e6;
    expect(r.stdout).toContain(`estimated cost: $${cost.toFixed(4)}`);
    expect(existsSync(store)).toBe(false);
  });

  it('runs with no key and no network, exports one synthetic record per trial, and resumes with nothing to do', async () => {
    const store = join(dir, 'q.sqlite');
    const r = await runCli(['run', QUICKSTART, '--store', store], { env: cleanEnv() });
    expect(r.stderr).toContain(commandsMsg.runPlan('quickstart', 1, QUICKSTART_TRIALS, 0, false));
    expect(r.code).toBe(0);
    const csv = await runCli(['export', store, '--format', 'csv']);
    expect(csv.code).toBe(0);
    const rows = Papa.parse<Record<string, string>>(csv.stdout, { header: true, skipEmptyLines: true }).data;
    expect(rows).toHaveLength(QUICKSTART_TRIALS);
    expect(new Set(rows.map((x) => `${x.model}|${x.game}|${x.framing}|${x.rep}`)).size).toBe(QUICKSTART_TRIALS);
    expect(rows.every((x) => x.synthetic === 'true')).toBe(true);
    // Logprob scoring: every ok trial carries a probability in [0, 1].
    const ok = rows.filter((x) => x.status === 'ok');
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.every((x) => Number(x.p_cooperate) >= 0 && Number(x.p_cooperate) <= 1 && x.p_cooperate !== '')).toBe(true);
    expect(rows.every((x) => ['C', 'D', ''].includes(x.action))).toBe(true);

    const out = join(dir, 'q.jsonl');
    const jl = await runCli(['export', store, '--format', 'jsonl', '--out', out]);
    expect(jl.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(QUICKSTART_TRIALS);
    expect(JSON.parse(lines[0])).toMatchObject({ run: 1, design: 'quickstart', synthetic: true });

    const noRun = await runCli(['export', store, '--format', 'csv', '--run', '9']);
    expect([noRun.code, noRun.stderr.trim()]).toEqual([2, `samegame: ${commandsMsg.noSuchRun(store, 9, [1])}`]);
    const badFormat = await runCli(['export', store, '--format', 'xml']);
    expect(badFormat.code).not.toBe(0);
    expect(badFormat.stderr).toContain(cliMsg.badFormat('xml'));

    const again = await runCli(['run', QUICKSTART, '--store', store]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(commandsMsg.runPlan('quickstart', 1, QUICKSTART_TRIALS, QUICKSTART_TRIALS, true));
  });

  it('refuses an unknown provider and a missing key before creating a store', async () => {
    const store = join(dir, 'never.sqlite');
    const a = await runCli(['run', QUICKSTART, '--store', store, '--provider', 'nope']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--provider: "nope" is not one of ');
    const b = await runCli(['run', QUICKSTART, '--store', store, '--provider', 'openai-responses'], { env: cleanEnv() });
    expect(b.code).toBe(2);
    expect(b.stderr.trim()).toBe(`samegame: ${providersMsg.missingKey('Sim-A', 'OPENAI_API_KEY')}`);
    expect(existsSync(store)).toBe(false);
  });
});

describe('API keys never reach the store, an export or a log', () => {
  const SENTINEL = 'sk-SENTINEL-do-not-store-4f1c9a';
  let srv: Loopback;
  beforeAll(async () => {
    // Some failures too, so error messages and error bodies are checked as well.
    srv = await startLoopback({ fault: (key, n) => (key.endsWith('|1') && n === 1 ? { kind: 'server' } : key.endsWith('|2') ? { kind: 'client' } : undefined) });
  });
  afterAll(() => srv.close());

  for (const provider of ['openai-responses', 'openai-chat']) {
    it(`${provider}: the key is sent to the server and found nowhere else`, async () => {
      const design = join(dir, `${provider}.yaml`);
      writeFileSync(design, [
        `name: keys-${provider}`,
        'models:',
        `  - { id: M, provider: ${provider}, model: loop, base_url: "${srv.url}", api_key_env: SAMEGAME_TEST_KEY }`,
        'games: [prisoners-dilemma]',
        'framings: [business, abstract-matrix]',
        'trials: 3',
        'decoding: { max_tokens: 4, top_logprobs: 5 }',
        'scoring: logprobs',
        '',
      ].join('\n'));
      const sub = mkdtempSync(join(dir, 'keys-'));
      const store = join(sub, 'k.sqlite');
      const env = cleanEnv({ SAMEGAME_TEST_KEY: SENTINEL });
      const r = await runCli(['run', design, '--store', store, '--max-retries', '1'], { env });
      expect(r.code).toBe(0);
      const ex1 = await runCli(['export', store, '--format', 'jsonl'], { env });
      const ex2 = await runCli(['export', store, '--format', 'csv', '--out', join(sub, 'k.csv')], { env });
      expect(ex1.stdout.split('\n').filter(Boolean)).toHaveLength(6);
      expect(ex1.stdout).toContain('"status":"error"'); // rep 2 got a 400
      expect(srv.log.some((l) => l.authorization === `Bearer ${SENTINEL}`)).toBe(true);
      const texts = [r.stdout, r.stderr, ex1.stdout, ex1.stderr, ex2.stdout, ex2.stderr];
      for (const f of readdirSync(sub)) texts.push(readFileSync(join(sub, f)).toString('latin1'));
      for (const t of texts) expect(t).not.toContain(SENTINEL);
    });
  }
});
