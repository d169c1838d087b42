import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { halfWidthsAt, planTrials } from '../../../src/analyses/precision/plan.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { BinomialSampler } from '../../../src/stats/binomial.js';
import { streamFor } from '../../../src/stats/rng.js';
import { stat } from '../../../src/core/names.js';

const truth: [string, string, number, number][] = [['A', 'g1', 0.2, 0.6], ['A', 'g2', 0.5, 0.7], ['B', 'g1', 0.4, 0.45], ['B', 'g2', 0.1, 0.5]];
const table = (n: number, draw?: (p: number, key: string) => number): CellTable => ({
  factors: ['model', 'game', 'framing'],
  cells: truth.flatMap(([m, g, pb, ps]) => ([['b', pb], ['s', ps]] as const).map(([f, p]) => ({
    key: { model: m, game: g, framing: f },
    obs: { kind: 'binary' as const, n, x: draw ? draw(p, `${m}|${g}|${f}`) : Math.round(p * n) },
  }))),
});
const settings = { seed: 11, reps: 2000, attenuation: 1, base: 'b', alt: 's' };

describe('precision planner', () => {
  const H = 0.03;
  const plan = planTrials(table(100), { settings, statistic: 'shift', halfWidth: H, maxN: 20_000 });

  it('finds the smallest n whose planning half-width is within H (pooled ≤ per-model requirement)', () => {
    expect(plan.nPooled).toBeDefined();
    expect(plan.nModels).toBeGreaterThanOrEqual(plan.nPooled!);
    const at = halfWidthsAt(table(100), plan.nPooled!, { settings, statistic: 'shift', halfWidth: H });
    expect(at.get('Pooled')!).toBeLessThanOrEqual(H);
    // Hand check of the order of magnitude: pooled shift = mean of 4 differences, each with
    // variance Σ p(1−p)/n; half-width ≈ 1.96·√(Σ_cells p(1−p)/n)/4 = H → n ≈ 1.96²·Σp(1−p)/(16·H²).
    const sum = truth.reduce((s, [, , pb, ps]) => s + pb * (1 - pb) + ps * (1 - ps), 0);
    const nHand = (1.96 ** 2 * sum) / (16 * H * H);
    expect(plan.nPooled!).toBeGreaterThan(0.8 * nHand);
    expect(plan.nPooled!).toBeLessThan(1.25 * nHand);
  });

  it('used on fresh data, the planned n gives intervals of about the requested half-width', () => {
    const n = plan.nPooled!;
    const hw = (size: number, seeds: number) => {
      const out: number[] = [];
      for (let s = 0; s < seeds; s++) {
        const data = table(size, (p, key) => new BinomialSampler(size, p).draw(streamFor(500 + s, key)));
        const v = analyzeTwoFraming(data, { ...settings, seed: s }).boot.get(stat('shift', 'Pooled'));
        out.push((v.hi - v.lo) / 2);
      }
      return out.reduce((a, b) => a + b, 0) / out.length;
    };
    const atPlan = hw(n, 20);
    expect(atPlan).toBeLessThanOrEqual(H * 1.05);
    expect(atPlan).toBeGreaterThan(H * 0.9); // not wildly over-provisioned
    expect(hw(Math.floor(n / 2), 10)).toBeGreaterThan(H); // and half as many trials would not do
  });

  it('says when the target cannot be reached within maxN', () => {
    const p = planTrials(table(100), { settings, statistic: 'shift', halfWidth: 0.0001, maxN: 500 });
    expect(p.nPooled).toBeUndefined();
    expect(p.nModels).toBeUndefined();
  });

  it('rejects a non-positive half-width', () => {
    expect(() => planTrials(table(100), { settings, statistic: 'R', halfWidth: 0 })).toThrow(RangeError);
  });
});

describe('precision planner for R and every model', () => {
  it('the planned n gives every per-model R interval about the requested half-width', () => {
    const H = 0.03;
    const plan = planTrials(table(100), { settings, statistic: 'R', halfWidth: H, maxN: 20_000 });
    const n = plan.nModels!;
    expect(n).toBeGreaterThanOrEqual(plan.nPooled!);
    const seeds = 12;
    const sum = new Map<string, number>();
    for (let s = 0; s < seeds; s++) {
      const data = table(n, (p, key) => new BinomialSampler(n, p).draw(streamFor(900 + s, key)));
      const a = analyzeTwoFraming(data, { ...settings, seed: s });
      for (const m of a.layout.models) {
        const v = a.boot.get(stat('R', m));
        sum.set(m, (sum.get(m) ?? 0) + (v.hi - v.lo) / 2 / seeds);
      }
    }
    // Every model within 10 % above H, and the widest one not far below it (the plan is tight).
    expect(Math.max(...sum.values())).toBeLessThanOrEqual(H * 1.1);
    expect(Math.max(...sum.values())).toBeGreaterThan(H * 0.8);
  });
});
