import { describe, expect, it } from 'vitest';
import { attenuationFigure, sweepPoints, tippingFigure, type TippingBar } from '../../src/analyses/audit/figures.js';
import type { SweepRow } from '../../src/analyses/audit/attenuation.js';
import { selectivePlaneFigure, type PlaneRow } from '../../src/analyses/selective/figure.js';
import { publishedPlane } from '../../src/analyses/selective/analysis.js';
import { compareFigure } from '../../src/analyses/compare/figure.js';
import type { CompareRow } from '../../src/analyses/compare/compare.js';
import { COLORS, type Figure } from '../../src/render/figure.js';
import { coverageFigure } from '../../src/analyses/coverage/figure.js';
import type { CoverageResult } from '../../src/analyses/coverage/coverage.js';
import { vegaLiteWarnings } from '../helpers/vega-warnings.js';
import { renderSvg, specJson } from '../../src/render/render.js';
import { roundFloats } from '../render/round-floats.js';

/**
 * Spec snapshots of the figure builders outside the two-framing four (those are in
 * test/render/figures.test.ts): the audit's attenuation sweep and tipping points, the compare
 * figure, the selective-robustness plane of a run and of the published table, the coverage figure. Inputs are written
 * by hand, so each snapshot depends on its builder only; the data rows are checked against them.
 */
type Row = Record<string, unknown>;
const values = (f: Figure): Row[] => (f.spec as { data: { values: Row[] } }).data.values;
const iv = (point: number, half: number) => ({ point, lo: point - half, hi: point + half });

// Conservative R_c = 1 − a(1 − R2) and shift_c = a·Δ for R2 = 0.8, Δ = 0.3 (model A) and 0.9, 0.1 (Pooled).
const SWEEP: SweepRow[] = [0.5, 0.7, 1].flatMap((a) => [
  { attenuation: a, marks: a === 0.7 ? ['default'] : [], group: 'A', values: { R: iv(1 - a * 0.2, 0.01), shift: iv(a * 0.3, 0.02) } },
  { attenuation: a, marks: a === 0.7 ? ['default'] : [], group: 'Pooled', values: { R: iv(1 - a * 0.1, 0.01), shift: iv(a * 0.1, 0.02) } },
] as SweepRow[]);
const BARS: TippingBar[] = [
  { conclusion: 'pooled action-shift interval excludes 0', changes: 1515, budget: 24, method: 'upper bound (search)' },
  { conclusion: 'ordering of the models by R', changes: 47, budget: 24, method: 'exact minimum' },
];
const COMPARE: CompareRow[] = [
  { model: 'Sim-A', game: 'prisoners-dilemma', framing: 'business', direct_rate: 0.1, direct_n: 50, reconstructed_rate: 0, reconstructed_n: 300, difference: 0.1, diff_lo: 0.04, diff_hi: 0.18 },
  { model: 'Sim-A', game: 'prisoners-dilemma', framing: 'friend-sharing', direct_rate: 0.36, direct_n: 50, reconstructed_rate: 0.987, reconstructed_n: 300, difference: -0.627, diff_lo: -0.76, diff_hi: -0.49 },
];
const PLANE: PlaneRow[] = [
  { source: 'This run: pilot (synthetic)', model: 'Sim-Sol', condition: 'minimal', ss: 0.28, ssLo: 0.25, ssHi: 0.31, wr: 0.34, wrLo: 0.3, wrHi: 0.38, verdict: 'surface-sensitive' },
  { source: 'This run: pilot (synthetic)', model: 'Sim-Sol', condition: 'normative-grounding', ss: 0.02, ssLo: 0.01, ssHi: 0.03, wr: 0.92, wrLo: 0.9, wrHi: 0.93, verdict: 'selectively robust' },
];
// Coverage 0.944 of 500 simulations: mc_se = √(0.944 · 0.056 / 500) = 0.01028 (hand computed); its 95 %
// Clopper–Pearson interval on 472 of 500 [0.9200786993956399, 0.9624695555249778] (scipy, test/reference/clopper_pearson.json).
const COVERAGE: CoverageResult = {
  settings: { seed: 1, reps: 999, attenuation: 1, base: 'business', alt: 'friend-sharing', sims: 500, methods: ['percentile', 'bca'], truth: 'observed', level: 0.95 },
  rows: (['percentile', 'bca'] as const).map((method) => ({ statistic: 'shift[Pooled]', method, nominal: 0.95, coverage: 0.944, mc_se: 0.01028, mean_width: 0.109, truth: 0.05, coverage_lo: 0.9200786993956399, coverage_hi: 0.9624695555249778 })),
  truthRates: [0.5, 0.55],
  icc: 0,
};

