import { describe, expect, it } from 'vitest';
import { namesWord, scoreFirstToken } from '../../src/live/scoring/first-token.js';

const lp = (token: string, p: number) => ({ token, logprob: Math.log(p) });

describe('namesWord: trimmed, upper-cased, non-empty prefix', () => {
  it.each([
    [' co', 'COOPERATE', true], ['COOPERATE', 'COOPERATE', true], ['c', 'COOPERATE', true], ['\tJ ', 'J', true],
    ['COOPERATIVE', 'COOPERATE', false], ['', 'COOPERATE', false], ['  ', 'COOPERATE', false], ['**', 'J', false],
    ['D', 'COOPERATE', false], ['Ju', 'J', false],
  ] as const)('%j vs %s → %s', (tok, word, want) => expect(namesWord(tok, word)).toBe(want));
});

describe('scoreFirstToken', () => {
  it('both actions present: t/(t+r), bounds equal the point value', () => {
    // t = 0.6 + 0.1 = 0.7 (" j" counts for J), r = 0.2, p = 0.7/0.9 = 7/9; returned 0.95, unreturned 0.05.
    const s = scoreFirstToken([lp('J', 0.6), lp('F', 0.2), lp(' j', 0.1), lp('**', 0.05)], ['J', 'F']);
    expect(s.status).toBe('ok');
    expect(s.t).toBeCloseTo(0.7, 12);
    expect(s.r).toBeCloseTo(0.2, 12);
    expect(s.pCooperate).toBeCloseTo(7 / 9, 12);
    expect(s.returned).toBeCloseTo(0.95, 12);
    expect(s.unreturned).toBeCloseTo(0.05, 12);
    expect(s.imputed).toBe('none');
    expect(s.bounds!.missingAtZero).toBeCloseTo(7 / 9, 12);
    expect(s.bounds!.missingAtFull).toBeCloseTo(7 / 9, 12);
  });

  it('the second action is missing from the top 20: imputed as half the unreturned mass', () => {
    // 20 candidates. C: " Co" 0.40 + "COOP" 0.20 + "c" 0.10 = t = 0.70. Seventeen others at 0.01 each
    // = 0.17, among them "COOPERATIVE" (longer than the word, not a prefix), "Defection" (not a
    // prefix of DEFECT) and " " (empty after trimming): none counts. Returned = 0.87, unreturned
    // u = 0.13; r is imputed as u/2 = 0.065 → p = 0.70/0.765 = 0.9150326797…
    // Bounds: r = 0 → p = 1; r = u = 0.13 → p = 0.70/0.83 = 0.8433734940…
    const others = ['The', 'I', '**', '\n', 'We', 'As', 'My', 'Given', 'In', 'To', 'Based', 'This', 'Let', 'So', 'COOPERATIVE', 'Defection', ' '];
    const top = [lp(' Co', 0.4), lp('COOP', 0.2), lp('c', 0.1), ...others.map((t) => lp(t, 0.01))];
    expect(top).toHaveLength(20);
    const s = scoreFirstToken(top, ['COOPERATE', 'DEFECT']);
    expect(s.status).toBe('ok');
    expect(s.imputed).toBe('D');
    expect(s.t).toBeCloseTo(0.7, 12);
    expect(s.r).toBe(0);
    expect(s.unreturned).toBeCloseTo(0.13, 12);
    expect(s.pCooperate).toBeCloseTo(0.9150326797385621, 12);
    expect(s.bounds!.missingAtZero).toBeCloseTo(1, 12);
    expect(s.bounds!.missingAtFull).toBeCloseTo(0.8433734939759036, 12);
  });

  it('the first action is missing: bounds 0 and u/(u + r)', () => {
    // r = 0.9, returned 0.94, u = 0.06; t imputed 0.03 → p = 0.03/0.93 = 0.0322580645…;
    // bounds: t = 0 → 0; t = 0.06 → 0.06/0.96 = 0.0625.
    const s = scoreFirstToken([lp('F', 0.9), lp('**', 0.04)], ['J', 'F']);
    expect(s.imputed).toBe('C');
    expect(s.pCooperate).toBeCloseTo(0.03 / 0.93, 12);
    expect(s.bounds!.missingAtZero).toBe(0);
    expect(s.bounds!.missingAtFull).toBeCloseTo(0.0625, 12);
  });

  it('returned mass above 1 (rounding) leaves nothing to impute', () => {
    // "J" at probability 1 and a filler at 0.01: returned 1.01, u clamps to 0, so D's mass is 0 and p = 1.
    const s = scoreFirstToken([{ token: 'J', logprob: 0 }, lp('\n', 0.01)], ['J', 'F']);
    expect(s.unreturned).toBe(0);
    expect(s.imputed).toBe('D');
    expect(s.pCooperate).toBe(1);
    expect(s.bounds).toEqual({ missingAtZero: 1, missingAtFull: 1 });
  });

  it('neither action present is invalid', () => {
    const s = scoreFirstToken([lp('The', 0.5), lp('**', 0.3)], ['J', 'F']);
    expect(s.status).toBe('invalid');
    expect(s.pCooperate).toBeNull();
    expect(s.bounds).toBeNull();
    expect(s.reason).toMatch(/either action/);
  });

  it('an empty list is invalid', () => {
    const s = scoreFirstToken([], ['J', 'F']);
    expect(s.status).toBe('invalid');
    expect(s.reason).toMatch(/no alternatives/);
  });

  it('an action present only with zero probability and nothing unreturned is invalid, not NaN', () => {
    const s = scoreFirstToken([{ token: 'J', logprob: -Infinity }, { token: '**', logprob: 0 }], ['J', 'F']);
    expect(s.status).toBe('invalid');
    expect(s.pCooperate).toBeNull();
  });
});
