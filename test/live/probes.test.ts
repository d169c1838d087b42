/**
 * Comprehension probes (docs/methods.md §18c): the questions of a cell (all 8 in a seeded order per
 * block of 8), the answers' scoring, the simulated provider's error rate, the comprehension table
 * and verdicts, and a compatible server reached over loopback that answers one framing with the
 * game's payoffs and the other with a "fined" payoff.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseDesign } from '../../src/live/design/design.js';
import { expandProbes, expectedAnswer, PROBE_QUESTIONS, probeOrder } from '../../src/live/probes/questions.js';
import { probeAnswer, scoreProbe } from '../../src/live/probes/score.js';
import { comprehensionRows, comprehensionVerdicts, type ScoredProbe } from '../../src/live/probes/comprehension.js';
import { createSimulatedProvider } from '../../src/live/providers/simulated.js';
import { createOpenAIChatProvider } from '../../src/live/providers/openai-chat.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import type { Provider, TrialSpec } from '../../src/live/types.js';
import { startLoopback, type Loopback } from '../helpers/loopback-openai.js';

const design = (models: string, framings: string) => parseDesign(`name: p
models:
${models}
games: [prisoners-dilemma, stag-hunt]
framings:
${framings}
trials: 1
`, 'p.yaml');
const TWO = `  - { id: plain, labels: [Help, Keep], template: "You and another player each choose.\\n{payoffs}" }
  - { id: warden, labels: [Help, Keep], template: "You and another player are held by a warden, who fines anyone who chooses {D} three points.\\n{payoffs}" }`;

async function answer(p: Provider, specs: readonly TrialSpec[]): Promise<ScoredProbe[]> {
  // Eight calls at a time: the whole list at once can outlast a call's timeout on a loaded machine.
  const texts: string[] = [];
  for (let i = 0; i < specs.length; i += 8) {
    texts.push(...await Promise.all(specs.slice(i, i + 8).map(async (s) => (await p.complete({ spec: s, signal: new AbortController().signal })).text)));
  }
  return specs.map((s, i) => ({
    model: s.model.id, game: s.game, framing: s.framing, outcome: s.context.probe!.outcome, score: scoreProbe(texts[i], s.context.probe! as Parameters<typeof scoreProbe>[1]),
  }));
}

describe('the questions of a cell', () => {
  it('ask all 8 (4 outcomes × 2 players) in every block of 8, in a seeded order that differs between cells', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 1e6 }), fc.string(), (n, seed, key) => {
      const qs = probeOrder(n, seed, key);
      expect(qs).toHaveLength(n);
      for (let b = 0; b + 8 <= n; b += 8) expect(new Set(qs.slice(b, b + 8).map((q) => `${q.outcome}/${q.player}`)).size).toBe(8);
      expect(probeOrder(n, seed, key)).toEqual(qs);
    }), { numRuns: 100 });
    const orders = new Set(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => JSON.stringify(probeOrder(8, 1, k))));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('carry the framing\'s story, the question in its labels and the game\'s answer (Prisoner\'s Dilemma, Appendix A)', () => {
    const d = design('  - { id: Sim, provider: simulated }', TWO);
    const specs = expandProbes(d, 8);
    expect(specs).toHaveLength(1 * 2 * 2 * 8);
    const pd = specs.filter((s) => s.game === 'prisoners-dilemma' && s.framing === 'plain');
    const g = d.games[0];
    for (const q of PROBE_QUESTIONS) expect(expectedAnswer(g, q)).toBe(g.payoffs[q.outcome[0] as 'C'][q.outcome[1] as 'C'][q.player === 'you' ? 0 : 1]);
    const s = pd.find((x) => x.context.probe!.outcome === 'CD' && x.context.probe!.player === 'other')!;
    expect(s.prompt.startsWith('You and another player each choose.\n- If you choose Help and the other player chooses Help')).toBe(true);
    const question = 'Question: if you choose Help and the other player chooses Keep, how many points does the other player get? Answer with a number only.';
    expect(s.prompt.endsWith(question)).toBe(true);
    expect(s.context.probe!.expected).toBe(g.payoffs.C.D[1]);
    expect(s.prompt).not.toMatch(/Answer with exactly one word/);
  });
});

describe('scoring an answer', () => {
  it('reads the one number of the text; none or two different numbers are invalid', () => {
    expect(probeAnswer('5')).toBe(5);
    expect(probeAnswer('You get **10** points.')).toBe(10);
    expect(probeAnswer('-2')).toBe(-2);
    expect(probeAnswer('2.5 points')).toBe(2.5);
    expect(probeAnswer('5 or 10')).toBeNull();
    expect(probeAnswer('five')).toBeNull();
    expect(probeAnswer('5 points, so 5.')).toBe(5);
    expect(scoreProbe(null, { outcome: 'CC', player: 'you', expected: 5 })).toBe('invalid');
    expect(scoreProbe('4', { outcome: 'CC', player: 'you', expected: 5 })).toBe('wrong');
    const tails = fc.constantFrom('', ' points', '.', ' points.');
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), tails, fc.constantFrom('', 'I get ', 'Answer: '), (n, tail, head) => {
      expect(probeAnswer(`${head}${n}${tail}`)).toBe(n);
    }));
  });
});

describe('the simulated provider', () => {
  it('with probe_error 0.2 is 80% accurate: 0.8 lies in the Wilson interval of its accuracy in at least 17 of 20 seeds', async () => {
    // 20 seeds × 400 probes; with a 95% interval the count covering 0.8 is Binomial(20, 0.95): P(≤ 16) ≈ 0.016.
    let covered = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const d = design(`  - { id: Sim, provider: simulated, options: { probe_error: 0.2 } }\ndecoding: { seed: ${seed} }`, TWO);
      const scored = await answer(createSimulatedProvider(), expandProbes(d, 100));
      expect(scored).toHaveLength(400);
      const correct = scored.filter((s) => s.score === 'correct').length;
      const [lo, hi] = wilsonInterval(correct, scored.length);
      if (lo <= 0.8 && 0.8 <= hi) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(17);
  });

  it('with probe_error 0 answers every probe with the game\'s points', async () => {
    const d = design('  - { id: Sim, provider: simulated }', TWO);
    const scored = await answer(createSimulatedProvider(), expandProbes(d, 8));
    expect(scored.every((s) => s.score === 'correct')).toBe(true);
    expect(comprehensionVerdicts(scored).map((v) => v.shown)).toEqual([true, true]);
  });
});

describe('a compatible server over loopback that answers the warden framing with the fined payoff', () => {
  let srv: Loopback;
  // Prisoner's Dilemma and Stag Hunt payoffs as the design resolves them; the server reads the question off the prompt.
  const d = () => design('  - { id: Loop, provider: openai-chat, model: loop, base_url: "http://127.0.0.1:1/v1" }', TWO);
  beforeAll(async () => {
    const games = d().games;
    srv = await startLoopback({
      answer: (prompt) => {
        const m = /if you choose (Help|Keep) and the other player chooses (Help|Keep), how many points (do you|does the other player) get/.exec(prompt)!;
        const [x, y] = [m[1] === 'Help' ? 'C' : 'D', m[2] === 'Help' ? 'C' : 'D'] as const;
        const cc = (g: typeof games[number]) => `chooses Help, you receive ${g.payoffs.C.C[0]} points and the other player receives ${g.payoffs.C.C[1]} points`;
        const game = games.find((g) => prompt.includes(`If you choose Help and the other player ${cc(g)}`))!;
        const you = m[3] === 'do you';
        const points = game.payoffs[x][y][you ? 0 : 1] - (prompt.includes('warden') && you && x === 'D' ? 3 : 0);
        return { text: `${points}` };
      },
    });
  });
  afterAll(() => srv.close());

  it('counts right, and flags the warden framing "not shown payoff-equivalent for this model"', async () => {
    const specs = expandProbes(d(), 16).map((s) => ({ ...s, model: { ...s.model, baseUrl: srv.url } }));
    const scored = await answer(createOpenAIChatProvider({ apiKey: 'sk-test', baseURL: srv.url, timeoutMs: 60_000 }), specs);
    const rows = comprehensionRows(scored);
    expect(rows).toHaveLength(2 * 2 * 4);
    for (const r of rows) {
      expect(r.asked).toBe(4); // 16 probes = 2 blocks of 8: each outcome twice for each of the 2 players
      // Under the warden, your points of DC and DD are fined: the 2 "you" questions of each of those outcomes are wrong.
      expect(r.correct).toBe(r.framing === 'warden' && r.outcome[0] === 'D' ? 2 : 4);
    }
    const v = comprehensionVerdicts(scored);
    expect(v.map((x) => [x.framing, x.asked, x.correct, x.shown, x.below])).toEqual([['plain', 32, 32, true, false], ['warden', 32, 24, false, true]]);
    expect(v[1].differsFrom).toEqual(['plain']);
    expect(srv.log.length).toBe(64);
  });
});
