import { describe, expect, it } from 'vitest';
import { fitMultilevel } from '../../../src/stats/meta/multilevel.js';
import { close, column, reference, table } from './reference.js';

/**
 * The three-level model against metafor's rma.mv(yi, vi, random = ~ 1 | outer/inner, test = "t")
 * (test/reference/meta/make-reference.R): Konstantopoulos (2011)'s schools within districts, and
 * the shipped shift's games within models. σ² components, estimate and CI within 1e-4 relative.
 */
const groups = (names: readonly string[]) => { const ids = [...new Set(names)]; return Int32Array.from(names, (n) => ids.indexOf(n)); };

describe('three-level model against metafor', () => {
  it.each([['konstantopoulos', 'study'], ['shipped', 'model']])('%s', (name, outer) => {
    const rows = table(name);
    const fit = fitMultilevel(column(rows, 'yi'), column(rows, 'vi'), groups(rows.map((r) => r[outer])))!;
    const ref = reference.multilevel[name];
    const got: Record<string, number> = { ...fit };
    for (const f of ['estimate', 'se', 'ci_lo', 'ci_hi', 'df', 'sigma2_outer', 'sigma2_inner', 'logLik', 'pi_lo', 'pi_hi']) {
      expect(close(got[f], ref[f], 1e-4), `${f}: ${got[f]} vs ${ref[f]}`).toBe(true);
    }
  });
});

describe('three-level optimum', () => {
  it.each(['konstantopoulos', 'shipped'])('%s: the restricted likelihood is at least metafor\'s (nlminb stops at rel.tol 1e-10)', (name) => {
    const rows = table(name);
    const outer = name === 'shipped' ? 'model' : 'study';
    const fit = fitMultilevel(column(rows, 'yi'), column(rows, 'vi'), groups(rows.map((r) => r[outer])))!;
    expect(fit.logLik).toBeGreaterThanOrEqual(reference.multilevel[name].logLik - 1e-12);
  });
});
