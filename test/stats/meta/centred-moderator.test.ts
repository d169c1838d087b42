/**
 * A moderator that is a large offset plus a tiny spread (x = 100 ± 1e-5, test/reference/meta/make-reference-centred.py,
 * 60-digit arithmetic): uncentred, X′WX kept 5 of its digits (DL τ² 0.0292120523 for 0.0293314048); the columns are
 * centred before the fit and the coefficients reported on the original scale (the intercept at x = 0).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Tau2Method } from '../../../src/stats/meta/tau2.js';
import { fitUnivariate, META_DEFAULTS } from '../../../src/stats/meta/univariate.js';

type Ref = { b: number[]; se: number[]; tau2: number; QE: number; QM: number };
const ref: Record<string, Ref> = JSON.parse(readFileSync(new URL('../../reference/meta/reference-centred.json', import.meta.url), 'utf8'));

describe('a moderator with a large offset and a tiny spread', () => {
  it.each(Object.keys(ref))('%s equals the 60-digit fit', (name) => {
    const [file, method] = name.split('/');
    const rows = readFileSync(new URL(`../../reference/meta/tables/${file}`, import.meta.url), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const col = (j: number) => Float64Array.from(rows, (r) => Number(r[j]));
    const f = fitUnivariate(col(3), col(4), { ...META_DEFAULTS, tau2: method as Tau2Method, test: 'z' }, [new Float64Array(rows.length).fill(1), col(5)]);
    const want = ref[name];
    const near = (a: number, b: number, what: string) => expect(Math.abs(a - b) <= 1e-8 * Math.abs(b), `${what}: ${a} vs ${b}`).toBe(true);
    f!.coefficients.forEach((c, j) => { near(c.estimate, want.b[j], `b${j}`); near(c.se, want.se[j], `se${j}`); });
    near(f!.tau2, want.tau2, 'tau2');
    near(f!.Q, want.QE, 'QE');
    near(f!.QM, want.QM, 'QM');
  });
});
