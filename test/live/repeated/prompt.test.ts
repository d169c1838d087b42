/**
 * The round prompt and the play block of a design. The Akata prompt is checked against text
 * assembled by hand from their script (../reference: pd/query_main.py, MIT): `question` with
 * num_interactions = 10, the history sentences each seat accumulates, and the round question.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { designHash, loadDesign, parseDesign } from '../../../src/live/design/design.js';
import { decisionCount, decisionSpec, planMatches } from '../../../src/live/repeated/plan.js';
import { optionOrder, roundPrompt, type PlayedRound } from '../../../src/live/repeated/prompt.js';
import { ROOT } from '../../helpers/cli.js';

const AKATA = loadDesign(join(ROOT, 'data/designs/akata-pd.yaml'));

// From pd/query_main.py: `question`, then the history, then the round question (non-Claude players).
const QUESTION = 'You are playing a game repeatedly with another player. In this game, you can choose between Option J and Option F. '
  + 'You will play 10 rounds in total with the same player. The rules of the game are as follows:\n'
  + 'If you choose Option J and the other player chooses Option J, then you win 8 points and the other player wins 8 points.\n'
  + 'If you choose Option J and the other player chooses Option F, then you win 0 points and the other player wins 10 points.\n'
  + 'If you choose Option F and the other player chooses Option J, then you win 10 points and the other player wins 0 points.\n'
  + 'If you choose Option F and the other player chooses Option F, then you win 5 points and the other player wins 5 points.\n\n';

const played = (s: string): PlayedRound[] => s.split(' ').filter((x) => x !== '').map((p) => ({ moves: [p[0], p[1]] as ['C' | 'D', 'C' | 'D'] }));

describe('the Akata round prompt', () => {
  const m = planMatches(AKATA)[0];
  const at = (seat: 1 | 2, round: number, history: PlayedRound[]) =>
    roundPrompt({ play: AKATA.play!, game: m.game, framing: m.framing, seat, match: m.match, round, history });

  it('is their prompt verbatim, history sentences from each seat\'s side', () => {
    const h = played('CD DD');
    const order = optionOrder(AKATA.play!, m.match, 3).map((a) => (a === 'C' ? 'J' : 'F'));
    const q = `\nYou are currently playing round 3.\nQ: Which Option do you choose, Option ${order[0]} or Option ${order[1]}?\nA: Option`;
    expect(at(1, 3, h).prompt).toBe(`${QUESTION}`
      + 'In round 1, you chose Option J and the other player chose Option F. Thus, you won 0 points and the other player won 10 points.\n'
      + 'In round 2, you chose Option F and the other player chose Option F. Thus, you won 5 points and the other player won 5 points.\n' + q);
    expect(at(2, 3, h).prompt).toBe(`${QUESTION}`
      + 'In round 1, you chose Option F and the other player chose Option J. Thus, you won 10 points and the other player won 0 points.\n'
      + 'In round 2, you chose Option F and the other player chose Option F. Thus, you won 5 points and the other player won 5 points.\n' + q);
    expect(at(1, 1, []).prompt).toBe(`${QUESTION}\nYou are currently playing round 1.\nQ: Which Option do you choose, Option ${
      optionOrder(AKATA.play!, m.match, 1).map((a) => (a === 'C' ? 'J' : 'F')).join(' or Option ')}?\nA: Option`);
  });

  it('round t carries exactly t − 1 history sentences', () => {
    for (let t = 1; t <= 10; t++) {
      const p = at(1, t, played('CC '.repeat(t - 1))).prompt;
      expect(p.match(/In round \d+, you chose/g)?.length ?? 0).toBe(t - 1);
    }
  });

  it('shuffles the two options from (seed, match, round): the same draw every time, both orders over rounds', () => {
    const orders = Array.from({ length: 200 }, (_, i) => optionOrder(AKATA.play!, 1 + (i % 7), 1 + i).join(''));
    expect(orders).toEqual(Array.from({ length: 200 }, (_, i) => optionOrder(AKATA.play!, 1 + (i % 7), 1 + i).join('')));
    const cFirst = orders.filter((o) => o === 'CD').length;
    expect(cFirst).toBeGreaterThan(70); // Binomial(200, 0.5): 70 is 4.2 sd below the mean
    expect(cFirst).toBeLessThan(130);
    expect(optionOrder({ optionOrder: 'fixed', seed: 0 }, 3, 4)).toEqual(['C', 'D']);
  });

  it('seat 2 of an asymmetric game sees the column player\'s payoffs', () => {
    const d = parseDesign(`name: t
models: [{ id: a, provider: simulated }]
games: [{ id: asym, payoffs: { C: { C: [3, 1], D: [0, 4] }, D: { C: [5, 2], D: [1, 0] } } }]
framings: [business]
trials: 1
play: { rounds: 2, opponents: [self], prompt: { template: "{rules}\\n--\\n{history}" }, history: { template: "{round} {own} {other} {own_payoff} {other_payoff}" } }`, 't.yaml');
    const mm = planMatches(d)[0];
    const h = played('CD');
    expect(decisionSpec(d, mm, 1, 2, h).prompt.split('\n--\n')[1]).toBe('1 C D 0 4\n');
    expect(decisionSpec(d, mm, 2, 2, h).prompt.split('\n--\n')[1]).toBe('1 D C 4 0\n');
  });
});

describe('the play block of a design', () => {
  it('akata-pd: 18 matches and 270 calls (3 models × (2 + 2·2 + 3) × 10, by hand)', () => {
    expect(planMatches(AKATA)).toHaveLength(18);
    expect(decisionCount(AKATA)).toBe(270);
  });

  const doc = (play: string) => `name: t
models: [{ id: a, provider: simulated }, { id: b, provider: simulated }]
games: [prisoners-dilemma]
framings: [business]
trials: 1
${play}`;
  const err = (text: string) => {
    try { parseDesign(text, 'd.yaml'); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
    throw new Error('expected a UserError');
  };

  it('names file, line and field of a wrong play block', () => {
    expect(err(doc('play: { rounds: 1, opponents: [self] }'))).toMatch(/^d\.yaml:6: field "play\.rounds": /);
    expect(err(doc('play:\n  rounds: 3\n  opponents: [self, c]'))).toMatch(/^d\.yaml:8: field "play\.opponents\[1\]": opponent "c" is neither self/);
    expect(err(doc('play:\n  rounds: 3\n  opponents: [self, self]'))).toMatch(/duplicate opponent id "self"/);
    expect(err(doc('play:\n  rounds: 3\n  opponents: [self]\n  history: { template: "{round} {mine}" }'))).toMatch(/"play\.history\.template": unknown placeholder \{mine\}/);
    expect(err(doc('play:\n  rounds: 3\n  opponents: [{ strategy: random, p: 2 }]'))).toMatch(/play\.opponents\[0\]\.p/);
    expect(err(doc('play:\n  rounds: 3\n  opponents: [self]\n  history: chat'))).toMatch(/^d\.yaml:9: field "play\.history": expected "akata", "table" or \{template: TEXT\}/);
  });

  it('a strategy with a parameter is named after it; model ids as opponents skip the model itself', () => {
    const d = parseDesign(doc('play: { rounds: 2, opponents: [a, b, { strategy: random, p: 0.3 }] }'), 'd.yaml');
    expect(planMatches(d).map((m) => `${m.seat1.id}-${m.opponent}`)).toEqual(['a-b', 'a-random-0.3', 'b-a', 'b-random-0.3']);
  });

  it('a design without play is unchanged by it', () => {
    const plain = doc('');
    expect('play' in parseDesign(plain, 'd.yaml')).toBe(false);
    expect(designHash(parseDesign(plain, 'd.yaml'))).toBe(designHash(parseDesign(`${plain}\n# a comment`, 'd.yaml')));
  });

  it('any play value either validates or is refused with one UserError (never another error)', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('rounds', 'opponents', 'history', 'horizon', 'option_order', 'on_invalid', 'prompt', 'seed', 'x'),
        fc.oneof(fc.integer({ min: -2, max: 2000 }), fc.constantFrom('self', 'a', 'tit-for-tat', 'akata', 'table', 'shuffle', 'forfeit'),
          fc.array(fc.constantFrom('self', 'a', 'b', 'random', 'zz'), { maxLength: 3 }))));
    fc.assert(fc.property(value, (v) => {
      try {
        parseDesign(doc(`play: ${JSON.stringify(v)}`), 'd.yaml');
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
      }
    }), { numRuns: 300 });
  });
});
