import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { analyzeTwoFraming, type TwoFramingAnalysis } from '../../../src/analyses/two-framing/analysis.js';
import { lambdaEstimand, LAMBDA, V_LAMBDA } from '../../../src/analyses/two-framing/lambda.js';
import {
  cellCount, classifyContainment, countsReproduceRates, decisionCount, degenerateCells, intervalsOrderedAndContainPoint,
  payoffSensitivityInRange, pooledEqualsUnroundedMean, robustnessInUnitInterval, shiftInRange, TWO_FRAMING_CHECKS,
  twoEmpiricalTables, verifyTwoFraming, type VerifyInput,
} from '../../../src/analyses/two-framing/checks.js';
import { ROBUSTNESS, SHIFT, UNBOUNDED } from '../../../src/stats/bootstrap.js';
import { checkStatus } from '../../../src/core/checks.js';
import { cell } from '../../helpers/cells.js';

const table: CellTable = {
  factors: ['model', 'game', 'framing'],
  cells: [
    cell('M1', 'G1', 'b', 30, 100), cell('M1', 'G1', 's', 60, 100),
    cell('M1', 'G2', 'b', 0, 100), cell('M1', 'G2', 's', 20, 100),
    cell('M2', 'G1', 'b', 50, 100), cell('M2', 'G1', 's', 55, 100),
  ],
};
const settings = { seed: 3, reps: 400, attenuation: 0.7, base: 'b', alt: 's' };
const analysis = analyzeTwoFraming(table, settings);
const input = (a: TwoFramingAnalysis = analysis, extra: Partial<VerifyInput> = {}): VerifyInput => ({
  analysis: a, expectedDecisions: { value: 600, source: 'Σ n' }, tables: ['table2', 'table3'], ...extra,
});

/** The analysis with one statistic's point or ends replaced (a fabricated defect). */
function tamper(a: TwoFramingAnalysis, name: string, v: { point?: number; lo?: number; hi?: number }): TwoFramingAnalysis {
  const i = a.boot.names.indexOf(name);
  const point = Float64Array.from(a.boot.point), lo = Float64Array.from(a.boot.lo), hi = Float64Array.from(a.boot.hi);
  if (v.point !== undefined) point[i] = v.point;
  if (v.lo !== undefined) lo[i] = v.lo;
  if (v.hi !== undefined) hi[i] = v.hi;
  const boot = { ...a.boot, point, lo, hi, get: (n: string) => { const j = a.boot.names.indexOf(n); return { point: point[j], lo: lo[j], hi: hi[j] }; } };
  return { ...a, boot };
}

