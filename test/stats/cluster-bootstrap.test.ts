import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrap, redrawCell, type Estimand } from '../../src/stats/bootstrap.js';
import { leaveOneClusterOut } from '../../src/stats/jackknife.js';
import { cellRate, cellSize, isDegenerate, type ClusteredObservations, type Observations } from '../../src/core/cells.js';
import { readTrials } from '../../src/sources/trials.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { stat } from '../../src/core/names.js';

const FIX = fileURLToPath(new URL('../fixtures/trials/', import.meta.url));
const one: Estimand = { names: ['rate'], evaluate(rates, out) { out[0] = rates[0]; } };

/** m clusters of k decisions each, every decision of a cluster equal; the first c clusters all C. */
function correlated(m: number, k: number, c: number): ClusteredObservations {
  return { kind: 'clustered', sizes: new Float64Array(m).fill(k), sums: Float64Array.from({ length: m }, (_, j) => (j < c ? k : 0)) };
}

/** P(K ≤ k) for K ~ Binomial(m, 1/2), exactly: Σ C(m, i) / 2^m with integer binomial coefficients. */
function binomialHalfCdf(m: number, k: number): number {
  let coef = 1n, sum = 0n;
  for (let i = 0; i <= k; i++) { sum += coef; coef = (coef * BigInt(m - i)) / BigInt(i + 1); }
  return Number(sum) / 2 ** m;
}

describe('clustered bootstrap: whole clusters are resampled within a cell', () => {
  /*
   * Hand derivation. A cell of m = 20 conversations × k = 6 decisions, every decision of a
   * conversation equal, 10 conversations all C and 10 all D (rate 0.5). One clustered replicate
   * draws 20 conversations with replacement; each is an all-C one with probability 10/20, so the
   * number K of all-C conversations drawn is Binomial(20, 1/2), and the replicate rate is
   * 6K / (6 · 20) = K / 20 — exactly the bootstrap of a binomial over the 20 clusters (n = 20,
   * x = 10). Its 2.5 % quantile is the smallest k with P(K ≤ k) ≥ 0.025: P(K ≤ 5) = 21700/2^20 =
   * 0.0207, P(K ≤ 6) = 60460/2^20 = 0.0577, so k = 6; by symmetry the 97.5 % quantile is 14. The
   * percentile interval of the rate is therefore [6/20, 14/20] = [0.30, 0.70]. Treating the 120
   * decisions as independent (Binomial(120, 1/2)/120) would give about 0.5 ± 1.96·√(0.25/120) =
   * [0.41, 0.59]: narrower, because it counts 120 independent decisions where there are 20.
   */
  it('perfectly correlated clusters: the interval is the binomial-over-clusters interval [0.30, 0.70], wider than the unclustered one', () => {
    expect(binomialHalfCdf(20, 5)).toBeCloseTo(21700 / 2 ** 20, 15);
    expect(binomialHalfCdf(20, 5)).toBeLessThan(0.025);
    expect(binomialHalfCdf(20, 6)).toBeGreaterThan(0.025);
    expect(binomialHalfCdf(20, 13)).toBeLessThan(0.975);
    expect(binomialHalfCdf(20, 14)).toBeGreaterThan(0.975);

    const reps = 20_000;
    const clustered = bootstrap([{ id: 'cell', obs: correlated(20, 6, 10) }], one, { seed: 7, reps }).get('rate');
    // Equal up to floating point: 36/120 for the clusters, 6 · (1/20) for the binomial sampler.
    const near = (x: { point: number; lo: number; hi: number }) => [x.point, x.lo, x.hi].map((v) => Math.round(v * 1e12) / 1e12);
    expect(near(clustered)).toEqual([0.5, 0.3, 0.7]);
    const overClusters = bootstrap([{ id: 'cell', obs: { kind: 'binary', n: 20, x: 10 } }], one, { seed: 7, reps }).get('rate');
    expect(near(overClusters)).toEqual(near(clustered));
    const unclustered = bootstrap([{ id: 'cell', obs: { kind: 'binary', n: 120, x: 60 } }], one, { seed: 7, reps }).get('rate');
    expect(unclustered.hi - unclustered.lo).toBeLessThan(0.2);
    expect(unclustered.lo).toBeGreaterThan(0.4);
    expect(clustered.hi - clustered.lo).toBeGreaterThan(unclustered.hi - unclustered.lo);
  });

  it('every replicate is a multiple of 1/20 (a count of all-C clusters), and draws depend only on (seed, cell key)', () => {
    const out = new Float64Array(500);
    redrawCell(correlated(20, 6, 10), 3, 'k', 500, out, 0, 1);
    for (const v of out) expect(Math.abs(v * 20 - Math.round(v * 20))).toBeLessThan(1e-12);
    const again = new Float64Array(500);
    redrawCell(correlated(20, 6, 10), 3, 'k', 500, again, 0, 1);
    expect(again).toEqual(out);
  });

  it('rate, size and degeneracy of a clustered cell; unequal cluster sizes weight decisions, not clusters', () => {
    const obs: Observations = { kind: 'clustered', sizes: Float64Array.from([1, 3]), sums: Float64Array.from([1, 0]) };
    expect([cellRate(obs), cellSize(obs), isDegenerate(obs)]).toEqual([0.25, 4, false]);
    expect(isDegenerate({ kind: 'clustered', sizes: Float64Array.from([2, 4]), sums: Float64Array.from([1, 2]) })).toBe(true);
  });

  it('leave-one-cluster-out values (for a jackknife over clusters): (Σ sums − sums_j) / (Σ sizes − sizes_j)', () => {
    const v = leaveOneClusterOut(correlated(20, 6, 10));
    expect([...v.subarray(0, 10)]).toEqual(new Array(10).fill(54 / 114));
    expect([...v.subarray(10)]).toEqual(new Array(10).fill(60 / 114));
    expect([...leaveOneClusterOut({ kind: 'clustered', sizes: Float64Array.from([5]), sums: Float64Array.from([2]) })]).toEqual([NaN]);
  });

  it('per-trial input with --cluster: the same data give the clustered interval; without it, the narrower one', () => {
    const file = join(FIX, 'clustered.csv');
    const withC = readTrials(file, { cluster: 'conversation' });
    const obs = withC.table.cells[0].obs as ClusteredObservations;
    expect(obs.kind).toBe('clustered');
    expect([...obs.sizes]).toEqual(new Array(20).fill(6));
    expect([...obs.sums].sort()).toEqual([...correlated(20, 6, 10).sums].sort());
    const opts = { trials: file, reps: 4000, seed: 11 };
    const c = reproduceTables({ ...opts, cluster: 'conversation' });
    const u = reproduceTables(opts);
    const name = stat('shift_raw', 'M1', 'Stag Hunt');
    const wc = c.analysis.boot.get(name), wu = u.analysis.boot.get(name);
    expect(wc.point).toBe(wu.point);
    expect(wc.hi - wc.lo).toBeGreaterThan(1.5 * (wu.hi - wu.lo));
    expect(c.input.kind).toBe('per-trial decisions, clustered by conversation');
    const metrics = JSON.parse(c.files.find((f) => f.path.endsWith('metrics.json'))!.content as string);
    expect(metrics.settings.resampling).toMatch(/clustered bootstrap/);
    expect(metrics.settings.attenuation).toBe(1);
    expect(metrics.cells[0].base.clusters).toBe(20);
  });
});
