import { describe, expect, it } from 'vitest';
import { selectivePlaneFigure, type PlaneRow } from '../../../src/analyses/selective/figure.js';
import { DEFAULT_THRESHOLDS } from '../../../src/analyses/selective/estimand.js';
import { equivalenceVerdict, invarianceVerdict } from '../../../src/analyses/selective/equivalence.js';

/**
 * The plane's caption states the verdict rule the analysis applies (equivalence.ts: invariance
 * when the simultaneous upper bound of surface sensitivity is ≤ ε, not when the point is left of
 * the dashed line) with the thresholds the figure draws.
 */
type Layer = { encoding: Record<string, { datum?: number }> };
const layers = (f: ReturnType<typeof selectivePlaneFigure>) => (f.spec as unknown as { spec: { layer: Layer[] } }).spec.layer;

// A run's mark whose point and whole percentile bar lie left of ε = 5 points, but whose simultaneous
// upper bound (9 points) does not: the rule calls it inconclusive, not selectively robust.
const row: PlaneRow = { source: 'This run: pilot', model: 'M', condition: 'minimal', ss: 0.02, ssLo: 0.01, ssHi: 0.04, wr: 0.3, wrLo: 0.2, wrHi: 0.4,
  verdict: equivalenceVerdict(invarianceVerdict({ lower: 0.01, upper: 0.09 }, DEFAULT_THRESHOLDS), 0.2, DEFAULT_THRESHOLDS) };

describe('the selective-robustness plane\'s caption', () => {
  it('names the simultaneous upper bound, not the point, against ε: a mark left of the line can be inconclusive', () => {
    expect(row.verdict).toBe('invariance inconclusive, world-responsive');
    const f = selectivePlaneFigure([row], { subtitle: 's' });
    expect(f.caption).toContain('the simultaneous 95 % upper bound of surface sensitivity');
    expect(f.caption).toContain('surface-sensitive when its lower bound is above ε, inconclusive otherwise');
    expect(f.caption).toContain('a mark left of the dashed line may still be inconclusive');
    expect(f.caption).toContain('reports/selective-equivalence.csv');
    expect(f.caption).not.toMatch(/Selectively robust: left of the dashed line/);
  });

  it.each([[DEFAULT_THRESHOLDS.maxSurface, DEFAULT_THRESHOLDS.minWorldLo, '5.0', '0.0'], [0.1, 0.2, '10.0', '20.0'], [0.025, -0.05, '2.5', '-5.0']])(
    'states the thresholds the figure draws (ε = %s, world threshold %s)', (maxSurface, minWorldLo, eps, world) => {
      const f = selectivePlaneFigure([row], { subtitle: 's', thresholds: { maxSurface, minWorldLo } });
      expect([layers(f)[0].encoding.x.datum, layers(f)[1].encoding.y.datum]).toEqual([maxSurface, minWorldLo]);
      expect(f.caption).toContain(`at most ε = ${eps} points`);
      expect(f.caption).toContain(`the world-responsiveness interval above ${world} points`);
    });

  it('a published table alone: no verdict, and says so', () => {
    const { verdict: _, ...published } = row;
    const f = selectivePlaneFigure([{ ...published, source: 'Published' }], { subtitle: 's' });
    expect(f.caption).toContain('A published table gives no simultaneous bounds, so its marks carry no verdict here');
    expect(f.caption).not.toContain('resampling the calls');
  });
});
