import { describe, expect, it } from 'vitest';
import { endpointMcSe, exactDecimal, judge } from '../../../src/analyses/reproduction/index.js';
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
    expect(judge(0.1496, P('0.150'), 0)).toMatchObject({ verdict: 'exact', tolerance: 0.0005 });
    expect(judge(0.1494, P('0.150'), 0).verdict).toBe('differs');
    expect(judge(0.15041, P('0.150'), 0).verdict).toBe('exact');
  });
  it('GPT-3.5 shift 0.1505 as computed is the double 0.150499999…: it rounds to 0.150, not 0.151', () => {
    expect(judge(0.1505, P('0.150'), 0).verdict).toBe('exact');
    expect(judge(0.1505, P('0.151'), 0).verdict).toBe('differs');
  });
  it('at the boundary exactly: 0.0625 is halfway between 0.062 and 0.063 and rounds to either (floating point says 0.0005000000000000004 > 0.0005)', () => {
    expect(Math.abs(0.0625 - 0.062) <= 0.0005).toBe(false); // the error exact arithmetic avoids
    expect(judge(0.0625, P('0.062'), 0).verdict).toBe('exact');
    expect(judge(0.0625, P('0.063'), 0).verdict).toBe('exact');
    expect(judge(0.0625 + 2 ** -56, P('0.062'), 0).verdict).toBe('differs');
  });
  it('precision from the text: the same value against "0.15" has tolerance 0.005, against "0.150" 0.0005', () => {
    expect(judge(0.153, P('0.15'), 0)).toMatchObject({ verdict: 'exact', tolerance: 0.005 });
    expect(judge(0.153, P('0.150'), 0).verdict).toBe('differs');
    expect(judge(26, P('26'), 0)).toMatchObject({ verdict: 'exact', tolerance: 0.5, difference: 0 });
    expect(judge(-0.0104, P('-0.010'), 0).verdict).toBe('exact');
    expect(judge(-0.0106, P('-0.010'), 0).verdict).toBe('differs');
  });
});

describe('tolerance of an interval endpoint with a known Monte Carlo standard error', () => {
  // 400 replicates → 2 batches of 200 (docs/methods.md §10.6). Batch 1 all 0.5, batch 2 all 0.5 + 2⁻⁹:
  // each batch's 2.5 % point is its constant, so se = sd(0.5, 0.5 + 2⁻⁹)/√2 = (2⁻⁹/√2)/√2 = 2⁻¹⁰.
  const reps = Float64Array.from({ length: 400 }, (_, i) => (i < 200 ? 0.5 : 0.5 + 2 ** -9));
  const se = endpointMcSe(reps, 0.025);
  it('the batch-means error by hand: 2⁻¹⁰ = 0.0009765625', () => {
    expect(se).toBeCloseTo(2 ** -10, 15);
  });
  it('published 0.502 (3 decimals): tolerance = 0.0005 + 2 × 0.0009765625 = 0.002453125', () => {
    expect(judge(0.5, P('0.502'), 2 ** -10)).toMatchObject({ verdict: 'within-mc', tolerance: 0.002453125 });
    expect(judge(0.5016, P('0.502'), 2 ** -10).verdict).toBe('exact');
    // |0.4995 − 0.502| = 0.0025 > 0.002453125
    expect(judge(0.4995, P('0.502'), 2 ** -10).verdict).toBe('differs');
  });
  it('at the boundary exactly (a whole-number count: half unit 0.5, se 0.25, tolerance 1)', () => {
    expect(judge(25, P('26'), 0.25)).toMatchObject({ verdict: 'within-mc', tolerance: 1 });
    expect(judge(25 - 2 ** -48, P('26'), 0.25).verdict).toBe('differs');
    expect(judge(25.5, P('26'), 0.25).verdict).toBe('exact');
  });
  it('replicates that cannot vary have no Monte Carlo error; fewer than two replicates count as none', () => {
    expect(endpointMcSe(new Float64Array(400).fill(0.7), 0.975)).toBe(0);
    expect(endpointMcSe([0.7], 0.975)).toBe(0);
  });
  it('a negative or non-finite standard error is a programming error', () => {
    expect(() => judge(0.5, P('0.5'), -1)).toThrow(RangeError);
    expect(() => judge(0.5, P('0.5'), NaN)).toThrow(RangeError);
  });
});
