/**
 * The match engine in process, on simulated models and on scripted providers: every match has
 * rounds 1 … N once per LLM seat, both seats of a model-against-model match agree, fixed strategies
 * play their definitions, a stopped run resumes without asking a stored decision again and stores
 * what an uninterrupted run stores, invalid answers follow on_invalid, and the reader, export and
 * dry run read what was stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decisionsTable } from '../../../src/core/decisions.js';
import { writeTrials } from '../../../src/commands/export.js';
import { parseDesign } from '../../../src/live/design/design.js';
import { ProviderPool } from '../../../src/live/providers/registry.js';
import { planRepeated } from '../../../src/live/repeated/dry-run.js';
import { runMatches } from '../../../src/live/repeated/engine.js';
import { prepareSession } from '../../../src/live/runner/session.js';
import { TrialStore } from '../../../src/live/store/store.js';
import type { ModelSpec, Provider, ProviderRequest, TrialRecord } from '../../../src/live/types.js';
import { readRepeatedStore } from '../../../src/sources/repeated-store.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-repeated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const DESIGN = `name: rep
synthetic: true
models:
  - { id: A, provider: simulated, options: { intercept: 0.5, reciprocity: 2 } }
  - { id: B, provider: simulated, options: { intercept: -0.5, reciprocity: 1 } }
games: [prisoners-dilemma]
framings: [{ id: jf, family: label-perturbation, labels: [J, F] }]
trials: 2
decoding: { seed: 3 }
play:
  rounds: 4
  opponents: [self, A, B, tit-for-tat, { strategy: random, p: 0.5 }]
  option_order: shuffle
`;

async function play(text: string, o: { providers?: { get(m: ModelSpec): Provider }; stopAfter?: number; store?: string } = {}) {
  const session = prepareSession(parseDesign(text, 'rep.yaml'), {});
  const path = o.store ?? join(dir, `s${++n}.sqlite`);
  const store = TrialStore.open(path);
  const { run } = store.openRun({ name: 'rep', hash: session.hash, json: session.json, toolVersion: '0', started: 'x' });
  const stop = new AbortController();
  let calls = 0;
  const base = o.providers ?? new ProviderPool();
  const providers = { get: (m: ModelSpec): Provider => ({ id: 'w', complete: (req: ProviderRequest) => {
    if (++calls === o.stopAfter) stop.abort();
    return base.get(m).complete(req);
  } }) };
  const r = await runMatches({ store, runId: run.id, design: session.design, providers, concurrency: 3, stop: stop.signal });
  const rows = [...store.playTrials(run.id)];
  store.close();
  return { r, rows, path, session };
}

const key = (t: TrialRecord) => `${t.play!.match}:${t.play!.round}:${t.play!.seat}`;

describe('runMatches on simulated models', () => {
  it('plays every match to the end, once per round and LLM seat, both seats agreeing', async () => {
    const { r, rows, path } = await play(DESIGN);
    // By hand: A against self (2 LLM seats), B (2), tit-for-tat (1), random (1), B the same: 12 seats × 2 matches × 4 rounds;
    // matches: 2 models × 4 opponents × 2.
    expect(r.total).toBe(96);
    expect([r.matches, r.matchesDone, r.ok + r.invalid]).toEqual([16, 16, 96]);
    expect(new Set(rows.map(key)).size).toBe(96);
    const d = readRepeatedStore(path);
    expect(d.decisions).toHaveLength(96);
    expect(d.synthetic).toBe(true);
    const by = new Map(d.decisions.map((x) => [`${x.match}:${x.round}:${x.seat}`, x]));
    for (const x of d.decisions) {
      const other = by.get(`${x.match}:${x.round}:${3 - x.seat}`);
      if (other) {
        expect(x.opponentAction).toBe(other.action); // both seats see the same round
        expect(other.opponent).toBe(x.model);
      }
      if (x.opponent === 'tit-for-tat') {
        expect(x.opponentAction).toBe(x.round === 1 ? 'C' : by.get(`${x.match}:${x.round - 1}:1`)!.action);
      }
      // Prisoner's Dilemma of Appendix A: CC 5, CD 2, DC 10, DD 3 for the row player (by hand).
      const pay = { CC: 5, CD: 2, DC: 10, DD: 3 } as Record<string, number>;
      if (x.action && x.opponentAction) expect(x.payoff).toBe(pay[x.action + x.opponentAction]);
    }
    const t = decisionsTable(d.decisions);
    expect(t.cells.map((c) => `${c.key.model}/${c.key.opponent}`).sort()).toEqual(
      ['A/B', 'A/random-0.5', 'A/self', 'A/tit-for-tat', 'B/A', 'B/random-0.5', 'B/self', 'B/tit-for-tat']); // self-play is `self` in the cell table
  });

  it('a stopped run resumes where it stopped: nothing stored is asked again, and it stores what an uninterrupted run stores', async () => {
    const whole = await play(DESIGN);
    const path = join(dir, 'resume.sqlite');
    const first = await play(DESIGN, { store: path, stopAfter: 30 });
    expect(first.r.outcome).toBe('interrupted');
    expect(first.rows.length).toBeGreaterThan(0);
    expect(first.rows.length).toBeLessThan(96);
    // The reader says how many matches are not over, as the engine counted them when it stopped.
    const unfinished = first.r.matches - first.r.matchesDone;
    expect(unfinished).toBeGreaterThan(0);
    expect(readRepeatedStore(path).notes).toEqual([expect.stringContaining(`${unfinished} of the design's ${first.r.matches} matches are not over`)]);
    const asked: string[] = [];
    const pool = new ProviderPool();
    const spy = { get: (m: ModelSpec): Provider => ({ id: 's', complete: (req: ProviderRequest) => { asked.push(`${req.spec.play!.match}:${req.spec.play!.round}:${req.spec.play!.seat}`); return pool.get(m).complete(req); } }) };
    const second = await play(DESIGN, { store: path, providers: spy });
    expect(second.r.alreadyDone).toBe(first.rows.length);
    expect(asked.filter((k) => first.rows.some((t) => key(t) === k))).toEqual([]);
    expect(asked).toHaveLength(96 - first.rows.length);
    const strip = (t: TrialRecord) => [key(t), t.prompt, t.action, t.text, t.play!.opponentMove];
    expect(second.rows.map(strip)).toEqual(whole.rows.map(strip));
    expect(readRepeatedStore(path).notes).toBeUndefined(); // every match over now
  });

  it('dry run: calls = Σ matches × rounds × LLM seats, input tokens growing with the round', () => {
    const session = prepareSession(parseDesign(DESIGN, 'rep.yaml'), {});
    const p = planRepeated(session.design, [], () => undefined);
    expect([p.calls, p.total, p.stored, p.matches, p.rounds]).toEqual([96, 96, 0, 16, 4]);
    const one = prepareSession(parseDesign(DESIGN.replace('rounds: 4', 'rounds: 2'), 'rep.yaml'), {});
    const p2 = planRepeated(one.design, [], () => undefined);
    // Round 3 and 4 prompts carry more history than rounds 1 and 2: twice the rounds, more than twice the tokens.
    expect(p.inputTokens).toBeGreaterThan(2 * p2.inputTokens);
  });

  it('export writes match, round, seat, opponent (self for self-play, the id in opponent_id), opponent_action and payoff', async () => {
    const { path } = await play(DESIGN.replace('trials: 2', 'trials: 1'));
    const store = TrialStore.openExisting(path);
    let csv = '';
    await writeTrials(store, 'csv', async (c) => { csv += c; });
    store.close();
    const [head, ...lines] = csv.trim().split('\n');
    expect(head).toContain('rep,match,round,seat,opponent,opponent_id,opponent_action,payoff,action');
    expect(lines).toHaveLength(48);
    const cols = head.split(',');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
    const self = rows.filter((x) => x.model === 'A' && x.opponent === 'self' && x.round === '1');
    expect(self.every((x) => x.opponent_id === 'A')).toBe(true);
    expect(rows.some((x) => x.opponent === x.model)).toBe(false);
    expect(self.map((x) => x.seat).sort()).toEqual(['1', '2']);
    expect(self[0].match).toBe(self[1].match);
    expect(self[0].opponent_action).toBe(self[1].action);
  });
});

/** A provider answering by a rule of the spec; counts calls per decision key. */
function scripted(answer: (k: string, nth: number) => string) {
  const calls = new Map<string, number>();
  const provider: Provider = {
    id: 'scripted',
    async complete(req) {
      const k = `${req.spec.play!.match}:${req.spec.play!.round}:${req.spec.play!.seat}`;
      const c = (calls.get(k) ?? 0) + 1;
      calls.set(k, c);
      return { text: answer(k, c), raw: '{}', request: {} };
    },
  };
  return { providers: { get: () => provider }, calls };
}

