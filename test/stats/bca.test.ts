import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../src/core/cells.js';
import { analyzeTwoFraming } from '../../src/analyses/two-framing/analysis.js';
import { familyEstimand, familyLayout } from '../../src/analyses/two-framing/family.js';
import { twoFramingEstimand, twoFramingLayout } from '../../src/analyses/two-framing/estimand.js';
import { combineEstimands } from '../../src/stats/combine.js';
import { cellJackknife } from '../../src/stats/bootstrap.js';
import { bcaInterval, bcaLevels, binaryJackknife, jackknifeAcceleration, shareBelow, valuesJackknife } from '../../src/stats/bca.js';
import { normalCdf, normalQuantile } from '../../src/stats/normal.js';

/** Written by test/reference/bca_reference.py (scipy.stats.bootstrap, method='BCa'). */
interface RefStat { point: number; acceleration: number | null; lo: number | null; hi: number | null; lo_sd: number | null; hi_sd: number | null }
interface RefSet { attenuation: number; framings: string[]; cells: [string, string, number, number[]][]; statistics: Record<string, RefStat> }
const ref = JSON.parse(readFileSync(new URL('../reference/bca_reference.json', import.meta.url), 'utf8')) as {
  n_resamples: number; seeds: number[]; normal: { ndtr: [number, number][]; ndtri: [number, number][] }; datasets: Record<string, RefSet>;
};

function tableOf(ds: RefSet): CellTable {
  return {
    factors: ['model', 'game', 'framing'],
    cells: ds.cells.flatMap(([model, game, n, xs]) => xs.map((x, f) => ({ key: { model, game, framing: ds.framings[f] }, obs: { kind: 'binary' as const, n, x } }))),
  };
}

const REPS = 20_000;

describe('normal distribution functions against scipy.special', () => {
  it('ndtr and ndtri agree to 1e-14 (relative)', () => {
    for (const [z, p] of ref.normal.ndtr) expect(Math.abs(normalCdf(z) - p)).toBeLessThanOrEqual(1e-14 * p);
    for (const [p, z] of ref.normal.ndtri) expect(Math.abs(normalQuantile(p) - z)).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(z)));
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
  });
});

describe('jackknife of a cell (hand derivation)', () => {
  it('binary x/n: two distinct leave-one-out rates weighted by x and n − x', () => {
    const j = binaryJackknife(10, 3);
    expect([...j.rates]).toEqual([2 / 9, 3 / 9]);
    expect([...j.weights]).toEqual([3, 7]);
    expect(j.units).toBe(10);
    expect([...binaryJackknife(5, 0).weights]).toEqual([5]);
    expect([...binaryJackknife(5, 5).rates]).toEqual([4 / 4]);
  });
  it('a binary cell and the same trials as probabilities give the same jackknife multiset', () => {
    const a = cellJackknife({ kind: 'binary', n: 4, x: 1 });
    const b = valuesJackknife([1, 0, 0, 0]);
    const expand = (j: typeof a) => [...j.rates].flatMap((r, i) => Array(j.weights[i]).fill(r)).sort();
    expect(expand(a)).toEqual(expand(b));
  });
  it('the acceleration of a single proportion is (1 − 2p)/(6√(np(1−p))) up to the (n−1)/n factors (hand: n = 10, x = 3)', () => {
    // U_i = (n−1)(θ̄ − θ_(i)); for the mean these are x_i − p̂ exactly, so â = Σ(x−p)³ / (6 (Σ(x−p)²)^{3/2}).
    const n = 10, x = 3, p = x / n;
    const s2 = x * (1 - p) ** 2 + (n - x) * p ** 2;
    const s3 = x * (1 - p) ** 3 - (n - x) * p ** 3;
    const want = s3 / (6 * s2 ** 1.5);
    const a = jackknifeAcceleration(Float64Array.of(p), [binaryJackknife(n, x)], (r, o) => { o[0] = r[0]; }, 1);
    expect(a[0]).toBeCloseTo(want, 14);
  });
});

