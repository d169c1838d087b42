import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { twoFramingFigures, replicatesOf } from '../../src/analyses/two-framing/figures.js';
import { assertUniqueIds, defineFigure, FONT_STACK, type Figure } from '../../src/render/figure.js';
import { histogram } from '../../src/render/charts/histogram.js';
import { vegaLiteWarnings } from '../helpers/vega-warnings.js';
import { specJson } from '../../src/render/render.js';
import { stat } from '../../src/core/names.js';
import { roundFloats } from './round-floats.js';

type Row = Record<string, unknown>;
const values = (f: Figure): Row[] => (f.spec as { data: { values: Row[] } }).data.values;

// Same Game, Different Story Table 2, transcribed from the paper (straight apostrophes, as in the data file).
const TABLE2: [string, string, number, number, number, number][] = [
  ['GPT-3.5', "Prisoner's Dilemma", 0.087, 26, 0.323, 97],
  ['GPT-3.5', 'Snowdrift / Chicken', 0.130, 39, 0.340, 102],
  ['GPT-3.5', 'Stag Hunt', 0.167, 50, 0.337, 101],
  ['GPT-3.5', "Prisoner's Delight / Harmony", 0.190, 57, 0.433, 130],
  ['GPT-4', "Prisoner's Dilemma", 0.000, 0, 0.987, 296],
  ['GPT-4', 'Snowdrift / Chicken', 0.000, 0, 0.990, 297],
  ['GPT-4', 'Stag Hunt', 0.817, 245, 0.997, 299],
  ['GPT-4', "Prisoner's Delight / Harmony", 1.000, 300, 1.000, 300],
  ['LLaMa-2', "Prisoner's Dilemma", 0.033, 10, 0.913, 274],
  ['LLaMa-2', 'Snowdrift / Chicken', 0.140, 42, 0.930, 279],
  ['LLaMa-2', 'Stag Hunt', 0.567, 170, 1.000, 300],
  ['LLaMa-2', "Prisoner's Delight / Harmony", 0.860, 258, 1.000, 300],
];
// Same Game, Different Story Table 3: R, R_lo, R_hi, shift, shift_lo, shift_hi (conservative, a = 0.70).
const TABLE3: Record<string, number[]> = {
  'GPT-3.5': [0.967, 0.956, 0.975, 0.150, 0.127, 0.173],
  'GPT-4': [0.651, 0.639, 0.661, 0.377, 0.369, 0.386],
  'LLaMa-2': [0.731, 0.710, 0.750, 0.393, 0.377, 0.408],
  Pooled: [0.783, 0.774, 0.790, 0.307, 0.297, 0.316],
};

/** Independent reference: binary entropy in nats and R2 = 1 − JSD/ln 2 (Same Game, Different Story §3.3). */
const H = (p: number) => (p <= 0 || p >= 1 ? 0 : -p * Math.log(p) - (1 - p) * Math.log(1 - p));
const r2 = (p: number, q: number) => 1 - (H((p + q) / 2) - (H(p) + H(q)) / 2) / Math.LN2;

