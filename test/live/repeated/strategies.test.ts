/**
 * Fixed strategies played against fixed sequences of the other's moves. Expected moves are derived
 * by hand from each definition (docs/methods.md, "Repeated games"), round by round.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/games.js';
import { playAgainst, STRATEGIES, STRATEGY_IDS, type StrategyId } from '../../../src/live/repeated/strategies.js';

const seq = (s: string) => [...s] as Action[];
const OTHER = seq('CDDCDCCC');

const EXPECTED: Record<StrategyId, string> = {
  'always-cooperate': 'CCCCCCCC',
  'always-defect': 'DDDDDDDD',
  'defect-once': 'DCCCCCCC',
  // C, then the other's previous move: C C D D C D C C.
  'tit-for-tat': 'CCDDCDCC',
  // D, then the other's previous move.
  'suspicious-tit-for-tat': 'DCDDCDCC',
  // D only after two D in a row by the other: round 4 sees D in rounds 2 and 3.
  'tit-for-two-tats': 'CCCDCCCC',
  // C until the other's first D (round 2), D from round 3 on.
  'grim-trigger': 'CCDDDDDD',
  alternate: 'CDCDCDCD',
  // p = 0.5 (default) with draws 0.5 each round: u < p fails, so D every round.
  random: 'DDDDDDDD',
  // forgive 0.1 (default), draws 0.5: after a D never forgives: tit for tat.
  'generous-tit-for-tat': 'CCDDCDCC',
};

describe('fixed strategies against fixed sequences', () => {
  for (const id of STRATEGY_IDS) {
    it(`${id} (${STRATEGIES[id].name})`, () => {
      expect(playAgainst(id, OTHER).join('')).toBe(EXPECTED[id]);
    });
  }

  it('against all-C and all-D, the reactive strategies follow their definitions', () => {
    expect(playAgainst('tit-for-tat', seq('DDDD')).join('')).toBe('CDDD');
    expect(playAgainst('tit-for-two-tats', seq('DDDD')).join('')).toBe('CCDD');
    expect(playAgainst('grim-trigger', seq('CCCCDC')).join('')).toBe('CCCCCD');
    expect(playAgainst('suspicious-tit-for-tat', seq('CCCC')).join('')).toBe('DCCC');
  });

  it('random plays C when its draw is below p; generous tit for tat forgives a D when its draw is below forgive', () => {
    expect(playAgainst('random', OTHER, { p: 0.3 }, [0.1, 0.5, 0.29, 0.31, 0, 0.99, 0.3, 0.2]).join('')).toBe('CDCDCDDC');
    // After C: C. After D: C when the draw < 0.5.
    expect(playAgainst('generous-tit-for-tat', OTHER, { forgive: 0.5 }, [0.9, 0.9, 0.1, 0.9, 0.9, 0.1, 0.9, 0.9]).join('')).toBe('CCCDCCCC');
  });

  it('each strategy declares its name, memory depth, stochasticity and source, as the Axelrod library does', () => {
    for (const id of STRATEGY_IDS) {
      const s = STRATEGIES[id];
      expect(s.name.length).toBeGreaterThan(0);
      expect(s.source.length).toBeGreaterThan(0);
      expect(s.memoryDepth).toBeGreaterThanOrEqual(0);
    }
    expect(STRATEGIES['grim-trigger'].memoryDepth).toBe(Infinity);
    expect(STRATEGIES['tit-for-two-tats'].memoryDepth).toBe(2);
    expect(STRATEGY_IDS.filter((id) => STRATEGIES[id].stochastic)).toEqual(['random', 'generous-tit-for-tat']);
  });

  it('a deterministic strategy does not depend on the draw', () => {
    for (const id of STRATEGY_IDS.filter((i) => !STRATEGIES[i].stochastic)) {
      expect(playAgainst(id, OTHER, {}, OTHER.map(() => 0.01))).toEqual(playAgainst(id, OTHER, {}, OTHER.map(() => 0.99)));
    }
  });
});
