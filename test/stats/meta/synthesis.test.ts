import { describe, expect, it } from 'vitest';
import { multilevelIntervals } from '../../../src/stats/meta/multilevel-profile.js';
import { anyTable, close, column, synthesisReference as ref, type Row } from './reference.js';

/**
 * samegame's heterogeneity intervals, influence diagnostics, small-study tests and three-level
 * meta-regression against metafor 3.8 (test/reference/meta/make-reference-synthesis.R).
 */
const group = (rows: Row[]) => { const ids = [...new Set(rows.map((r) => r.study))]; return Int32Array.from(rows, (r) => ids.indexOf(r.study)); };

describe('profile-likelihood intervals of σ²_study and σ²_cell against confint(rma.mv)', () => {
  it.each(['ml3', 'ml4', 'ml6', 'mlreg', 'konstantopoulos'])('%s', (name) => {
    const rows = anyTable(name);
    const got = multilevelIntervals(column(rows, 'yi'), column(rows, 'vi'), group(rows))!;
    const r = ref.profile[name];
    // metafor's nlminb stops about 1e-11 short of a boundary at 0; its root search is to 1e-12 (control tol).
    const cmp = (a: number, b: number, f: string) => expect(close(a, b, 1e-5, 1e-9), `${name} ${f}: ${a} vs ${b}`).toBe(true);
    cmp(got.sigma2_outer.estimate, r.sigma2_outer, 'σ²_outer');
    cmp(got.sigma2_inner.estimate, r.sigma2_inner, 'σ²_inner');
    cmp(got.sigma2_outer.lo, r.outer_lo, 'outer lo');
    cmp(got.sigma2_outer.hi, r.outer_hi, 'outer hi');
    cmp(got.sigma2_inner.lo, r.inner_lo, 'inner lo');
    cmp(got.sigma2_inner.hi, r.inner_hi, 'inner hi');
    expect(got.sigma2_outer.hi_at_limit || got.sigma2_inner.hi_at_limit).toBe(false);
  });
});
