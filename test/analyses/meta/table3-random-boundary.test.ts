import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { meta } from '../../../src/analyses/meta/index.js';
import { jsdBernoulli } from '../../../src/stats/jsd.js';
import { binomial, generator } from '../../helpers/independent-rng.js';
import type { RandomTable3Row } from '../../../src/analyses/meta/index.js';

/** A row's numeric field (the row is keyed by Table 3's columns, stats/table3.ts). */
const v = (r: RandomTable3Row, field: string) => r[field] as number;

/**
 * `--pooling random` near R = 1 (docs/methods.md §22.6): 3 models × 4 games, n trials per cell,
 * base 0.5 and alt 0.5 + d on the independent generator, 600 data sets per regime (SE 0.009 at
 * 0.95). Before the test of R = 1 decided R's upper end, the pooled interval excluded 1 in every
 * data set at R = 1 (an independent review: coverage 0.000) and covered 0.857 at R = 0.998, n = 100.
 */
const MODELS = ['m1', 'm2', 'm3'], GAMES = ['g1', 'g2', 'g3', 'g4'];

function dataSet(u: () => number, alt: number, n: number): CellTable {
  const cells = MODELS.flatMap((model) => GAMES.flatMap((game) => [
    { key: { model, game, framing: 'b' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, 0.5) } },
    { key: { model, game, framing: 's' }, obs: { kind: 'binary' as const, n, x: binomial(u, n, alt) } },
  ]));
  return { factors: ['model', 'game', 'framing'], cells };
}

describe('random pooling of R near 1', () => {
  it.each([[0, 100], [0, 300], [0.0527, 100]])('d = %s, n = %s: the pooled R interval covers the true R in ≥ 0.90', (d, n) => {
    const u = generator(Math.round(10_000 * d) + n);
    const truth = 1 - jsdBernoulli(0.5, 0.5 + d) / Math.LN2; // 1, or 0.998 at d = 0.0527
    const SIMS = 600;
    let covered = 0, modelCovered = 0;
    for (let s = 0; s < SIMS; s++) {
      const rows = meta.randomTable3(dataSet(u, 0.5 + d, n), { base: 'b', alt: 's', attenuation: 1 }, 'Pooled');
      const pooled = rows.at(-1)!;
      if (v(pooled, 'R_lo') <= truth + 1e-12 && truth <= v(pooled, 'R_hi') + 1e-12) covered++;
      if (rows.slice(0, 3).every((r) => v(r, 'R_lo') <= truth + 1e-12 && truth <= v(r, 'R_hi') + 1e-12)) modelCovered++;
      if (v(pooled, 'R_hi') < 1) expect(pooled.R_test_p).toBeLessThan(0.05); // an interval excluding 1 only beside a rejecting test
    }
    console.log(`random pooling, d = ${d}, n = ${n} (R = ${truth.toFixed(4)}): pooled R ${(covered / SIMS).toFixed(3)}; `
      + `all three models' R ${(modelCovered / SIMS).toFixed(3)}`);
    expect(covered / SIMS).toBeGreaterThanOrEqual(0.9);
  });

  it('the G-test of R = 1 stands beside R, and its not rejecting keeps 1 in the interval', () => {
    const rows = meta.randomTable3(dataSet(generator(3), 0.5, 100), { base: 'b', alt: 's', attenuation: 1 }, 'Pooled');
    for (const r of rows) {
      expect(r.R_test_p).toBeGreaterThanOrEqual(0);
      if (v(r, 'R_test_p') >= 0.05) expect(r.R_hi).toBe(1);
    }
    expect(meta.randomTable3Csv(rows).split('\n')[0]).toContain(',R_I2,R_test_p,clipped');
  });
});