describe('two-framing checks, each on its own', () => {
  it('the registry holds every check once, in report order, and verifyTwoFraming composes it', () => {
    expect(Object.keys(TWO_FRAMING_CHECKS)).toEqual(['robustness_in_unit_interval', 'intervals_ordered_and_contain_point', 'cell_count', 'decision_count',
      'shift_in_range', 'payoff_sensitivity_in_range', 'pooled_equals_unrounded_mean', 'two_empirical_tables', 'counts_reproduce_rates']);
    // No λ̂ and no reported rates: those two checks do not apply.
    expect(verifyTwoFraming(input()).checks.map((c) => c.name)).toEqual(['robustness_in_unit_interval', 'intervals_ordered_and_contain_point',
      'cell_count', 'decision_count', 'shift_in_range', 'pooled_equals_unrounded_mean', 'two_empirical_tables']);
  });

  it('robustness_in_unit_interval selects the statistics declared robustness (R2, Rc, R_raw, R: 3 pairs × 2 + 3 groups × 2 = 12)', () => {
    const c = robustnessInUnitInterval(input());
    expect(c.passed).toBe(true);
    expect(c.value.startsWith('12 statistics')).toBe(true);
    expect(robustnessInUnitInterval(input(tamper(analysis, stat('R2', 'M1', 'G1'), { hi: 1.2 }))).failures).toEqual([`${stat('R2', 'M1', 'G1')} = 1.2`]);
  });

  it('shift_in_range selects the statistics declared shift and fails outside [−1, 1]', () => {
    expect(shiftInRange(input()).value).toBe('12 statistics');
    expect(shiftInRange(input(tamper(analysis, stat('shift', POOLED), { lo: -1.5 }))).passed).toBe(false);
  });

  it('payoff_sensitivity_in_range applies only with λ̂ statistics: λ̂ in its clamp [0, 20], V_λ in [0, 100], NaN (no payoff gap) allowed', () => {
    expect(payoffSensitivityInRange(input())).toBeUndefined();
    const gaps = new Map([['G1', -0.375], ['G2', 0]]);
    const withLambda = analyzeTwoFraming(table, settings, undefined, (layout) => [lambdaEstimand(table, layout, gaps)]);
    const ok = payoffSensitivityInRange(input(withLambda))!;
    expect(ok.passed).toBe(true);
    expect(ok.value).toBe('9 statistics, 3 undefined (no payoff gap)'); // G2 has Δu = 0: λ̂_b, λ̂_s, V_λ NaN
    const name = stat('lambda', 'M1', 'G1', 'b');
    expect(payoffSensitivityInRange(input(tamper(withLambda, name, { hi: 21 })))!.failures).toEqual([`${name} = 21`]);
    expect(LAMBDA.bounds).toEqual([0, 20]);
    expect(V_LAMBDA.bounds).toEqual([0, 100]);
  });

  it('intervals_ordered_and_contain_point: a defect fails, a bounded statistic beside its bound warns, with the reason', () => {
    expect(checkStatus(intervalsOrderedAndContainPoint(input()))).toBe('pass');
    const unordered = intervalsOrderedAndContainPoint(input(tamper(analysis, stat('shift', 'M1'), { lo: 0.5, hi: 0.1 })));
    expect(checkStatus(unordered)).toBe('fail');
    // A shift outside its interval has no boundary bias to explain it: a defect.
    expect(checkStatus(intervalsOrderedAndContainPoint(input(tamper(analysis, stat('shift', 'M1'), { point: 0.9 }))))).toBe('fail');
    // R just below 1 above a percentile interval: warn, named, with the advice.
    const w = intervalsOrderedAndContainPoint(input(tamper(analysis, stat('R', 'M2'), { point: 0.9999, lo: 0.99, hi: 0.999 })));
    expect(checkStatus(w)).toBe('warn');
    expect(w.passed).toBe(true);
    expect(w.warnings![0]).toMatch(/^R\["M2"\]: 0\.9999 not in \[0\.99, 0\.999\]: boundary bias .*decide R = 1 by the R = 1 test/);
    // R below its interval (the side away from the bound) under percentile: a defect.
    expect(checkStatus(intervalsOrderedAndContainPoint(input(tamper(analysis, stat('R', 'M2'), { point: 0.98, lo: 0.99, hi: 0.999 }))))).toBe('fail');
  });

  it('classifyContainment: percentile and BCa miss a near-bound point on opposite sides; exactly at the bound is the bound itself', () => {
    const s = { point: 0.9999, lo: 0.99, hi: 0.999 };
    expect(classifyContainment('R', s, ROBUSTNESS, 'percentile').kind).toBe('warn');
    expect(classifyContainment('R', s, ROBUSTNESS, 'bca').kind).toBe('fail');
    const above = { point: 0.9999, lo: 0.99995, hi: 0.99999 };
    expect(classifyContainment('R', above, ROBUSTNESS, 'bca')).toMatchObject({ kind: 'warn', text: expect.stringContaining('bias correction') });
    expect(classifyContainment('R', above, ROBUSTNESS, 'percentile').kind).toBe('fail');
    expect(classifyContainment('R', s, ROBUSTNESS, 'bca', true)).toMatchObject({ kind: 'warn', text: expect.stringContaining('BCa fell back') });
    expect(classifyContainment('R', { point: 1, lo: 0.99, hi: 0.999 }, ROBUSTNESS, 'percentile').kind).toBe('at-bound');
    expect(classifyContainment('x', { point: 2, lo: 0, hi: 1 }, UNBOUNDED, 'percentile').kind).toBe('fail');
    expect(classifyContainment('x', { point: 0.5, lo: 0, hi: 1 }, SHIFT, 'percentile').kind).toBe('contained');
    expect(classifyContainment('x', { point: NaN, lo: 0, hi: 1 }, SHIFT, 'percentile').kind).toBe('fail');
  });

  it('cell_count and decision_count compare with what the input declares (a missing cell shows)', () => {
    // M2 has no G2: 6 cells where models × games × framings is 8.
    expect(cellCount(input()).value).toBe('6 cells, expected 8');
    expect(cellCount(input()).passed).toBe(false);
    expect(decisionCount(input()).passed).toBe(true);
    expect(decisionCount(input(analysis, { expectedDecisions: { value: 700, source: 'x' } })).failures).toEqual(['600 ≠ 700']);
  });

  it('pooled_equals_unrounded_mean recomputes from the counts and catches a wrong pooled point', () => {
    expect(pooledEqualsUnroundedMean(input()).passed).toBe(true);
    expect(pooledEqualsUnroundedMean(input(tamper(analysis, stat('R', POOLED), { point: 0.5 }))).passed).toBe(false);
  });

  it('two_empirical_tables counts tableN files and unrequested comparisons', () => {
    expect(twoEmpiricalTables(input()).passed).toBe(true);
    expect(twoEmpiricalTables(input(analysis, { tables: ['table2', 'table3', 'compare'] })).passed).toBe(false);
    expect(twoEmpiricalTables(input(analysis, { tables: ['table2', 'table3', 'compare'], requestedComparisons: ['compare'] })).passed).toBe(true);
  });

  it('counts_reproduce_rates applies to reported rates only', () => {
    expect(countsReproduceRates(input())).toBeUndefined();
    const rate = { text: '0.3', value: 0.3, units: '3', decimals: 1 };
    expect(countsReproduceRates(input(analysis, { reportedRates: [{ cell: 'c', x: 30, n: 100, rate }] }))!.passed).toBe(true);
    expect(countsReproduceRates(input(analysis, { reportedRates: [{ cell: 'c', x: 36, n: 100, rate }] }))!.passed).toBe(false); // 0.36 → 0.4
  });

  it('degenerate cells are listed (0/100 here)', () => {
    expect(degenerateCells(table).map((d) => d.cell)).toEqual(['M1 / G2 / b']);
  });
});
