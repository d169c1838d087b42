import { describe, expect, it } from 'vitest';
import { meta, type EffectRow } from '../../../src/analyses/meta/index.js';
import { META_DEFAULTS } from '../../../src/stats/meta/univariate.js';
import { renderSvg, specJson } from '../../../src/render/render.js';
import type { Figure } from '../../../src/render/figure.js';
import { vegaLiteWarnings } from '../../helpers/vega-warnings.js';
import { roundFloats } from '../../render/round-floats.js';

type Row = Record<string, unknown>;
const settings = { ...META_DEFAULTS, effect: 'shift' as const, moderators: [] };
/** Two studies × two models × two games, written by hand. */
const EFFECTS: EffectRow[] = [
  ['a', 'M1', 'g1', 0.10, 0.001], ['a', 'M1', 'g2', 0.30, 0.002], ['a', 'M2', 'g1', 0.50, 0.001], ['a', 'M2', 'g2', 0.20, 0.003],
  ['b', 'M1', 'g1', 0.15, 0.004], ['b', 'M1', 'g2', 0.25, 0.002], ['b', 'M2', 'g1', 0.45, 0.002], ['b', 'M2', 'g2', 0.05, 0.001],
].map(([study, model, game, yi, vi]) => ({ study, model, game, yi, vi, moderators: {} }) as EffectRow);
const a = meta.analyze(EFFECTS, settings);
const [forest, funnel] = meta.figures(a);
const layerValues = (f: Figure, i: number): Row[] => (f.spec as { layer: { data?: { values: Row[] } }[] }).layer[i].data!.values;

describe('meta-analysis figures', () => {
  it('the forest plot: every cell with its Wald interval, then the pooled rows and the prediction interval (no three-level row from 2 studies)', () => {
    const rows = (forest.spec as { data: { values: Row[] } }).data.values;
    expect(rows.map((r) => r.label)).toEqual([
      ...EFFECTS.map((e) => `${e.study} · ${e.model} · ${e.game}`),
      'model: M1 (pooled, k = 4)', 'model: M2 (pooled, k = 4)', 'study: a (pooled, k = 4)', 'study: b (pooled, k = 4)', 'overall (pooled, k = 8)',
      'prediction interval',
    ]);
    expect(rows[0].lo).toBeCloseTo(0.1 - 1.959963984540054 * Math.sqrt(0.001), 12);
    // Two studies: the three-level model has no interval, so no row; the prediction interval is the overall row's.
    expect(a.multilevel!.ci_lo).toBeNaN();
    expect(rows.at(-1)!.lo).toBe(a.pooled.find((p) => p.scope === 'overall')!.pi_lo);
    expect(rows.map((r) => r.kind).filter((k) => k === 'Pooled')).toHaveLength(5);
  });

  it('the funnel plot: each cell at (yi, √vi), the pooled estimate and its ± 1.96·se lines', () => {
    expect(layerValues(funnel, 2).map((p) => [p.yi, p.se])).toEqual(EFFECTS.map((e) => [e.yi, Math.sqrt(e.vi)]));
    expect(layerValues(funnel, 1)[0].x).toBe(a.multilevel!.estimate);
    const lines = layerValues(funnel, 0);
    expect(lines.filter((p) => p.se === 0).map((p) => p.x)).toEqual([a.multilevel!.estimate, a.multilevel!.estimate]);
  });

  it('a study that repeats another: its points are not hidden (rings, "×2" labels) and a note says the effects are identical', () => {
    const copy = EFFECTS.filter((e) => e.study === 'a').map((e) => ({ ...e, study: 'a-again' }));
    const twice = meta.analyze([...EFFECTS, ...copy], settings);
    expect(twice.notes.filter((n) => n.includes('identical'))).toEqual([
      'studies "a" and "a-again" give identical effects in all 4 of their cells: they may be one study\'s data read twice, and both enter the overall estimate (in the funnel plot their points coincide)',
    ]);
    expect(a.notes.some((n) => n.includes('identical'))).toBe(false);
    const f = meta.figures(twice)[1];
    const points = layerValues(f, 2);
    const first = points.filter((p) => p.study === 'a'), again = points.filter((p) => p.study === 'a-again');
    for (const [i, p] of first.entries()) expect(p.size as number).toBeGreaterThan(again[i].size as number);
    expect(points.filter((p) => p.study === 'b').every((p) => p.size === 36)).toBe(true);
    expect(layerValues(f, 3).map((l) => [l.yi, l.text, l.studies])).toEqual(copy.map((e) => [e.yi, '×2', 'a, a-again']));
    expect(f.caption).toMatch(/"×n" beside a point counts the cells/);
    expect(funnel.caption).not.toMatch(/×n/);
  });

  it('beyond 300 cells the forest plot draws only the pooled rows', () => {
    const many = Array.from({ length: 301 }, (_, i) => ({ ...EFFECTS[i % 8], game: `g${i}` }));
    const rows = (meta.figures(meta.analyze(many, settings))[0].spec as { data: { values: Row[] } }).data.values;
    expect(rows.every((r) => r.kind !== 'Cell')).toBe(true);
  });

  it('compile without a vega-lite warning and render', async () => {
    for (const f of [forest, funnel]) {
      expect(vegaLiteWarnings(f.spec), f.id).toEqual([]);
      const warnings: string[] = [];
      expect(await renderSvg(f.spec, warnings)).toMatch(/^<svg/);
      expect(warnings).toEqual([]);
    }
  });

  it.each([forest, funnel].map((f) => [f.id, f] as const))('spec snapshot %s (floats rounded)', async (id, f) => {
    await expect(roundFloats(specJson(f))).toMatchFileSnapshot(`__snapshots__/figures/${id}.vl.json`);
  });
});
