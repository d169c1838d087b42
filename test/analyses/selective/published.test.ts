import { describe, expect, it } from 'vitest';
import { publishedPlaneRows } from '../../../src/analyses/selective/published.js';
import { publishedPlane } from '../../../src/analyses/selective/index.js';
import { selectivePlaneFigure } from '../../../src/analyses/selective/figure.js';
import { renderSvg } from '../../../src/render/render.js';
import { UserError } from '../../../src/core/errors.js';

// the context-enrichment paper §R results table, transcribed from the paper (points): SS [lo, hi], WR [lo, hi].
const SEED: [string, string, number, number, number, number, number, number][] = [
  ['Sol', 'minimal', 34.1, 30.3, 40.3, 33.9, 28.0, 40.2],
  ['Sol', 'neutral-padding', 14.2, 10.7, 17.8, 6.7, 1.2, 12.2],
  ['Sol', 'generic-social', 27.9, 21.3, 33.7, 51.1, 45.2, 56.6],
  ['Sol', 'descriptive-grounding', 3.7, 1.8, 6.0, 85.9, 82.4, 88.9],
  ['Sol', 'normative-grounding', 3.9, 3.3, 4.6, 92.0, 91.0, 92.9],
  ['Terra', 'minimal', 19.8, 14.6, 26.9, 38.6, 29.5, 47.9],
  ['Terra', 'neutral-padding', 15.4, 13.6, 20.2, 23.7, 17.5, 29.8],
  ['Terra', 'generic-social', 30.6, 24.8, 38.1, -2.1, -10.8, 7.1],
  ['Terra', 'descriptive-grounding', 13.2, 10.2, 18.3, 57.2, 50.0, 64.1],
  ['Terra', 'normative-grounding', 15.0, 14.2, 15.8, 77.1, 76.0, 78.5],
];

describe('the metrics published in the context-enrichment paper', () => {
  const rows = publishedPlaneRows();
  it('are the seed table in fractions (points / 100), in its order', () => {
    expect(rows.map((r) => [r.model, r.condition, r.ss, r.ssLo, r.ssHi, r.wr, r.wrLo, r.wrHi]))
      .toEqual(SEED.map(([m, c, ...v]) => [m, c, ...v.map((x) => expect.closeTo(x / 100, 12))]));
    expect(new Set(rows.map((r) => r.source))).toEqual(new Set(['Published: Greiche et al. 2026']));
  });
  it('draw alone on the plane with the same figure function, and render', async () => {
    const f = publishedPlane();
    expect(f.id).toBe('selective-plane-published');
    const spec = f.spec as unknown as { data: { values: unknown[] }; facet: { column: { field: string } } };
    expect(spec.data.values).toHaveLength(10);
    expect(spec.facet.column.field).toBe('source');
    const again = selectivePlaneFigure(rows, { subtitle: 'x' });
    expect((again.spec as unknown as { spec: unknown }).spec).toEqual((f.spec as unknown as { spec: unknown }).spec);
    const warnings: string[] = [];
    const svg = await renderSvg(f.spec, warnings);
    expect(warnings).toEqual([]);
    expect(svg).toContain('Published: Greiche et al. 2026');
    // One point per model × condition, and two interval rules each.
    expect(svg.match(/aria-roledescription="point"/g)).toHaveLength(10);
    expect(svg.match(/aria-roledescription="rule mark"/g)).toHaveLength(2 * 10);
  });
  it('a missing or malformed table is a clear user error', () => {
    expect(() => publishedPlaneRows('greiche-2026', '/nonexistent/metrics.csv')).toThrow(UserError);
    expect(() => publishedPlaneRows('greiche-2026', '/nonexistent/metrics.csv')).toThrow(/cannot read the published metrics \(ENOENT\)/);
  });
  it('the plane marks the thresholds: dashed x at the surface limit, y at the world limit', () => {
    const f = selectivePlaneFigure(rows, { subtitle: 's', thresholds: { maxSurface: 0.1, minWorldLo: 0.2 } });
    const layers = (f.spec as unknown as { spec: { layer: { encoding: Record<string, { datum?: number }> }[] } }).spec.layer;
    expect(layers[0].encoding.x.datum).toBe(0.1);
    expect(layers[1].encoding.y.datum).toBe(0.2);
    expect(f.caption).toContain('at most ε = 10.0 points'); // the caption's rule: test/analyses/selective/plane-caption.test.ts
  });
});