describe('BCa interval pieces', () => {
  it('share below counts ties half (scipy\'s "mean" percentile of score)', () => {
    expect(shareBelow([1, 2, 2, 3], 2)).toBe((1 + 3) / 8);
  });
  it('z0 = 0 and a = 0 give the percentile levels', () => {
    const [q1, q2] = bcaLevels(0, 0, 0.95);
    expect(q1).toBeCloseTo(0.025, 14);
    expect(q2).toBeCloseTo(0.975, 14);
  });
  it('z0 infinite (every replicate below the point) falls back to the percentile ends, flagged', () => {
    const reps = Float64Array.from({ length: 101 }, (_, i) => i / 200); // 0 … 0.5, all below 1
    const b = bcaInterval(reps, 1, 0, 0.95);
    expect(b.fallback).toBe('z0-infinite');
    expect(b.lo).toBeCloseTo(0.0125, 12);
    expect(b.hi).toBeCloseTo(0.4875, 12);
  });
});

for (const [key, ds] of Object.entries(ref.datasets)) {
  describe(`BCa against scipy.stats.bootstrap(method='BCa'): ${key}`, () => {
    const table = tableOf(ds);
    const settings = { seed: 7, reps: REPS, attenuation: ds.attenuation, base: ds.framings[0], alt: ds.framings[1] };
    const bca = analyzeTwoFraming(table, { ...settings, interval: 'bca' }).boot;
    const pct = analyzeTwoFraming(table, settings).boot;

    it('the acceleration equals scipy\'s (no Monte Carlo error): within 1e-9 relative', () => {
      const layout = twoFramingLayout(table, settings.base, settings.alt);
      const est = combineEstimands(twoFramingEstimand(layout, ds.attenuation), ...(ds.framings.length > 2 ? [familyEstimand(familyLayout(table))] : []));
      const observed = Float64Array.from(table.cells.map((c) => (c.obs.kind === 'binary' ? c.obs.x / c.obs.n : NaN)));
      const a = jackknifeAcceleration(observed, table.cells.map((c) => cellJackknife(c.obs)), (r, o) => est.evaluate(r, o), est.names.length);
      for (const [name, s] of Object.entries(ds.statistics)) {
        if (s.acceleration === null) continue;
        const got = a[est.names.indexOf(name)];
        expect(Math.abs(got - s.acceleration), name).toBeLessThanOrEqual(1e-8 * Math.abs(s.acceleration) + 1e-12);
      }
    });

    it('points agree with scipy to 1e-12 and the BCa ends within Monte Carlo error (4 sd of scipy\'s spread over seeds)', () => {
      for (const [name, s] of Object.entries(ds.statistics)) {
        const got = bca.get(name);
        expect(Math.abs(got.point - s.point), name).toBeLessThanOrEqual(1e-12);
        if (s.lo === null || s.hi === null) continue; // z0 infinite (scipy: NaN): checked below
        // A lattice end (sd 0 across seeds) still moves by a lattice step between generators.
        const sd = Math.max(s.lo_sd ?? 0, s.hi_sd ?? 0);
        expect(Math.abs(got.lo - s.lo), `${name} lo ${got.lo} vs ${s.lo}`).toBeLessThanOrEqual(4 * sd + 1e-9);
        expect(Math.abs(got.hi - s.hi), `${name} hi ${got.hi} vs ${s.hi}`).toBeLessThanOrEqual(4 * sd + 1e-9);
      }
    });

    it('where scipy gives NaN (z0 infinite for some seed), nearly every replicate lies below the point; a samegame fallback is the percentile interval with a note', () => {
      for (const [name, s] of Object.entries(ds.statistics)) {
        if (s.lo !== null) continue;
        const j = bca.names.indexOf(name);
        expect(shareBelow(bca.replicates.subarray(j * REPS, (j + 1) * REPS), s.point), name).toBeGreaterThan(0.999);
        const noted = bca.notes.some((n) => n.startsWith(`${name}:`));
        if (noted) expect(bca.get(name)).toEqual(pct.get(name));
      }
    });
  });
}
