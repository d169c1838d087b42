import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { imbensManskiCritical, imbensManskiInterval } from '../../src/stats/imbens-manski.js';
import { binomial, generator } from '../helpers/independent-rng.js';

/** test/reference/imbens_manski.py: c by scipy's brentq, and the cell intervals. */
const REF = JSON.parse(readFileSync(new URL('../reference/imbens_manski.json', import.meta.url), 'utf8')) as
  { x: number; n: number; m: number; c: number; lo: number; hi: number }[];

const cell = (x: number, n: number, m: number): [number, number] => {
  const N = n + m, L = x / N, U = (x + m) / N;
  return imbensManskiInterval(L, U, Math.sqrt((L * (1 - L)) / N), Math.sqrt((U * (1 - U)) / N));
};

describe('the Imbens–Manski interval for a rate with invalid answers', () => {
  it('equals the scipy reference to 1e-9 (c between z_0.95 and z_0.975)', () => {
    for (const r of REF) {
      const N = r.n + r.m, L = r.x / N, U = (r.x + r.m) / N;
      expect(imbensManskiCritical(U - L, Math.max(Math.sqrt((L * (1 - L)) / N), Math.sqrt((U * (1 - U)) / N)))).toBeCloseTo(r.c, 9);
      const [lo, hi] = cell(r.x, r.n, r.m);
      expect(lo).toBeCloseTo(r.lo, 9);
      expect(hi).toBeCloseTo(r.hi, 9);
    }
  });

  /**
   * n + m = 50 trials, a share q invalid, latent answers at rate p; the invalid trials' answers all
   * cooperative, so the rate had every trial answered (θ = p) sits at the upper end of the
   * identified set, where the bounds alone hold least. 2,000 data sets per regime (SE 0.005).
   */
  it.each([[0.5, 0.1], [0.3, 0.2], [0.8, 0.05]])('latent rate %s, invalid share %s, n = 50: covers θ in ≥ 0.92 (nominal 0.95)', (p, q) => {
    const u = generator(Math.round(1000 * p + 100 * q));
    const SIMS = 2000;
    let covered = 0, bounds = 0;
    const theta = (1 - q) * p + q; // every invalid trial would have cooperated
    for (let s = 0; s < SIMS; s++) {
      const m = binomial(u, 50, q), x = binomial(u, 50 - m, p);
      const [lo, hi] = cell(x, 50 - m, m);
      if (lo <= theta && theta <= hi) covered++;
      if (x / 50 <= theta && theta <= (x + m) / 50) bounds++;
    }
    console.log(`Imbens-Manski p=${p} q=${q}: ${(covered / SIMS).toFixed(4)}; the bounds alone ${(bounds / SIMS).toFixed(4)}`);
    expect(covered / SIMS).toBeGreaterThanOrEqual(0.92);
  });
});
