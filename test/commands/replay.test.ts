/**
 * replay and capsule on a store made through a loopback OpenAI-format server: the untouched store
 * replays (prompts, requests, decisions and outputs agree); one altered stored response, one altered
 * stored request, or a parser whose label list lost a label is named exactly (that trial, those
 * decisions) and exits non-zero; a capsule copied to a fresh folder verifies, and a tampered one not.
 */
import { cpSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze, capsule, replay, run } from '../../src/index.js';
import { UserError } from '../../src/core/errors.js';
import { scoreResponse } from '../../src/live/scoring/score.js';
import type { TrialSpec } from '../../src/live/types.js';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';
import { runCli, cleanEnv } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-replay-'));
let srv: Loopback;
const store = join(dir, 'runs', 'loop.sqlite');
const KEY = 'SAMEGAME_REPLAY_TEST_KEY';

beforeAll(async () => {
  // rep 5 of every cell fails with a 400: error trials store the planned request, which replay re-renders too.
  srv = await startLoopback({ fault: (key) => (key.endsWith('|5') ? { kind: 'client' } : undefined) });
  process.env[KEY] = 'sk-test';
  const design = join(dir, 'loop.yaml');
  writeFileSync(design, ['name: loop', 'models:', `  - { id: M, provider: openai-chat, model: loop, base_url: "${srv.url}", api_key_env: ${KEY} }`,
    'games: [prisoners-dilemma, stag-hunt]', 'framings: [business, friend-sharing]', 'trials: 6', 'decoding: { max_tokens: 4, temperature: 1 }',
    'scoring: sample', ''].join('\n'));
  await run({ design, store, maxRetries: 1 });
  await analyze({ store, figures: false });
}, 60_000);
afterAll(async () => {
  delete process.env[KEY];
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of the store with one trial's stored text (response or request) replaced, through the prompt registry. */
function altered(name: string, column: 'response_id' | 'request_id', key: [string, string, string, number], edit: (t: string) => string): string {
  const copy = join(dir, 'copies', `${name}.sqlite`);
  cpSync(store, copy);
  const db = new Database(copy);
  const old = db.prepare(`SELECT p.text FROM trials t JOIN prompts p ON p.id = t.${column}
    WHERE t.model = ? AND t.game = ? AND t.framing = ? AND t.rep = ?`).pluck().get(...key) as string;
  const text = edit(old);
  expect(text).not.toBe(old);
  const id = db.prepare('INSERT INTO prompts (sha256, text) VALUES (?, ?)').run(createHash('sha256').update(text).digest(), text).lastInsertRowid;
  db.prepare(`UPDATE trials SET ${column} = ? WHERE model = ? AND game = ? AND framing = ? AND rep = ?`).run(id, ...key);
  db.close();
  return copy;
}

async function differences(o: Parameters<typeof replay>[0]): Promise<{ error: UserError; lines: string[] }> {
  const lines: string[] = [];
  const e = await replay({ ...o, logger: { info: () => {}, warn: () => {}, print: (t) => lines.push(t.trim()) } }).then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(UserError);
  return { error: e as UserError, lines };
}

describe('replay', () => {
  it('the untouched store: every prompt, request, decision and output agrees (error trials included)', async () => {
    const db = new Database(store, { readonly: true });
    expect(db.prepare("SELECT count(*) FROM trials WHERE status = 'error'").pluck().get()).toBe(4);
    db.close();
    const r = await replay({ store });
    expect(r).toMatchObject({ agrees: true, trials: 24, differences: [] });
    expect(r.outputs).toBeGreaterThan(5);
  });

  it('--run with an id the store lacks is refused in one line naming its runs (exit 2), not replayed on the latest run', async () => {
    await expect(replay({ store, runId: 99 })).rejects.toThrow(`${store}: no run 99 (runs: 1)`);
    const r = await runCli(['replay', store, '--run', '99'], { env: cleanEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`samegame: ${store}: no run 99 (runs: 1)`]);
    expect(r.stdout).toBe('');
  });

  it('one altered stored response: exactly that trial\'s decision, exit 1', async () => {
    const copy = altered('response', 'response_id', ['M', 'stag-hunt', 'business', 0], (t) => t.replace(/"content":"[^"]*"/, '"content":"I pass"'));
    const { error, lines } = await differences({ store: copy });
    expect(error.exitCode).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^decision M\|stag-hunt\|business\|0: stored ok [CD], today's parser invalid/);
  });

  it('one altered stored request: exactly that trial\'s request', async () => {
    const copy = altered('request', 'request_id', ['M', 'prisoners-dilemma', 'friend-sharing', 3], (t) => t.replace('"temperature":1', '"temperature":0.7'));
    const { lines } = await differences({ store: copy });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^request M\|prisoners-dilemma\|friend-sharing\|3: differs at character \d+/);
  });

  it('a parser whose label list lost one label: exactly the decisions answered with it', async () => {
    const db = new Database(store, { readonly: true });
    // The loopback answers the D-word on odd reps (defaultAnswer): those are the decisions the label named.
    const dTrials = (db.prepare("SELECT model || '|' || game || '|' || framing || '|' || rep FROM trials WHERE action = 'D' ORDER BY 1").pluck().all() as
      string[]);
    db.close();
    expect(dTrials.length).toBeGreaterThan(0);
    const drop = (spec: TrialSpec) => Object.fromEntries(Object.entries(spec.labels).filter(([, a]) => a !== 'D'));
    const { lines } = await differences({ store, score: (spec, res) => scoreResponse({ ...spec, labels: drop(spec) }, res) });
    expect(lines.map((l) => l.split(':')[0].replace(/^decision /, '')).sort()).toEqual(dTrials);
    for (const l of lines) expect(l).toMatch(/stored ok D, today's parser invalid/);
  });

  it('the CLI exits 1 and prints the difference; a capsule copied to a fresh folder verifies, a tampered one does not', async () => {
    const copy = altered('cli', 'response_id', ['M', 'prisoners-dilemma', 'business', 2], (t) => t.replace(/"content":"[^"]*"/, '"content":"?"'));
    const r = await runCli(['replay', copy], { env: cleanEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^decision M\|prisoners-dilemma\|business\|2: /m);
    const cap = join(dir, 'capsule');
    await capsule({ store, out: cap });
    const fresh = mkdtempSync(join(tmpdir(), 'samegame-fresh-'));
    try {
      cpSync(cap, join(fresh, 'c'), { recursive: true });
      const ok = await runCli(['replay', join(fresh, 'c', 'store.sqlite'), '--capsule', join(fresh, 'c')], { env: cleanEnv(), cwd: fresh });
      expect(ok.stderr).toContain('every prompt, request, decision and output agrees');
      expect(ok.code).toBe(0);
      expect(readFileSync(join(fresh, 'c', 'README.md'), 'utf8')).toContain('npx samegame replay store.sqlite --capsule .');
      appendFileSync(join(fresh, 'c', 'outputs', 'reports', 'table3.csv'), 'x\n');
      copyFileSync(join(fresh, 'c', 'design.json'), join(fresh, 'c', 'extra.json'));
      const { lines } = await differences({ store: join(fresh, 'c', 'store.sqlite'), capsule: join(fresh, 'c') });
      expect(lines).toEqual(['manifest outputs/reports/table3.csv: its SHA-256 differs from the manifest\'s', 'manifest extra.json: not in the manifest',
        'output reports/table3.csv: the recomputed file differs from the stored one']);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 60_000);
});
