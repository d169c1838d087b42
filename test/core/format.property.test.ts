import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_DIGITS, fileNumber, full, scaleOf } from '../../src/core/format.js';

const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 });
const nonzero = finite.filter((x) => Math.abs(x) > 1e-200);

describe('the files number rule with a scale (float noise)', () => {
  it('writes a - b as 0 when a and b differ only in their last few bits', () => {
    fc.assert(fc.property(nonzero, fc.integer({ min: 1, max: 64 }), (a, ulps) => {
      const b = a + ulps * Number.EPSILON * Math.abs(a) * (a < 0 ? -1 : 1);
      const d = b - a;
      expect(full(d, scaleOf([a, b]))).toBe('0');
    }));
  });

  it('leaves a value alone once it reaches the scale times 10^-FILE_DIGITS', () => {
    fc.assert(fc.property(nonzero, fc.double({ min: 1, max: 1e6, noNaN: true }), (scale, m) => {
      const x = Math.abs(scale) * 10 ** -FILE_DIGITS * m * 1.001;
      expect(fileNumber(x, scale)).toBe(fileNumber(x));
      expect(fileNumber(x, scale)).not.toBe(0);
    }));
  });

  it('without a scale is the 12-digit rule, and is idempotent with one', () => {
    fc.assert(fc.property(finite, finite, (x, s) => {
      expect(fileNumber(x, 0)).toBe(fileNumber(x));
      expect(fileNumber(fileNumber(x, s), s)).toBe(fileNumber(x, s));
    }));
  });

  it('takes the largest finite magnitude as the scale', () => {
    expect(scaleOf([0.3, -0.5, NaN, Infinity])).toBe(0.5);
    expect(scaleOf([])).toBe(0);
  });
});

describe('the files number rule for large whole numbers', () => {
  it('writes a count (an integer up to 2^53) exactly', () => {
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => { expect(full(n)).toBe(String(n)); }));
  });
  it('rounds a computed whole number beyond 2^53 to FILE_DIGITS digits, as every other value', () => {
    expect(full(1.6e198 * (1 + Number.EPSILON))).toBe('1.6e+198');
    fc.assert(fc.property(fc.double({ min: 2 ** 60, max: 1e300, noNaN: true }), (x) => {
      expect(fileNumber(x)).toBe(Number(x.toPrecision(FILE_DIGITS)));
    }));
  });
});
