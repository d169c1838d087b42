import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/stats/wilson.js';
import { fitUnivariate, META_DEFAULTS } from '../../src/stats/meta/univariate.js';
import { fitMultilevel } from '../../src/stats/meta/multilevel.js';
import { fitMultilevelRegression } from '../../src/stats/meta/multilevel-regression.js';

const y = new Float64Array([0.1, 0.2, 0.3, 0.15, 0.25, 0.05]), v = new Float64Array([0.01, 0.02, 0.01, 0.03, 0.02, 0.01]);
const g = new Int32Array([0, 0, 1, 1, 2, 2]);
const calls: [string, (level: number) => unknown][] = [
  ['wilsonInterval', (l) => wilsonInterval(3, 10, l)],
  ['fitUnivariate', (l) => fitUnivariate(y, v, { ...META_DEFAULTS, level: l })],
  ['fitMultilevel', (l) => fitMultilevel(y, v, g, l)],
  ['fitMultilevelRegression', (l) => fitMultilevelRegression(y, v, [new Float64Array(6).fill(1)], g, 't', l)],
];

describe('the library\'s confidence levels: numbers strictly between 0 and 1', () => {
  // Values JavaScript callers pass that the type would not let through: a string coerces in comparisons, so "0.95" ran as 0.95.
  it.each(calls.flatMap(([name, f]) => ['0.95', null, Infinity, -Infinity, 1.5, 0].map((l) => [name, l, f] as const)))('%s(level %s): a RangeError naming it',
    (name, level, f) => {
      expect(() => f(level as unknown as number)).toThrow(new RegExp(`^${name}: the confidence level must`));
    });
  it.each(calls)('%s(level 0.9) is still computed', (_, f) => {
    expect(f(0.9)).toBeDefined();
  });
});
