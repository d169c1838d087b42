import { describe, expect, it } from 'vitest';
import { meta, type EffectRow } from '../../../src/analyses/meta/index.js';
import { META_DEFAULTS } from '../../../src/stats/meta/univariate.js';
import { forestDomain, type MetaForestRow } from '../../../src/render/charts/meta.js';
import { renderSvg } from '../../../src/render/render.js';
import type { Figure } from '../../../src/render/figure.js';

/**
 * The forest plot's axis is set as metafor's forest() sets it (R/forest.rma.r: alim is the pretty
 * range of the studies' intervals; a prediction interval beyond it is drawn to the limit with an
 * arrow polygon there, an end inside it with a short vertical segment): here the cells' intervals
 * and the zero line, widened to round numbers; a pooled or prediction interval beyond it is cut
 * with an arrow, and the caption names it.
 */
type Row = Record<string, unknown>;
const settings = { ...META_DEFAULTS, effect: 'shift' as const, moderators: [] };
const effects = (rows: [string, string, number, number][]): EffectRow[] =>
  rows.map(([study, game, yi, vi]) => ({ study, model: 'M1', game, yi, vi, moderators: {} }) as EffectRow);
const row = (label: string, kind: MetaForestRow['kind'], estimate: number, lo: number, hi: number): MetaForestRow => ({ label, kind, estimate, lo, hi });
const layers = (f: Figure) => (f.spec as unknown as { layer: { mark: { type: string; shape?: string }; data?: { values: Row[] } }[] }).layer;
const data = (f: Figure) => (f.spec as unknown as { data: { values: Row[] } }).data.values;