const figures: Figure[] = [
  attenuationFigure(sweepPoints(SWEEP), ['A', 'Pooled'], '95 % percentile-bootstrap intervals'),
  tippingFigure(BARS, 1),
  compareFigure(COMPARE, 'B = 500 bootstrap replicates, seed 1'),
  selectivePlaneFigure(PLANE, { subtitle: 'regional − local; 95 % intervals', conditions: ['minimal', 'normative-grounding'] }),
  publishedPlane(),
  coverageFigure(COVERAGE),
];
const byId = Object.fromEntries(figures.map((f) => [f.id, f]));

describe('figure builders of the audit, compare and selective analyses', () => {
  it('carry their input rows: two statistics per sweep row, one bar per conclusion, one row per cell or group', () => {
    const sweep = values(byId['audit-attenuation']);
    expect(sweep).toHaveLength(2 * SWEEP.length);
    expect(sweep.find((p) => p.group === 'A' && p.attenuation === 0.5 && String(p.statistic).startsWith('R'))!.estimate).toBeCloseTo(0.9, 12);
    expect(values(byId['audit-tipping-points']).map((b) => [b.conclusion, b.changes, b.budget])).toEqual(BARS.map((b) => [b.conclusion, b.changes, b.budget]));
    expect(values(byId['compare-direct-reconstructed']).map((r) => r.cell)).toEqual(['Sim-A · prisoners-dilemma · business', 'Sim-A · prisoners-dilemma · friend-sharing']);
  });

  it('the coverage figure carries coverage and its Monte Carlo interval per statistic and method', () => {
    const pts = (byId['coverage'].spec as { layer: { data: { values: Row[] } }[] }).layer[1].data.values;
    expect(pts.map((p) => p.method)).toEqual(['percentile', 'bca']);
    expect(pts[0].lo).toBe(0.9200786993956399);
    expect(pts[0].hi).toBe(0.9624695555249778);
  });

  it('the published plane holds the published table: 2 models × 5 conditions', () => {
    const rows = JSON.stringify(byId['selective-plane-published'].spec);
    for (const c of ['minimal', 'neutral-padding', 'generic-social', 'descriptive-grounding', 'normative-grounding']) expect(rows).toContain(c);
  });

  it('draws each reference rule and its label once per panel, not once per data row', async () => {
    const count = (svg: string, re: RegExp) => (svg.match(re) ?? []).length;
    // The sweep has 6 rows per panel (3 attenuations × 2 groups) and 2 panels: 2 rules and 2 labels each.
    const sweep = await renderSvg(byId['audit-attenuation'].spec);
    expect(count(sweep, new RegExp(`fill="${COLORS.accent}">0\\.70<`, 'g'))).toBe(2);
    expect(count(sweep, /\(Camerer\)</g)).toBe(2);
    // The compare figure has 2 rows and one panel: one dashed zero line.
    expect(count(await renderSvg(byId['compare-direct-reconstructed'].spec), /stroke-dasharray="4,3"/g)).toBe(1);
    // The plane has 2 rows in one panel: one dashed threshold rule.
    expect(count(await renderSvg(byId['selective-plane'].spec), /stroke-dasharray="5,4"/g)).toBe(1);
  });

  it('the sweep of 30 models and Pooled lists every group in its legend, in rows of 8, without a warning', async () => {
    const groups = [...Array.from({ length: 30 }, (_, i) => `M${String(i + 1).padStart(2, '0')}`), 'Pooled'];
    const rows = groups.map((group) => ({ attenuation: 0.7, marks: ['default'], group, values: { R: iv(0.9, 0.01), shift: iv(0.2, 0.02) } })) as SweepRow[];
    const warnings: string[] = [];
    const svg = await renderSvg(attenuationFigure(sweepPoints(rows), groups, '95 % percentile-bootstrap intervals').spec, warnings);
    expect(warnings).toEqual([]);
    const labels = [...svg.matchAll(/role-legend-label[\s\S]*?<\/g>/g)].flatMap((m) => [...m[0].matchAll(/>([^<]+)<\/text>/g)].map((t) => t[1]));
    expect(labels).toEqual(groups);
    // In rows of 8 the legend is no wider than the two panels (in one row of 31 it made the figure 1,635 px wide).
    expect(Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)![1])).toBeLessThan(800);
  });

  it('every spec compiles with vega-lite without a warning', () => {
    for (const f of figures) expect(vegaLiteWarnings(f.spec), f.id).toEqual([]);
  });

  it.each(figures.map((f) => f.id))('spec snapshot %s (floats rounded)', async (id) => {
    await expect(roundFloats(specJson(byId[id]))).toMatchFileSnapshot(`__snapshots__/figures/${id}.vl.json`);
  });
});
