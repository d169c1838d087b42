/**
 * Meta-regressions (a continuous and a two-level moderator) with one cell's variance far below the others'
 * (test/reference/meta/make-reference-tiny-mods.py): metafor's rma(mods = ~x) loses such a cell (QE 0 or 25235 at
 * 1e-12, "singular matrix" below 1e-16), so the reference is the model's definitions in 60-digit arithmetic,
 * itself equal to metafor at 1e-4 and 1e-6 of the others' (asserted there, and checked here against metafor's
 * numbers). The fit equals it at every variance, down to 1e-30: the heavy cell is split off (wls.ts heavySplit), also
 * when it alone holds a moderator level ("own/…": metafor's fit of the other cells). And a moderator of 1e200 or 1e-200
 * fits as metafor fits it unscaled (the columns are scaled by powers of two).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitUnivariate, META_DEFAULTS } from '../../../src/stats/meta/univariate.js';
import { traces, wls } from '../../../src/stats/meta/wls.js';

type Fit = Record<'b0' | 'b1' | 'se0' | 'se1' | 'ci_lo1' | 'ci_hi1' | 'tau2' | 'Q' | 'QM', number>;
type Case = { v: number[]; x: number[]; fit: Fit; metafor?: Fit };
type Scaled = { x: number[]; v: number[]; metafor: Fit; factors: number[] };
type Dependent = { y: number[]; x: number[]; cases: Record<string, Omit<Case, 'x'>> };
const ref: { y: number[]; cases: Record<string, Case>; traces: { w: number[]; x: number[]; P: number; PP: number }; scaled: Scaled;
  dependent: Dependent } = JSON.parse(readFileSync(new URL('../../reference/meta/reference-tiny-mods.json', import.meta.url), 'utf8'));
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(b), 1e-3);

/** The fit of y, v, x against the 60-digit reference and, where given, metafor's numbers. */
function expectFit(name: string, y: number[], c: Case) {
    const method = name.includes('/REML@') ? 'REML' : 'DL';
    const f = fitUnivariate(Float64Array.from(y), Float64Array.from(c.v), { ...META_DEFAULTS, tau2: method, test: 'adhoc' },
      [new Float64Array(c.x.length).fill(1), Float64Array.from(c.x)]);
    expect(f).toBeDefined();
    const [b0, b1] = f!.coefficients;
    const got: Fit = { b0: b0.estimate, b1: b1.estimate, se0: b0.se, se1: b1.se, ci_lo1: b1.ci_lo, ci_hi1: b1.ci_hi, tau2: f!.tau2, Q: f!.Q, QM: f!.QM };
    for (const want of [c.fit, c.metafor].filter((w): w is Fit => w !== undefined)) {
      for (const k of Object.keys(want) as (keyof Fit)[]) expect(near(got[k], want[k]), `${k}: ${got[k]} vs ${want[k]}`).toBe(true);
    }
}

describe('a meta-regression with one tiny variance', () => {
  it.each(Object.keys(ref.cases))('%s', (name) => expectFit(name, ref.y, ref.cases[name]));
});

// Two or three tiny cells whose moderator rows are dependent (x = i mod 5 over twelve cells): "3+8" share x = 2 and
// disagree (0.3 and −0.2), "2+3+4" lie at x = 1, 2, 3, "3+5+8" at x = 2, 4, 2. The plain sums and the Woodbury split are
// both singular there (the regression was left out as "cannot fit 2 coefficients"); the heavy rows are compressed to
// their independent part (heavy-rank.ts).
describe('a meta-regression with tiny variances on dependent moderator rows', () => {
  const d = ref.dependent;
  it.each(Object.keys(d.cases))('%s', (name) => expectFit(name, d.y, { ...d.cases[name], x: d.x }));
});

describe('the split fit\'s traces', () => {
  it('tr P and tr PP equal those of P = W − WX(X′WX)⁻¹X′W in 60 digits (a row weighing 1e7 beside 25 to 100)', () => {
    const t = ref.traces;
    const X = [new Float64Array(t.x.length).fill(1), Float64Array.from(t.x)];
    const f = wls(Float64Array.from(ref.y), X, Float64Array.from(t.w))!;
    expect(f.traces).toBeDefined();
    expect(Math.abs(traces(f, X).P - t.P)).toBeLessThanOrEqual(1e-12 * t.P);
    expect(Math.abs(traces(f, X).PP - t.PP)).toBeLessThanOrEqual(1e-12 * t.PP);
  });
});

describe('a moderator far from 1 in scale', () => {
  it.each(ref.scaled.factors)('x × %s: the coefficients are metafor\'s for x, scaled back (slope ÷ the factor)', (factor) => {
    const y = Float64Array.from(ref.y);
    const v = Float64Array.from(ref.scaled.v);
    const x = Float64Array.from(ref.scaled.x, (t) => t * factor);
    const f = fitUnivariate(y, v, { ...META_DEFAULTS, test: 'adhoc' }, [new Float64Array(x.length).fill(1), x]);
    expect(f).toBeDefined();
    const m = ref.scaled.metafor;
    const [b0, b1] = f!.coefficients;
    const pairs: [string, number, number][] = [['b0', b0.estimate, m.b0], ['se0', b0.se, m.se0], ['b1', b1.estimate * factor, m.b1], ['se1', b1.se * factor, m.se1],
      ['tau2', f!.tau2, m.tau2], ['QM', f!.QM, m.QM]];
    for (const [k, got, want] of pairs) expect(near(got, want), `${k}: ${got} vs ${want}`).toBe(true);
  });
});
