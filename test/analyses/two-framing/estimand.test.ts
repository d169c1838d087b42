import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { twoFramingEstimand, twoFramingLayout } from '../../../src/analyses/two-framing/estimand.js';
import { familyEstimand, familyLayout } from '../../../src/analyses/two-framing/family.js';
import { stat } from '../../../src/core/names.js';
import { cellRate } from '../../../src/core/cells.js';
import { cell } from '../../helpers/cells.js';

// Hand-derivable rates: pairs (0, 1) → R2 = 0, Δ = 1; (0.5, 0.5) → R2 = 1, Δ = 0; (1, 0) → R2 = 0, Δ = −1.
const table: CellTable = {
  factors: ['model', 'game', 'framing'],
  cells: [
    cell('M1', 'G1', 'b', 0, 10), cell('M1', 'G1', 's', 10, 10),
    cell('M1', 'G2', 'b', 5, 10), cell('M1', 'G2', 's', 5, 10),
    cell('M2', 'G1', 'b', 4, 4), cell('M2', 'G1', 's', 0, 4),
  ],
};
const evaluate = (a: number) => {
  const est = twoFramingEstimand(twoFramingLayout(table, 'b', 's'), a);
  const out = new Float64Array(est.names.length);
  est.evaluate(Float64Array.from(table.cells.map((c) => cellRate(c.obs))), out);
  return (name: string) => out[est.names.indexOf(name)];
};

describe('two-framing estimand (hand derivation)', () => {
  const v = evaluate(0.7);
  it('per cell: R2, shift and the conservative transform', () => {
    expect(v(stat('R2', 'M1', 'G1'))).toBeCloseTo(0, 15);
    expect(v(stat('shift_raw', 'M1', 'G1'))).toBe(1);
    expect(v(stat('R2_conservative', 'M1', 'G1'))).toBeCloseTo(0.3, 15); // 1 − 0.7·(1 − 0)
    expect(v(stat('shift_conservative', 'M1', 'G1'))).toBeCloseTo(0.7, 15);
    expect(v(stat('R2', 'M1', 'G2'))).toBe(1);
    expect(v(stat('R2_conservative', 'M1', 'G2'))).toBe(1);
    expect(v(stat('shift_raw', 'M2', 'G1'))).toBe(-1);
  });
  it('per model: unweighted mean over its games; pooled: mean over all model–game values', () => {
    expect(v(stat('R_raw', 'M1'))).toBeCloseTo(0.5, 15);     // (0 + 1)/2
    expect(v(stat('shift_raw', 'M1'))).toBeCloseTo(0.5, 15); // (1 + 0)/2
    expect(v(stat('R', 'M1'))).toBeCloseTo(0.65, 15);        // 1 − 0.7·0.5
    expect(v(stat('R_raw', 'Pooled'))).toBeCloseTo(1 / 3, 15); // (0 + 1 + 0)/3, not the mean of model means (0.25)
    expect(v(stat('shift', 'Pooled'))).toBeCloseTo(0, 15);   // 0.7·(1 + 0 − 1)/3
  });
  it('attenuation 1 leaves the raw values', () => {
    const w = evaluate(1);
    expect(w(stat('R', 'M1'))).toBeCloseTo(0.5, 15);
    expect(w(stat('shift', 'M2'))).toBe(-1);
  });
  it('rejects an attenuation outside [0, 1]', () => {
    expect(() => twoFramingEstimand(twoFramingLayout(table, 'b', 's'), 1.5)).toThrow(RangeError);
  });
});

describe('family robustness R(M,G) = 1 − max pairwise JSD/ln 2', () => {
  it('takes the worst pair over three framings (hand: rates 0, 1/2, 1 → max JSD = ln 2 → R = 0)', () => {
    const t: CellTable = { factors: ['model', 'game', 'framing'], cells: [cell('M', 'G', 'a', 0, 2), cell('M', 'G', 'b', 1, 2), cell('M', 'G', 'c', 2, 2), cell('M', 'H', 'a', 1, 2), cell('M', 'H', 'b', 1, 2), cell('M', 'H', 'c', 1, 2)] };
    const est = familyEstimand(familyLayout(t));
    const out = new Float64Array(est.names.length);
    est.evaluate(Float64Array.from(t.cells.map((c) => cellRate(c.obs))), out);
    expect(out[est.names.indexOf(stat('Rfam', 'M', 'G'))]).toBeCloseTo(0, 15);
    expect(out[est.names.indexOf(stat('Rfam', 'M', 'H'))]).toBe(1);
    expect(out[est.names.indexOf(stat('Rfam', 'M'))]).toBeCloseTo(0.5, 15);
    expect(out[est.names.indexOf(stat('Rfam', 'Pooled'))]).toBeCloseTo(0.5, 15);
  });
});

describe('statistic names', () => {
  it('stay distinct whatever characters the level names hold', () => {
    const t: CellTable = { factors: ['model', 'game', 'framing'], cells: [
      cell('A | B', 'G', 'b', 1, 10), cell('A | B', 'G', 's', 2, 10), cell('A', 'B | G', 'b', 5, 10), cell('A', 'B | G', 's', 5, 10),
    ] };
    const est = twoFramingEstimand(twoFramingLayout(t, 'b', 's'), 0.7);
    expect(new Set(est.names).size).toBe(est.names.length);
    const out = new Float64Array(est.names.length);
    est.evaluate(Float64Array.from(t.cells.map((c) => cellRate(c.obs))), out);
    expect(out[est.names.indexOf(stat('shift_raw', 'A | B', 'G'))]).toBeCloseTo(0.1, 15);
    expect(out[est.names.indexOf(stat('shift_raw', 'A', 'B | G'))]).toBe(0);
  });
});
