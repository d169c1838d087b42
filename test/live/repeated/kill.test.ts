/**
 * Crash safety of repeated games: akata-pd.yaml with every model routed to a loopback
 * OpenAI-compatible server, SIGKILLed at three random moments and resumed with the same command.
 * Every match ends with rounds 1 … 10 once per LLM seat; no decision stored before a kill is
 * requested again (so the server answered at most the decisions plus the calls in flight at the
 * kills); a further run requests nothing. Every stored prompt of round t carries exactly t − 1
 * history sentences, in order, naming the stored moves of both seats; fixed strategies' moves
 * follow their definitions.
 *
 * The moments are drawn from a seeded stream (printed on failure). The server holds every answer
 * after the drawn count (a gate), so a run is certainly mid-way when it is killed; the test waits
 * on events, never on wall time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { streamFor } from '../../../src/stats/rng.js';
import { startLoopback, type Loopback } from '../../helpers/loopback-openai.js';
import { optionAnswer } from '../../helpers/repeated.js';
import { cleanEnv, ROOT, runCli, startCli } from '../../helpers/cli.js';

const DESIGN = join(ROOT, 'data/designs/akata-pd.yaml');
const DECISIONS = 270; // 3 models × (self 2 + two others 2·2 + three strategies 1) × 10 rounds, by hand
const CONCURRENCY = 6;

let dir: string;
let srv: Loopback;
let limit = Infinity, passed = 0;
let release: () => void = () => {};
let gate: Promise<void> = Promise.resolve();
let onHeld: () => void = () => {};
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-rkill-'));
  srv = await startLoopback({
    answer: (p) => optionAnswer(p),
    hold: () => { if (passed++ < limit) return Promise.resolve(); onHeld(); return gate; },
  });
});
afterAll(async () => { release(); await srv.close(); rmSync(dir, { recursive: true, force: true }); });

interface Row { model: string; rep: number; match_id: number; round: number; seat: number; opponent: string; action: string | null; opponent_move: string | null; prompt: string; status: string }
function rows(path: string): Row[] {
  const db = new Database(path); // read-write: opening recovers the WAL a killed process left
  const r = db.prepare('SELECT model, rep, match_id, round, seat, opponent, action, opponent_move, prompt, status FROM trial_records ORDER BY match_id, round, seat').all() as Row[];
  db.close();
  return r;
}
const keyOf = (r: Row) => `${r.model}|akata-pd|akata-jf|${r.rep}`;
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

it('kill -9 at three random moments, then resume: every round once per LLM seat, nothing stored asked again', async () => {
  const store = join(dir, 'akata.sqlite');
  const args = ['run', DESIGN, '--store', store, '--provider', 'openai-chat', '--base-url', srv.url, '--model', 'loop',
    '--concurrency', String(CONCURRENCY)];
  const env = cleanEnv({ OPENAI_API_KEY: 'sk-loop' });
  const seed = 22;
  const g = streamFor(seed, 'kill-moments');
  let storedBefore = new Set<string>();
  let inFlight = 0;
  for (let k = 0; k < 3; k++) {
    const answers = 10 + Math.floor(g.next() * 60); // a random moment of each run, inside it
    gate = new Promise((r) => { release = r; });
    const held = new Promise<void>((r) => { onHeld = r; });
    limit = passed + answers;
    const before = new Map(srv.requests);
    const run = startCli(args, { env });
    await held;
    run.child.kill('SIGKILL');
    expect((await run.done).signal, `seed ${seed}, kill ${k + 1} after ${answers} answers`).toBe('SIGKILL');
    release();
    const now = rows(store);
    const stored = new Set(now.filter((r) => r.status !== 'error').map(keyOf));
    // Nothing stored before this run was requested by it.
    expect([...storedBefore].filter((key) => (srv.requests.get(key) ?? 0) > (before.get(key) ?? 0))).toEqual([]);
    inFlight += (total(srv.requests) - total(before)) - (stored.size - storedBefore.size);
    expect(stored.size).toBeGreaterThan(storedBefore.size);
    storedBefore = stored;
    // The dry run counts what is left: Σ matches × rounds × LLM seats less the stored decisions.
    const dry = await runCli([...args, '--dry-run'], { env });
    expect(dry.stdout).toContain(`${DECISIONS - stored.size} calls to make (${DECISIONS} decisions`);
  }
  limit = Infinity;
  const r = await runCli(args, { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(`${storedBefore.size} already stored`);
  expect(inFlight).toBeLessThanOrEqual(3 * CONCURRENCY);
  expect(total(srv.requests)).toBeLessThanOrEqual(DECISIONS + inFlight);
  const asked = total(srv.requests);
  const again = await runCli(args, { env });
  expect(again.code).toBe(0);
  expect(total(srv.requests)).toBe(asked); // the third run requests nothing

  const all = rows(store);
  expect(all).toHaveLength(DECISIONS);
  const byMatch = new Map<number, Row[]>();
  for (const x of all) byMatch.set(x.match_id, [...(byMatch.get(x.match_id) ?? []), x]);
  expect(byMatch.size).toBe(18);
  const label = (a: string | null) => (a === 'C' ? 'J' : 'F');
  for (const [, ms] of byMatch) {
    for (const seat of new Set(ms.map((x) => x.seat))) {
      expect(ms.filter((x) => x.seat === seat).map((x) => x.round)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    }
    const move = (round: number, seat: number) => {
      const own = ms.find((x) => x.round === round && x.seat === seat);
      return own ? own.action : ms.find((x) => x.round === round && x.seat === 1)!.opponent_move;
    };
    for (const x of ms) {
      const sentences = [...x.prompt.matchAll(/In round (\d+), you chose Option (\S+) and the other player chose Option (\S+)\. Thus, you won (\d+) points and the other player won (\d+) points\./g)];
      expect(sentences.map((s) => Number(s[1]))).toEqual(Array.from({ length: x.round - 1 }, (_, i) => i + 1));
      for (const s of sentences) {
        const t = Number(s[1]);
        expect([s[2], s[3]]).toEqual([label(move(t, x.seat)), label(move(t, 3 - x.seat))]);
      }
    }
    const strategy = ms[0].opponent;
    const fixed = ms.filter((x) => x.seat === 1).map((x) => x.opponent_move).join('');
    if (strategy === 'always-cooperate') expect(fixed).toBe('CCCCCCCCCC');
    if (strategy === 'always-defect') expect(fixed).toBe('DDDDDDDDDD');
    if (strategy === 'defect-once') expect(fixed).toBe('DCCCCCCCCC');
  }
}, 300_000);
