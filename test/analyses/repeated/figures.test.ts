import { describe, expect, it } from 'vitest';
import { reactionsChart, roundsChart, type ReactionPoint, type RoundPoint } from '../../../src/render/charts/repeated.js';
import { vegaLiteWarnings } from '../../helpers/vega-warnings.js';
import { renderSvg, specJson } from '../../../src/render/render.js';
import { roundFloats } from '../../render/round-floats.js';

/** The two repeated-play figures from hand-written rows: data as given, specs compile without a warning, SVG marks counted, spec snapshots. */
const panel = 'A — prisoners-dilemma — business';
const ROUNDS: RoundPoint[] = [1, 2, 3].flatMap((round) => [
  { panel, opponent: 'tit-for-tat', round, cooperation: 0.8 - 0.1 * round, lo: 0.6 - 0.1 * round, hi: 0.9 - 0.1 * round, n: 20 },
  { panel, opponent: 'always-defect', round, cooperation: 0.5 - 0.1 * round, lo: 0.3 - 0.1 * round, hi: 0.6 - 0.1 * round, n: 20 },
]);
const REACTIONS: ReactionPoint[] = ['CC', 'CD', 'DC', 'DD'].map((previous, i) => ({ panel, opponent: 'tit-for-tat', previous, p_cooperate: 0.9 - 0.2 * i, lo: 0.8 - 0.2 * i, hi: 0.95 - 0.2 * i, n: 10 }));
const o = { panels: [panel], opponents: ['tit-for-tat', 'always-defect'], subtitle: 'B = 100' };
const figures = [roundsChart(ROUNDS, o), reactionsChart([...REACTIONS, { ...REACTIONS[0], previous: 'CD', opponent: 'always-defect', p_cooperate: NaN, lo: NaN, hi: NaN, n: 0 }], o)];

describe('repeated-play figures', () => {
  it('carry their rows (an undefined reaction left out) and compile without a warning', () => {
    expect((figures[0].spec as { data: { values: unknown[] } }).data.values).toEqual(ROUNDS);
    expect((figures[1].spec as { data: { values: unknown[] } }).data.values).toEqual(REACTIONS);
    for (const f of figures) expect(vegaLiteWarnings(f.spec), f.id).toEqual([]);
  });

  it('draw a point per round and opponent, a point and an interval per reaction', async () => {
    const points = (svg: string) => (svg.match(/<path[^>]*aria-roledescription="point"/g) ?? []).length;
    expect(points(await renderSvg(figures[0].spec))).toBe(6);
    expect(points(await renderSvg(figures[1].spec))).toBe(4);
  });

  it('give nine opponents nine colours, legend swatches opaque, panel titles uncut; past twenty a dash and a shape as well', () => {
    const many = (k: number) => ({ ...o, opponents: Array.from({ length: k }, (_, i) => `opp${i}`) });
    const layers = (f: { spec: unknown }) => (f.spec as { spec: { layer: { encoding: Record<string, any> }[] } }).spec.layer;
    const nine = roundsChart(ROUNDS, many(9));
    for (const l of layers(nine)) {
      expect(new Set(l.encoding.color.scale.range).size).toBe(9);
      expect(l.encoding.color.legend).toMatchObject({ symbolOpacity: 1 });
    }
    expect((nine.spec as { facet: { row: { header: { labelLimit: number } } } }).facet.row.header.labelLimit).toBe(0);
    const pairs = (f: { spec: unknown }, channel: string) => {
      const l = layers(f).find((x) => x.encoding[channel])!;
      return new Set(l.encoding.color.scale.range.map((col: string, i: number) => `${col} ${JSON.stringify(l.encoding[channel].scale.range[i])}`)).size;
    };
    expect(pairs(roundsChart(ROUNDS, many(45)), 'strokeDash')).toBe(45);
    expect(pairs(reactionsChart(REACTIONS, many(45)), 'shape')).toBe(45);
    expect(layers(roundsChart(ROUNDS, many(20))).some((l) => l.encoding.strokeDash)).toBe(false);
  });

  it.each(figures.map((f) => f.id))('spec snapshot %s (floats rounded)', async (id) => {
    await expect(roundFloats(specJson(figures.find((f) => f.id === id)!))).toMatchFileSnapshot(`__snapshots__/${id}.vl.json`);
  });
});
