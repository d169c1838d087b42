import { describe, expect, it } from 'vitest';
import { finiteOrNull, interval, signed } from '../../src/core/format.js';

describe('the shared formatters', () => {
  it('signed: a plus above 0, the minus of toFixed below, none on what rounds to 0', () => {
    expect(signed(0.01234)).toBe('+0.0123');
    expect(signed(-0.01234)).toBe('-0.0123');
    expect(signed(0.00001)).toBe('0.0000');
    expect(signed(-0.00001)).toBe('0.0000');
    expect(signed(0.5, 1)).toBe('+0.5');
  });
  it('finiteOrNull: NaN and ±∞ as null, every other number as it is', () => {
    expect([NaN, Infinity, -Infinity, 0, -0.5, 1e-300].map(finiteOrNull)).toEqual([null, null, null, 0, -0.5, 1e-300]);
  });
  it('interval: both ends at the digits given', () => {
    expect(interval(100 * 0.0123, 100 * 0.2, 1)).toBe('[1.2, 20.0]');
  });
});
