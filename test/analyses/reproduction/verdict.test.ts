import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exactDecimal, judge } from '../../../src/analyses/reproduction/index.js';
import { judgeExact } from '../../../src/analyses/reproduction/verdict.js';
import { familyZ, quantileBand, quantileLevelSpread } from '../../../src/stats/mc-error.js';
import { parseSignedDecimal } from '../../../src/sources/published.js';

const P = (text: string) => parseSignedDecimal(text)!;
const asText = (d: { units: bigint; scale: number }) => {
  const neg = d.units < 0n;
  const s = (neg ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  return `${neg ? '-' : ''}${d.scale ? `${s.slice(0, -d.scale)}.${s.slice(-d.scale)}` : s}`;
};

describe('exact decimal value of a double', () => {
  // Reference: python3 -c 'from decimal import Decimal; print(Decimal(0.1505), Decimal(0.31675))'
  it.each([
    [0.1505, '0.1504999999999999948929740867242799140512943267822265625'],
    [0.31675, '0.31674999999999997601918266809661872684955596923828125'],
    [0.0625, '0.0625'],
    [-2.5, '-2.5'],
    [300, '300'],
    [0, '0'],
    [2 ** 60, '1152921504606846976'],
  ])('%d', (x, want) => {
    expect(asText(exactDecimal(x))).toBe(want);
  });
  it('the smallest subnormal, 2⁻¹⁰⁷⁴ = 5¹⁰⁷⁴ / 10¹⁰⁷⁴', () => {
    expect(exactDecimal(5e-324)).toEqual({ units: 5n ** 1074n, scale: 1074 });
  });
});

describe('tolerance of a point at 3 decimals: half a unit, 0.0005, in exact arithmetic', () => {
  it('0.0005 is the tolerance, and points carry no Monte Carlo error', () => {
    expect(judge(0.1496, P('0.150'))).toMatchObject({ verdict: 'exact', tolerance: 0.0005 });
    expect(judge(0.1494, P('0.150')).verdict).toBe('differs');
    expect(judge(0.15041, P('0.150')).verdict).toBe('exact');
  });
  it('GPT-3.5 shift 0.1505 as computed is the double 0.150499999…: it rounds to 0.150, not 0.151', () => {
    expect(judge(0.1505, P('0.150')).verdict).toBe('exact');
    expect(judge(0.1505, P('0.151')).verdict).toBe('differs');
  });
  it('at the boundary exactly: 0.0625 is halfway between 0.062 and 0.063 and rounds to either (floating point says 0.0005000000000000004 > 0.0005)', () => {
    expect(Math.abs(0.0625 - 0.062) <= 0.0005).toBe(false); // the error exact arithmetic avoids
    expect(judge(0.0625, P('0.062')).verdict).toBe('exact');
    expect(judge(0.0625, P('0.063')).verdict).toBe('exact');
    expect(judge(0.0625 + 2 ** -56, P('0.062')).verdict).toBe('differs');
  });
  it('precision from the text: the same value against "0.15" has tolerance 0.005, against "0.150" 0.0005', () => {
    expect(judge(0.153, P('0.15'))).toMatchObject({ verdict: 'exact', tolerance: 0.005 });
    expect(judge(0.153, P('0.150')).verdict).toBe('differs');
    expect(judge(26, P('26'))).toMatchObject({ verdict: 'exact', tolerance: 0.5, difference: 0 });
    expect(judge(-0.0104, P('-0.010')).verdict).toBe('exact');
    expect(judge(-0.0106, P('-0.010')).verdict).toBe('differs');
  });
});

describe('an interval endpoint against the band of its replicates', () => {
  // Replicates 0.001·i, i = 0 … 999 (R-7 quantile at level u: 0.001·999u). At q = 0.025 with
  // z = 2 and B_c = B_p = 1000: δ = 2·√(0.025·0.975·0.002) = 0.013964…, so the band is
  // [Q̂(0.011036), Q̂(0.038964)] = [0.011025…, 0.038925…] and the endpoint Q̂(0.025) = 0.024975.
  const reps = Float64Array.from({ length: 1000 }, (_, i) => i / 1000);
  const delta = quantileLevelSpread(0.025, 2, 1000, 1000);
  const band = quantileBand(reps, 0.025, delta, new Float64Array(1000));
  it('the level spread and the band by hand', () => {
    expect(delta).toBeCloseTo(2 * Math.sqrt(0.025 * 0.975 * 0.002), 15);
    expect(band[0]).toBeCloseTo(0.999 * (0.025 - delta) / 1, 12);
    expect(band[1]).toBeCloseTo(0.999 * (0.025 + delta) / 1, 12);
    expect(reps[999]).toBe(0.999); // the caller's replicates are left in order
  });
  it('within-mc when the rounding interval of the published value meets the band, differs when it does not', () => {
    const c = 0.024975;
    expect(judge(c, P('0.025'), band).verdict).toBe('exact');
    expect(judge(c, P('0.039'), band).verdict).toBe('within-mc'); // [0.0385, 0.0395] meets … 0.038925
    expect(judge(c, P('0.040'), band).verdict).toBe('differs'); // [0.0395, 0.0405] misses it
    expect(judge(c, P('0.011'), band).verdict).toBe('within-mc');
    expect(judge(c, P('0.010'), band).verdict).toBe('differs'); // [0.0095, 0.0105] misses 0.011025…
  });
  it('tolerance: the distance to the edge of the accepted band [lo − h, hi + h] on the published side', () => {
    const c = 0.024975;
    expect(judge(c, P('0.039'), band).tolerance).toBeCloseTo(band[1] + 0.0005 - c, 15);
    expect(judge(c, P('0.011'), band).tolerance).toBeCloseTo(c - (band[0] - 0.0005), 15);
    for (const t of ['0.039', '0.040', '0.011', '0.010']) {
      const j = judge(c, P(t), band);
      expect(Math.abs(j.difference) > j.tolerance).toBe(j.verdict === 'differs');
    }
  });
  it('at the boundary exactly: a band edge at p + h (or p − h) meets the rounding interval', () => {
    // The double 0.5015 is 0.50149999999999994582…: below 0.502 − 0.0005, so its band misses [0.5015, 0.5025].
    expect(judge(0.5, P('0.502'), [0.4995, 0.5015]).verdict).toBe('differs');
    expect(judge(0.5, P('0.502'), [0.4995, 0.5015 + 2 ** -53]).verdict).toBe('within-mc');
    expect(judge(25, P('27'), [24, 26.5]).verdict).toBe('within-mc');
    expect(judge(25, P('27'), [24, 26.5 - 2 ** -48]).verdict).toBe('differs');
  });
  it('a band that cannot vary (a constant statistic) leaves the endpoint exact or differing', () => {
    const flat = quantileBand(new Float64Array(400).fill(0.7), 0.975, 0.01, new Float64Array(400));
    expect(flat).toEqual([0.7, 0.7]);
    expect(judge(0.7, P('0.701'), flat).verdict).toBe('differs');
  });
});

describe('family-wise z', () => {
  // scipy.stats.norm.ppf(1 − 0.05/32), (1 − 0.05/40), (1 − 0.01/2)
  it.each([[0.05, 16, 2.955166847497834], [0.05, 20, 3.023341439739154], [0.01, 1, 2.5758293035489004]])('α = %d, k = %d', (alpha, k, want) => {
    expect(familyZ(alpha, k)).toBeCloseTo(want, 12);
  });
  it('rejects a level outside (0, 1) and k < 1', () => {
    expect(() => familyZ(0, 3)).toThrow(RangeError);
    expect(() => familyZ(1, 3)).toThrow(RangeError);
    expect(() => familyZ(0.05, 0)).toThrow(RangeError);
  });
});

describe('the verdict in doubles is the verdict in exact arithmetic (property)', () => {
  // Values at, one or a few ulps beside, or far from each boundary: p ± h for the computed value
  // and for both band edges. judgeExact is the definition; judge decides in doubles only far from them.
  const near = (x: number) => fc.oneof(
    fc.constant(x), fc.integer({ min: -4, max: 4 }).map((k) => x + k * Number.EPSILON * Math.max(1, Math.abs(x))),
    fc.double({ min: -0.01, max: 0.01, noNaN: true }).map((e) => x + e),
  );
  const kase = fc.record({ units: fc.integer({ min: -99_999, max: 99_999 }), decimals: fc.integer({ min: 0, max: 4 }) }).chain(({ units, decimals }) => {
    const text = (units / 10 ** decimals).toFixed(decimals);
    const p = Number(text);
    const h = 5 / 10 ** (decimals + 1);
    const edge = fc.oneof(near(p - h), near(p + h), near(p));
    return fc.tuple(fc.constant(text), edge, edge, edge);
  });
  it('for points and for bands, at and beside every boundary', () => {
    fc.assert(fc.property(kase, ([text, c, e1, e2]) => {
      const pub = P(text);
      expect(judge(c, pub).verdict).toBe(judgeExact(c, pub));
      const band = [Math.min(c, e1, e2), Math.max(c, e1, e2)] as const;
      expect(judge(c, pub, band).verdict).toBe(judgeExact(c, pub, band));
    }), { numRuns: 3000 });
  });
});
