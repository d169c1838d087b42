import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFSEQ_METHODS, type ConfSeqMethodId } from '../../../src/stats/confseq/registry.js';
import { sequenceBounds } from '../../../src/stats/confseq/intersect.js';
import { normalMixtureBound, normalMixtureRho } from '../../../src/stats/confseq/normal-mixture.js';

interface Case {
  series: string; method: ConfSeqMethodId; alpha: number; intersect: boolean; breaks?: number; tOpt?: number;
  t: number[]; lo: number[]; hi: number[];
}
/** The numpy reference (test/reference/confseq/make_reference.py): fixed series, both methods, several t. */
const reference = JSON.parse(readFileSync(new URL('../../reference/confseq/reference.json', import.meta.url), 'utf8')) as {
  series: Record<string, number[]>; cases: Case[];
};

describe('confidence sequences equal the numpy reference', () => {
  it('covers both methods of the registry', () => {
    expect(new Set(reference.cases.map((c) => c.method))).toEqual(new Set(Object.keys(CONFSEQ_METHODS)));
  });
  for (const c of reference.cases) {
    const name = `${c.method} on ${c.series}, α = ${c.alpha}, ${c.intersect ? 'intersected' : 'raw'}${c.tOpt ? `, t_opt = ${c.tOpt}` : ''}`;
    it(name, () => {
      const state = CONFSEQ_METHODS[c.method].start({ alpha: c.alpha, intersect: c.intersect, tOpt: c.tOpt, breaks: c.breaks });
      const { lo, hi } = sequenceBounds(state, reference.series[c.series]);
      // The betting sequence is read off a grid: the reference's own tolerance is one grid step.
      const tol = c.method === 'betting' ? 1 / (c.breaks ?? 1000) + 1e-12 : 1e-12;
      c.t.forEach((t, i) => {
        expect(Math.abs(lo[t - 1] - c.lo[i]), `lo at t = ${t}`).toBeLessThanOrEqual(tol);
        expect(Math.abs(hi[t - 1] - c.hi[i]), `hi at t = ${t}`).toBeLessThanOrEqual(tol);
      });
    });
  }
});

describe('the normal-mixture boundary by hand', () => {
  it('is √((V + ρ)(log(1 + V/ρ) + 2 log(1/α))) with ρ = V_opt/(2 log(1/α) + log(1 + 2 log(1/α)))', () => {
    // α = e^{-1}: log(1/α) = 1, ρ = V_opt/(2 + log 3). At V = V_opt = 25, V/ρ = 2 + log 3, so
    // bound² = 25(1 + 1/(2 + log 3))(log(3 + log 3) + 2) = 25 · 1.32273 · 3.41065 = 112.784, bound = 10.620.
    const rho = normalMixtureRho(25, Math.exp(-1));
    expect(rho).toBeCloseTo(25 / (2 + Math.log(3)), 14);
    const v = 25, byHand = Math.sqrt((v + rho) * (Math.log(1 + v / rho) + 2));
    expect(normalMixtureBound(25, Math.exp(-1), rho)).toBeCloseTo(byHand, 12);
    expect(byHand).toBeCloseTo(10.620, 3);
  });
  it('gives [0, 1] before any observation and stays inside [0, 1]', () => {
    for (const id of Object.keys(CONFSEQ_METHODS) as ConfSeqMethodId[]) {
      const s = CONFSEQ_METHODS[id].start({ alpha: 0.05 });
      expect(s.interval()).toEqual([0, 1]);
      for (let i = 0; i < 50; i++) s.push(1);
      const [lo, hi] = s.interval();
      expect(lo).toBeGreaterThan(0.5);
      expect(hi).toBe(1);
    }
  });
  it('refuses an observation outside [0, 1]', () => {
    expect(() => CONFSEQ_METHODS.betting.start({ alpha: 0.05 }).push(1.5)).toThrow(/\[0, 1\]/);
  });
});
