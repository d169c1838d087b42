import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { runMeta } from '../../../src/commands/meta.js';
import { studyEffects } from '../../../src/analyses/meta/effects.js';
import { clusteredRate, countsEffect, meanRate, ratesEffect } from '../../../src/stats/meta/effect-size.js';
import { readRates } from '../../../src/sources/rates-csv.js';
import { table } from '../../stats/meta/reference.js';

const csv = (path: string) => Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').trim(), { header: true }).data;

/**
 * The shift of the shipped rates, by hand from the counts printed in Table 2 of Same Game,
 * Different Story (data/lore-heydari-2024/published.csv, n = 300): yi = p_s − p_b and
 * vi = p_s(1 − p_s)/n + p_b(1 − p_b)/n, with 1/2 added to the four counts of a table holding a 0
 * (n then 301), times the default attenuation 0.70 (yi) and 0.49 (vi).
 */
describe('effects.csv of the shipped rates', () => {
  const res = runMeta({ manifest: 'data/meta/lore-heydari.yaml' });
  const published = csv('data/lore-heydari-2024/published.csv').filter((r) => r.table === 'table2');
  const count = (model: string, game: string, s: string) => Number(published.find((r) => r.model === model && r.game === game && r.statistic === s)!.published);
  const rows = res.analysis.effects.filter((r) => r.study === 'lore-heydari-2024');

  it('has the 12 model × game cells of Table 2', () => expect(rows).toHaveLength(12));

  it.each(rows.map((r) => [r.model, r.game, r] as const))('%s / %s equals the hand computation', (model, game, row) => {
    const xb = count(model, game, 'base_count');
    const xs = count(model, game, 'alt_count');
    const zero = [xb, 300 - xb, xs, 300 - xs].includes(0);
    const n = zero ? 301 : 300;
    const pb = (xb + (zero ? 0.5 : 0)) / n;
    const ps = (xs + (zero ? 0.5 : 0)) / n;
    expect(row.yi).toBeCloseTo(0.7 * (ps - pb), 15);
    expect(row.vi).toBeCloseTo(0.49 * (ps * (1 - ps) / n + pb * (1 - pb) / n), 17);
    expect([row.n_base, row.n_alt]).toEqual([300, 300]);
  });

  it('with attenuation 1 they equal metafor\'s escalc("RD", add = 1/2, to = "only0") to 1e-12', () => {
    const input = readRates('data/lore-heydari-2024/rates.csv');
    const mine = studyEffects(input.table, { study: 's', base: 'business', alt: 'friend-sharing', attenuation: 1, moderators: {} }, 'shift').rows;
    const ref = table('shipped');
    mine.forEach((r, i) => {
      expect([ref[i].model, ref[i].game]).toEqual([r.model, r.game]);
      expect(Math.abs(r.yi - Number(ref[i].yi))).toBeLessThan(1e-12);
      expect(Math.abs(r.vi - Number(ref[i].vi)) / Number(ref[i].vi)).toBeLessThan(1e-12);
    });
  });
});

describe('effect sizes', () => {
  it('log odds ratio of counts: escalc("OR") — 0/300 vs 30/300 gives log((0.5·270.5)/(300.5·30.5)) with Σ 1/count', () => {
    const e = countsEffect(0, 300, 30, 300, 'logor');
    expect(e.yi).toBeCloseTo(Math.log((0.5 * 270.5) / (300.5 * 30.5)), 14);
    expect(e.vi).toBeCloseTo(1 / 0.5 + 1 / 300.5 + 1 / 30.5 + 1 / 270.5, 14);
    expect(e.adjusted).toBe(true);
    // metafor 3.8: escalc("OR", ai=0, n1i=300, ci=30, n2i=300) → yi −4.2160, vi 2.0398
    expect(e.yi).toBeCloseTo(-4.2160, 4);
    expect(e.vi).toBeCloseTo(2.0398, 4);
  });

  it('a clustered rate: CR2 variance Σ e²/(1 − n/N)/N², which is CR1\'s G/(G − 1)·Σ e²/N² for equal clusters', () => {
    const r = clusteredRate(Float64Array.of(10, 10, 20), Float64Array.of(2, 6, 10));
    const p = 18 / 40;
    expect(r.p).toBe(p);
    expect(r.variance).toBeCloseTo(((2 - p * 10) ** 2 / 0.75 + (6 - p * 10) ** 2 / 0.75 + (10 - p * 20) ** 2 / 0.5) / 1600, 15);
    const eq = clusteredRate(Float64Array.of(5, 5, 5, 5), Float64Array.of(1, 2, 4, 5));
    const q = 12 / 20;
    expect(eq.variance).toBeCloseTo((4 / 3) * [1, 2, 4, 5].reduce((s, x) => s + (x - 5 * q) ** 2, 0) / 400, 15);
    expect(clusteredRate(Float64Array.of(5, 5), Float64Array.of(2, 3)).variance).toBeNaN();
  });

  it('probability cells: the variance of a mean; a flat cell takes the add-1/2 stand-in', () => {
    const a = meanRate(Float64Array.of(0.2, 0.4, 0.6));
    expect(a.variance).toBeCloseTo(0.04 / 3, 15);
    const flat = meanRate(Float64Array.of(1, 1, 1, 1));
    const e = ratesEffect(flat, a, 'shift');
    expect(e.adjusted).toBe(true);
    const pf = (4 + 0.5) / 5;
    const pa = (0.4 * 3 + 0.5) / 4;
    expect(e.yi).toBeCloseTo(pf - pa, 15);
    expect(e.vi).toBeCloseTo(pf * (1 - pf) / 5 + pa * (1 - pa) / 4, 15);
  });
});