describe('the forest plot\'s axis', () => {
  it('spans the cells\' intervals and 0, to round numbers, whatever the prediction interval (hand: steps of 0.2 and 0.1)', () => {
    const cells = [row('c1', 'Cell', 0.1, -0.09, 0.29), row('c2', 'Cell', 0.7, 0.65, 0.75)];
    expect(forestDomain([...cells, row('pi', 'Prediction interval', 0.3, -0.151, 0.798)])).toEqual([-0.2, 0.8]);
    expect(forestDomain([...cells, row('pi', 'Prediction interval', 0.3, -3, 4)])).toEqual([-0.2, 0.8]);
    expect(forestDomain([row('c', 'Cell', 0.3, 0.038, 0.62), row('pi', 'Prediction interval', 0.3, -0.35, 0.97)])).toEqual([0, 0.7]);
    // No cell drawn (over 300): the pooled rows' intervals.
    expect(forestDomain([row('p', 'Pooled', 0.3, 0.12, 0.51), row('pi', 'Prediction interval', 0.3, -0.35, 0.97)])).toEqual([0, 0.6]);
  });

  // Three studies far apart (0.12, 0.53, 0.28; within-study variance 0.001): k = 2 per study, so the
  // per-study Hartung–Knapp intervals (variance factor at least 1) of a, b and c, the three-level interval
  // (t with 3 − 1 df) and its prediction interval run past the cells.
  const wide = meta.analyze(effects([['a', 'g1', 0.10, 0.001], ['a', 'g2', 0.14, 0.001], ['b', 'g1', 0.50, 0.001], ['b', 'g2', 0.56, 0.001], ['c', 'g1', 0.30, 0.001], ['c', 'g2', 0.26, 0.001]]), settings);
  const forest = meta.figures(wide)[0];

  it('a prediction interval wider than the axis is cut at its edges with an arrow pointing out; its true ends stay in the row', () => {
    const pi = data(forest).find((r) => r.kind === 'Prediction interval')!;
    expect(pi.lo).toBe(wide.multilevel!.pi_lo);
    expect(pi.hi).toBe(wide.multilevel!.pi_hi);
    expect([wide.multilevel!.pi_lo < 0, wide.multilevel!.pi_hi > 0.7]).toEqual([true, true]);
    expect([pi.x_lo, pi.x_hi]).toEqual([0, 0.7]);
    const arrows = layers(forest).filter((l) => l.mark.type === 'point' && l.mark.shape?.startsWith('triangle-'));
    expect(arrows.map((l) => [l.mark.shape, l.data!.values.map((v) => [v.label, v.x])])).toEqual([
      ['triangle-left', [['study: a (pooled, k = 2)', 0], ['study: c (pooled, k = 2)', 0], ['overall, three-level (k = 6, 3 studies)', 0],
        ['prediction interval (three-level)', 0]]],
      ['triangle-right', [['study: b (pooled, k = 2)', 0.7], ['overall, three-level (k = 6, 3 studies)', 0.7],
        ['prediction interval (three-level)', 0.7]]],
    ]);
    for (const c of data(forest).filter((r) => r.kind === 'Cell')) expect([c.x_lo, c.x_hi]).toEqual([c.lo, c.hi]);
    expect(forest.caption).toContain('The axis spans the cells\' intervals; intervals run beyond it (study: a (pooled, k = 2); study: b (pooled, k = 2); '
      + 'study: c (pooled, k = 2); overall, three-level (k = 6, 3 studies); prediction interval (three-level)), cut at the edge with an arrow');
  });

  it('draws inside the plot: no interval line beyond the axis', async () => {
    const svg = await renderSvg(forest.spec);
    const width = 360;
    // The rule marks of the layers (not the axes' ticks): each line's x and x + x2 within the plot.
    const marks = [...svg.matchAll(/<g class="mark-rule role-mark[^"]*"[^>]*>([\s\S]*?)<\/g>/g)].map((m) => m[1]).join('');
    const lines = [...marks.matchAll(/<line [^>]*transform="translate\(([-\d.]+),[-\d.]+\)"[^>]*x2="([-\d.]+)"/g)].map((m) => [Number(m[1]), Number(m[1]) + Number(m[2])]);
    expect(lines.length).toBe(1 + data(forest).length); // the zero line (once) and one per row
    for (const [a, b] of lines) for (const x of [a, b]) { expect(x).toBeGreaterThanOrEqual(-1e-6); expect(x).toBeLessThanOrEqual(width + 1e-6); }
  });

  it('a prediction interval inside the axis ends in caps, not arrows', () => {
    // Five cells close together (0.2 … 0.35, variance 0.01): the prediction interval lies within the cells' intervals.
    const narrow = meta.analyze(effects([['a', 'g1', 0.2, 0.01], ['a', 'g2', 0.3, 0.01], ['b', 'g1', 0.25, 0.01], ['b', 'g2', 0.35, 0.01], ['c', 'g1', 0.28, 0.01]]), settings);
    const f = meta.figures(narrow)[0];
    const pi = data(f).find((r) => r.kind === 'Prediction interval')!;
    const [a, b] = forestDomain(data(f) as unknown as MetaForestRow[]);
    expect(a <= (pi.lo as number) && (pi.hi as number) <= b).toBe(true);
    const caps = layers(f).find((l) => l.mark.type === 'tick')!;
    expect(caps.data!.values.map((v) => v.x)).toEqual([pi.lo, pi.hi]);
    const arrows = layers(f).filter((l) => l.mark.shape?.startsWith('triangle-')).flatMap((l) => l.data!.values);
    expect(arrows.filter((v) => v.kind === 'Prediction interval')).toEqual([]);
    expect(f.caption).not.toContain('prediction interval (three-level)), cut');
  });
});

describe('the forest plot\'s tick labels and edges', () => {
  /** The x-axis labels of the rendered SVG: text and centre. */
  const tickLabels = (svg: string) => [...(svg.match(/<g class="mark-text role-axis-label"[\s\S]*?<\/g>/)?.[0] ?? '')
    .matchAll(/translate\(([-\d.]+),[-\d.]+\)"[^>]*>([^<]*)</g)].map((m) => ({ x: Number(m[1]), text: m[2] }));
  // DejaVu Sans at 11 px: digits, the point and the minus sign are at most 0.64 em wide.
  const halfWidth = (t: string) => (t.length * 11 * 0.64) / 2;
  const tables: [string, [string, string, number, number][]][] = [
    ['−0.2 to 0.8 (steps of 0.1 would crowd)', [['a', 'g1', -0.15, 0.002], ['a', 'g2', 0.1, 0.002], ['b', 'g1', 0.5, 0.002], ['b', 'g2', 0.72, 0.002],
      ['c', 'g1', 0.3, 0.002], ['c', 'g2', 0.05, 0.002]]],
    ['three studies far apart (a cut prediction interval)', [['a', 'g1', 0.10, 0.001], ['a', 'g2', 0.14, 0.001], ['b', 'g1', 0.50, 0.001],
      ['b', 'g2', 0.56, 0.001], ['c', 'g1', 0.30, 0.001], ['c', 'g2', 0.26, 0.001]]],
  ];

  it.each(tables)('%s: labels apart by their widths, inside the plot; the prediction interval ends clear of the edges', async (_, rows) => {
    const f = meta.figures(meta.analyze(effects(rows), settings))[0];
    const svg = await renderSvg(f.spec);
    const labels = tickLabels(svg);
    expect(labels.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < labels.length; i++) {
      const gap = labels[i].x - labels[i - 1].x - halfWidth(labels[i].text) - halfWidth(labels[i - 1].text);
      expect(gap, `${labels[i - 1].text} / ${labels[i].text}`).toBeGreaterThan(2);
    }
    const pi = data(f).find((r) => r.kind === 'Prediction interval')!;
    const scale = (f.spec as unknown as { layer: { encoding?: { x?: { scale?: { domain: number[] } } } }[] }).layer[0].encoding!.x!.scale!.domain;
    const width = scale[1] - scale[0];
    // the bar (and an arrow at its cut) keeps at least 3 % of the axis from either edge
    expect((pi.x_lo as number) - scale[0]).toBeGreaterThanOrEqual(0.03 * width);
    expect(scale[1] - (pi.x_hi as number)).toBeGreaterThanOrEqual(0.03 * width);
  });
});