describe('on_invalid', () => {
  const ONE = DESIGN.replace('opponents: [self, A, B, tit-for-tat, { strategy: random, p: 0.5 }]', 'opponents: [always-defect]').replace('trials: 2', 'trials: 1');

  it('forfeit: the invalid round is stored invalid and its match stops there', async () => {
    const s = scripted((k) => (k === '1:2:1' ? 'maybe' : 'J'));
    const { r, rows } = await play(ONE, { providers: s.providers });
    expect(rows.filter((t) => t.play!.match === 1).map((t) => [t.play!.round, t.status])).toEqual([[1, 'ok'], [2, 'invalid']]);
    expect(rows.filter((t) => t.play!.match === 2)).toHaveLength(4);
    expect([r.matchesDone, r.forfeited]).toEqual([2, 1]);
  });

  it('retry N: asked again up to N times; a valid answer goes on, N invalid ones forfeit', async () => {
    const s = scripted((k, c) => (k === '1:2:1' && c < 3 ? 'maybe' : k === '2:3:1' ? 'maybe' : 'J'));
    const { rows } = await play(ONE.replace('option_order: shuffle', 'option_order: shuffle\n  on_invalid: { retry: 2 }'), { providers: s.providers });
    expect(s.calls.get('1:2:1')).toBe(3);
    expect(rows.find((t) => key(t) === '1:2:1')).toMatchObject({ status: 'ok', attempts: 3 });
    expect(rows.filter((t) => t.play!.match === 1)).toHaveLength(4);
    expect(s.calls.get('2:3:1')).toBe(3);
    expect(rows.filter((t) => t.play!.match === 2).map((t) => t.status)).toEqual(['ok', 'ok', 'invalid']);
  });
});

