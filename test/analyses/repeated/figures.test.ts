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

type View = { title: { text: string }; data: { values: unknown[] }; layer: { encoding: Record<string, any> }[] };
const views = (f: { spec: unknown }) => (f.spec as { concat: View[] }).concat;

describe('repeated-play figures', () => {
  it('carry their rows (an undefined reaction left out) and compile without a warning', () => {
    expect(views(figures[0]).flatMap((v) => v.data.values)).toEqual(ROUNDS);
    expect(views(figures[1]).flatMap((v) => v.data.values)).toEqual(REACTIONS);
    for (const f of figures) expect(vegaLiteWarnings(f.spec), f.id).toEqual([]);
  });

  it('draw a point per round and opponent, a point and an interval per reaction', async () => {
    const points = (svg: string) => (svg.match(/<path[^>]*aria-roledescription="point"/g) ?? []).length;
    expect(points(await renderSvg(figures[0].spec))).toBe(6);
    expect(points(await renderSvg(figures[1].spec))).toBe(4);
  });

  it('one view per panel, each with its own x axis and a legend of its own opponents; an opponent keeps its colour and shape in every panel', () => {
    const panels = ['A — g — f', 'B — g — f'];
    const rows: RoundPoint[] = panels.flatMap((p, k) => ['x', 'y', 'z'].slice(k).map((opponent) => ({ panel: p, opponent, round: 1, cooperation: 0.5, lo: 0.4, hi: 0.6, n: 4 })));
    const f = roundsChart(rows, { panels, opponents: ['x', 'y', 'z'], subtitle: '' });
    expect(views(f).map((v) => v.title.text)).toEqual(panels);
    const styleOf = (v: View, channel: string) => {
      const enc = v.layer.find((l) => l.encoding[channel])!.encoding[channel];
      return Object.fromEntries(enc.scale.domain.map((d: string, i: number) => [d, JSON.stringify(enc.scale.range[i])]));
    };
    for (const channel of ['color', 'shape']) {
      const [a, b] = views(f).map((v) => styleOf(v, channel));
      expect(Object.keys(a)).toEqual(['x', 'y', 'z']);
      expect(Object.keys(b)).toEqual(['y', 'z']); // B's legend lists B's opponents only
      expect(b.y).toBe(a.y);
      expect(b.z).toBe(a.z);
    }
    for (const v of views(f)) for (const l of v.layer) expect(l.encoding.x.axis).not.toBeNull();
    expect((f.spec as { resolve: { legend: Record<string, string> } }).resolve.legend.color).toBe('independent');
  });

  it.each(figures.map((f) => f.id))('spec snapshot %s (floats rounded)', async (id) => {
    await expect(roundFloats(specJson(figures.find((f) => f.id === id)!))).toMatchFileSnapshot(`__snapshots__/${id}.vl.json`);
  });
});
