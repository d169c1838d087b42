import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { reproductionFigure, reproductionPoints, reproductionSection } from '../../src/analyses/reproduction/index.js';
import { renderReportHtml } from '../../src/render/html.js';
import { reproductionChart } from '../../src/render/charts/reproduction.js';
import { loadVega } from '../../src/render/vega-runtime.js';
import { renderSvg, specJson } from '../../src/render/render.js';
import { FONT_STACK } from '../../src/render/figure.js';
import { roundFloats } from './round-floats.js';

type Row = Record<string, unknown>;

describe('the reproduction figure of the shipped data', () => {
  const rep = reproduceTables({}).reproduction!;
  const fig = reproductionFigure(rep);
  const points = (fig.spec as unknown as { layer: { data: { values: Row[] } }[] }).layer[1].data.values;

  it('one point per published number, at computed − published in half-units of its last digit, with its band', () => {
    expect(fig.id).toBe('reproduction');
    expect(points).toHaveLength(84);
    const hi = points.find((p) => p.statistic === 'Table 3 shift_hi' && p.model === 'Pooled')!;
    // 0.31675 − 0.316 = 0.00075 = 1.5 half-units of 0.001.
    expect(hi.x as number).toBeCloseTo(1.5, 9);
    // Its accepted published values p ∈ [Q̂(q − δ) − h, Q̂(q + δ) + h], as x = (computed − p)/h.
    const [lo, up] = rep.rows.find((r) => r.model === 'Pooled' && r.statistic === 'shift_hi')!.band!;
    expect(hi.bandLo as number).toBeCloseTo((0.31675 - up) / 0.0005 - 1, 9);
    expect(hi.bandHi as number).toBeCloseTo((0.31675 - lo) / 0.0005 + 1, 9);
    expect(hi.bandLo as number).toBeLessThan(-1);
    expect(hi.bandHi as number).toBeGreaterThan(1.5); // the published 0.316 lies inside: within-mc
    const count = points.find((p) => p.statistic === 'Table 2 base_count' && p.item === "GPT-3.5 / Prisoner's Dilemma")!;
    expect([count.x, count.bandLo, count.bandHi, count.published]).toEqual([0, -1, 1, '26']);
    expect(new Set(points.map((p) => p.statistic))).toEqual(new Set([
      'Table 2 base_rate', 'Table 2 base_count', 'Table 2 alt_rate', 'Table 2 alt_count', 'Table 2 difference',
      'Table 3 R', 'Table 3 R_lo', 'Table 3 R_hi', 'Table 3 shift', 'Table 3 shift_lo', 'Table 3 shift_hi',
    ]));
    expect((fig.spec as { config: { font: string } }).config.font).toBe(FONT_STACK);
  });

  it('labels each point by its row (table, statistic, model, game), one row per number; colours a verdict as the report\'s table does', () => {
    const rows = points.map((p) => p.row as string);
    expect(new Set(rows).size).toBe(84);
    expect(rows).toContain("Table 2 base_count — GPT-3.5 / Prisoner's Dilemma");
    expect(rows).toContain('Table 3 shift_hi — Pooled');
    const layer = (fig.spec as unknown as { layer: { layer: { encoding: { color?: { scale: { domain: string[]; range: string[] } } } }[] }[] }).layer[1].layer;
    const scale = layer.find((l) => l.encoding.color)!.encoding.color!.scale;
    const html = renderReportHtml({ title: 't', sections: [] });
    scale.domain.forEach((v, i) => expect(html).toContain(`td.v-${v} { color: ${scale.range[i]};`));
    expect(new Set(scale.range).size).toBe(4);
  });

  it('the report writes Computed at one number of decimals per statistic', () => {
    type Shown = { rows: { text?: string }[][]; folded: { rows: { text?: string }[][] } };
    const table = reproductionSection(rep).blocks.find((b) => b.kind === 'table')! as unknown as Shown;
    const computed = new Map<string, Set<number>>();
    for (const r of [...table.rows, ...table.folded.rows]) {
      const text = (r[5] as { text: string }).text, key = `${r[0]} ${r[3]}`;
      computed.set(key, (computed.get(key) ?? new Set()).add(text.includes('.') ? text.split('.')[1].length : 0));
    }
    for (const [k, d] of computed) expect([...d], k).toHaveLength(1);
    expect([...computed.get('Table 2 base_rate')!]).toEqual([5]); // published at 3 decimals: 0.08667, 1.00000
    expect([...computed.get('Table 2 base_count')!]).toEqual([0]);
  });

  it('missing numbers are left out of the figure (the table lists them)', () => {
    const withMissing = { ...rep, rows: [...rep.rows, { ...rep.rows[0], model: 'GPT-5', verdict: 'missing' as const, computed: NaN, difference: NaN, tolerance: NaN }] };
    expect(reproductionPoints(withMissing)).toHaveLength(84);
  });

  it('compiles with vega-lite without a warning and renders', async () => {
    const { vegaLite } = loadVega();
    const warnings: string[] = [];
    const logger = { level() { return logger; }, warn: (...a: unknown[]) => { warnings.push(a.join(' ')); return logger; }, error: (...a: unknown[]) => { warnings.push(a.join(' ')); return logger; }, info() { return logger; }, debug() { return logger; } };
    vegaLite.compile(fig.spec, { logger: logger as never });
    expect(warnings).toEqual([]);
    const svgWarnings: string[] = [];
    const svg = await renderSvg(fig.spec, svgWarnings);
    expect(svgWarnings).toEqual([]);
    await expect(roundFloats(svg)).toMatchFileSnapshot('__snapshots__/figures/reproduction.svg');
  });

  it('spec snapshot (floats rounded)', async () => {
    await expect(roundFloats(specJson(fig))).toMatchFileSnapshot('__snapshots__/figures/reproduction.vl.json');
  });

  it('the chart builder takes plain rows: an empty list is a valid (empty) figure', () => {
    const f = reproductionChart([], { rows: [], verdicts: ['exact'], subtitle: 'none' });
    expect((f.spec as unknown as { layer: { data: { values: Row[] } }[] }).layer[1].data.values).toEqual([]);
  });
});