describe('a repeated store elsewhere', () => {
  it('analyze reads it as repeated play: cells.csv counts equal a direct count of the stored decisions', async () => {
    const { runCli } = await import('../../helpers/cli.js');
    const { readFileSync } = await import('node:fs');
    const { path, rows } = await play(DESIGN.replace('trials: 2', 'trials: 1'));
    const out = join(dir, 'analysis');
    const r = await runCli(['analyze', path, '--out', out, '--reps', '50']);
    expect(r.code, r.stderr).toBe(0);
    const want = new Map<string, { n: number; c: number }>();
    for (const t of rows) {
      if (t.status !== 'ok') continue;
      const k = `${t.model}|${t.play!.opponent === t.model ? 'self' : t.play!.opponent}`; // cells.csv writes self-play `self`
      const w = want.get(k) ?? { n: 0, c: 0 };
      w.n++; if (t.action === 'C') w.c++;
      want.set(k, w);
    }
    const [head, ...lines] = readFileSync(join(out, 'reports', 'cells.csv'), 'utf8').trim().split('\n').map((l) => l.split(','));
    const got = lines.map((l) => Object.fromEntries(head.map((h, i) => [h, l[i]])));
    expect(got).toHaveLength(want.size);
    for (const g of got) {
      const w = want.get(`${g.model}|${g.opponent}`)!;
      expect(Number(g.decisions)).toBe(w.n);
      expect(Number(g.cooperation)).toBeCloseTo(w.c / w.n, 12);
    }
  });
});