describe('two-framing figures of the shipped data', () => {
  const res = reproduceTables({});
  const figs = twoFramingFigures(res.analysis);
  const byId = Object.fromEntries(figs.map((f) => [f.id, f]));

  it('are the four figures of the issue, in report order, in the house style', () => {
    expect(figs.map((f) => f.id)).toEqual(['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled']);
    for (const f of figs) {
      expect(f.spec).toMatchObject({ $schema: 'https://vega.github.io/schema/vega-lite/v6.json', background: 'white' });
      expect((f.spec as { config: { font: string } }).config.font).toBe(FONT_STACK);
      expect(f.title.length).toBeGreaterThan(0);
    }
  });

  it('dumbbell: one point per Table 2 cell, with the paper\'s rates and counts', () => {
    const pts = values(byId['table2-dumbbell']);
    expect(pts).toHaveLength(24);
    for (const [model, game, br, bc, ar, ac] of TABLE2) {
      const b = pts.find((p) => p.model === model && p.game === game && p.framing === 'business')!;
      const s = pts.find((p) => p.model === model && p.game === game && p.framing === 'friend-sharing')!;
      expect([b.count, b.n, (b.rate as number).toFixed(3)]).toEqual([bc, 300, br.toFixed(3)]);
      expect([s.count, s.n, (s.rate as number).toFixed(3)]).toEqual([ac, 300, ar.toFixed(3)]);
    }
  });

  it('forest: R and shift per model and pooled match Table 3 (points to 3 decimals, ends within 0.003)', () => {
    const rows = values(byId['table3-forest']);
    expect(rows).toHaveLength(8);
    for (const [model, t] of Object.entries(TABLE3)) {
      const [R, S] = [rows.find((r) => r.model === model && String(r.statistic).startsWith('R '))!,
        rows.find((r) => r.model === model && String(r.statistic).startsWith('Action shift'))!];
      expect((R.estimate as number).toFixed(3)).toBe(t[0].toFixed(3));
      expect((S.estimate as number).toFixed(3)).toBe(t[3].toFixed(3));
      const ends = [[R.lo, t[1]], [R.hi, t[2]], [S.lo, t[4]], [S.hi, t[5]]] as [number, number][];
      for (const [got, want] of ends) expect(Math.abs(got - want)).toBeLessThanOrEqual(0.003 + 1e-12);
      expect(R.group).toBe(model === 'Pooled' ? 'Pooled' : 'Model');
    }
  });

  it('cell R2: raw values equal 1 − JSD/ln 2 of the Table 2 counts; conservative = 1 − 0.7·(1 − R2)', () => {
    const rows = values(byId['cell-r2']);
    expect(rows).toHaveLength(24);
    for (const [model, game, , bc, , ac] of TABLE2) {
      const want = r2(bc / 300, ac / 300);
      const raw = rows.find((r) => r.model === model && r.game === game && r.version === 'raw')!;
      const con = rows.find((r) => r.model === model && r.game === game && r.version !== 'raw')!;
      expect(raw.estimate as number).toBeCloseTo(want, 12);
      expect(con.estimate as number).toBeCloseTo(1 - 0.7 * (1 - want), 12);
      expect(raw.lo as number).toBeLessThanOrEqual(raw.estimate as number);
      expect(raw.hi as number).toBeGreaterThanOrEqual(raw.estimate as number);
    }
    // GPT-4 Harmony: 300/300 under both framings, identical distributions → R2 = 1 exactly.
    expect(rows.filter((r) => r.model === 'GPT-4' && r.game === "Prisoner's Delight / Harmony").map((r) => r.estimate)).toEqual([1, 1]);
  });

  it('bootstrap: the histograms hold every replicate and mark the Table 3 pooled interval', () => {
    const panels = (byId['bootstrap-pooled'].spec as unknown as { hconcat: { layer: { data: { values: Row[] } }[] }[] }).hconcat;
    expect(panels).toHaveLength(2);
    panels.forEach((p, i) => {
      const bins = p.layer[0].data.values;
      expect(bins.reduce((s, b) => s + (b.count as number), 0)).toBe(10_000);
      const marks = [...p.layer[1].data.values, ...p.layer[2].data.values];
      const byKind = Object.fromEntries(marks.map((m) => [m.kind, m.value as number]));
      const t = TABLE3.Pooled.slice(3 * i, 3 * i + 3);
      expect(byKind.estimate.toFixed(3)).toBe(t[0].toFixed(3));
      expect(Math.abs(byKind['2.5 %'] - t[1])).toBeLessThanOrEqual(0.003);
      expect(Math.abs(byKind['97.5 %'] - t[2])).toBeLessThanOrEqual(0.003);
    });
    // The replicates are the bootstrap's, statistic-major.
    const rep = replicatesOf(res.analysis, stat('R', 'Pooled'));
    expect(rep).toHaveLength(10_000);
  });

  it('every spec compiles with vega-lite without a warning', () => {
    for (const f of figs) expect(vegaLiteWarnings(f.spec), f.id).toEqual([]);
  });

  it.each(['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled'])('spec snapshot %s (floats rounded)', async (id) => {
    await expect(roundFloats(specJson(byId[id]))).toMatchFileSnapshot(`__snapshots__/figures/${id}.vl.json`);
  });
});

describe('histogram', () => {
  it('equal-width bins from min to max, last bin closed', () => {
    // min 0, max 4, width 2: [0, 2) holds 0 and 1; [2, 4] holds 2, 3 and 4.
    expect(histogram([0, 1, 2, 3, 4], 2)).toEqual([{ start: 0, end: 2, count: 2 }, { start: 2, end: 4, count: 3 }]);
  });
  it('skips NaN and infinities', () => {
    expect(histogram([NaN, 1, Infinity, 3], 1)).toEqual([{ start: 1, end: 3, count: 2 }]);
  });
  it('all values equal: one bin of zero width', () => {
    expect(histogram([0.5, 0.5, 0.5], 10)).toEqual([{ start: 0.5, end: 0.5, count: 3 }]);
  });
  it('no finite value: no bins', () => {
    expect(histogram([], 5)).toEqual([]);
    expect(histogram([NaN], 5)).toEqual([]);
  });
  it('bins must be a positive integer', () => {
    expect(() => histogram([1], 0)).toThrow(RangeError);
    expect(() => histogram([1], 1.5)).toThrow(RangeError);
  });
});

describe('defineFigure', () => {
  const unit = { data: { values: [] }, mark: 'point' } as const;
  it('refuses ids that are not lowercase words joined by dashes (they become file names)', () => {
    for (const id of ['Table2', 'a b', '../x', 'a--b', '']) expect(() => defineFigure(id, 't', 'c', unit)).toThrow(RangeError);
    expect(defineFigure('audit-tipping-points', 't', 'c', unit).id).toBe('audit-tipping-points');
  });
  it('a figure\'s own config section is merged over the house one', () => {
    const f = defineFigure('x', 't', 'c', { ...unit, config: { axis: { labelFontSize: 20 } } });
    expect((f.spec as unknown as { config: { axis: Row } }).config.axis).toMatchObject({ labelFontSize: 20, titleFontSize: 12, labelLimit: 360 });
  });
  it('two figures with one id are refused (they would overwrite one file)', () => {
    const a = defineFigure('x', 't', 'c', unit);
    expect(() => assertUniqueIds([a, a])).toThrow(/share the id x/);
  });
});
