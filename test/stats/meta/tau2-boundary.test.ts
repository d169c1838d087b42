/**
 * REML/ML whose likelihood has an interior local maximum below its value at τ² = 0 (test/reference/meta/make-reference-boundary.R):
 * Fisher scoring stopped there (τ² 0.00634597, estimate 0.107217 where metafor gives τ² 0, 0.178898); as metafor, the
 * log-likelihood at 0 is compared with the iteration's, τ² = 0 taken, and the analysis says so in a note (also for the
 * meta-regression, whose non-convergence was not reported either).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { meta, type EffectRow } from '../../../src/analyses/meta/index.js';
import { TAU2_ESTIMATORS, type Tau2Method } from '../../../src/stats/meta/tau2.js';
import { fitUnivariate, META_DEFAULTS } from '../../../src/stats/meta/univariate.js';

type Ref = { mods: string[]; b: number[]; se: number[]; tau2: number; QE: number; ll0: number; ll_interior: number; interior: number };
const ref: Record<string, Ref> = JSON.parse(readFileSync(new URL('../../reference/meta/reference-boundary.json', import.meta.url), 'utf8'));

function table(file: string, mods: string[]) {
  const [head, ...lines] = readFileSync(new URL(`../../reference/meta/tables/${file}`, import.meta.url), 'utf8').trim().split('\n');
  const names = head.split(',');
  const rows = lines.map((l) => l.split(','));
  const col = (n: string) => Float64Array.from(rows, (r) => Number(r[names.indexOf(n)]));
  const effects: EffectRow[] = rows.map((r) => ({ study: r[0], model: r[1], game: r[2], yi: Number(r[3]), vi: Number(r[4]),
    moderators: Object.fromEntries(mods.map((m) => [m, r[names.indexOf(m)]])) }));
  return { y: col('yi'), v: col('vi'), X: [new Float64Array(rows.length).fill(1), ...mods.map(col)], effects };
}

describe('τ² at the boundary when the likelihood is higher there than at an interior maximum', () => {
  it.each(Object.keys(ref))('%s: τ² = 0 and metafor\'s fit, with a note', (name) => {
    const [file, method] = name.split('/') as [string, Tau2Method];
    const want = ref[name];
    expect(want.ll0).toBeGreaterThan(want.ll_interior);
    const { y, v, X, effects } = table(file, want.mods);
    const est = TAU2_ESTIMATORS[method].estimate(y, v, X);
    expect(est).toMatchObject({ tau2: 0, converged: true, boundary: true });
    const f = fitUnivariate(y, v, { ...META_DEFAULTS, tau2: method, test: 'z' }, X);
    expect(f?.tau2).toBe(0);
    expect(f?.tau2Boundary).toBe(true);
    const near = (a: number, b: number, what: string) => expect(Math.abs(a - b) <= 1e-8 * Math.max(Math.abs(b), 1e-3), `${what}: ${a} vs ${b}`).toBe(true);
    f!.coefficients.forEach((c, j) => { near(c.estimate, want.b[j], `b${j}`); near(c.se, want.se[j], `se${j}`); });
    near(f!.Q, want.QE, 'QE');
    const a = meta.analyze(effects, { ...META_DEFAULTS, tau2: method, test: 'z', effect: 'shift', moderators: want.mods });
    const scope = want.mods.length ? 'meta-regression' : 'overall';
    expect(a.notes.some((n) => n.startsWith(scope) && n.includes('higher at τ² = 0')), a.notes.join('\n')).toBe(true);
  });
});
