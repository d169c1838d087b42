import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { analyzeTwoFraming, twoFramingEstimand, twoFramingLayout } from '../../../src/analyses/two-framing/index.js';
import { testSampler } from '../../helpers/beta-binomial.js';
import { uniforms } from '../../helpers/uniforms.js';

/**
 * Paired designs (docs/methods.md §8.3): both framings of a model–game played in the same matches
 * (the cells' cluster ids meet). The shift is analysed on the matches both share — CR2 with every
 * decision of a match in one cluster, which with equal lengths is the paired t interval on the
 * match-level differences — against the numpy reference test/reference/paired_shift.py; a
 * simulation with a strong match effect shared by the framings shows the paired interval holds
 * its level and is narrower than the unpaired one of the same data.
 */
interface RefCell { ids: string[]; sizes: number[]; sums: number[] }
interface Case { name: string; cells: RefCell[]; estimate: number; df: number; interval: [number, number]; paired_t?: [number, number] }
const CASES = JSON.parse(readFileSync(new URL('../../reference/paired_shift.json', import.meta.url), 'utf8')) as Case[];
const FACTORS = ['model', 'game', 'framing'];
const SETTINGS = { reps: 1, attenuation: 1, base: 'b', alt: 's', seed: 1 } as const;

function table(cells: readonly { ids?: string[]; sizes: ArrayLike<number>; sums: ArrayLike<number> }[]): CellTable {
  return { factors: FACTORS, cells: cells.map((c, k) => ({ key: { model: 'M', game: 'g', framing: k ? 's' : 'b' },
    obs: { kind: 'clustered', sizes: Float64Array.from(c.sizes), sums: Float64Array.from(c.sums), ...(c.ids ? { ids: c.ids } : {}) } })) };
}

describe('the paired shift against the numpy reference', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const a = analyzeTwoFraming(table(c.cells), SETTINGS);
      for (const name of [stat('shift', 'M'), stat('shift', POOLED)]) {
        const v = a.boot.get(name);
        expect(v.point).toBeCloseTo(c.estimate, 12);
        expect(v.lo).toBeCloseTo(c.interval[0], 9);
        expect(v.hi).toBeCloseTo(c.interval[1], 9);
      }
      if (c.paired_t) expect([a.boot.get(stat('shift', 'M')).lo, a.boot.get(stat('shift', 'M')).hi].map((x) => x.toFixed(9)))
        .toEqual(c.paired_t.map((x) => x.toFixed(9)));
      expect(a.boot.notes.join('\n')).toMatch(/^paired: .*shift\["M"\].*analysed paired, on match-level differences$/m);
    });
  }
  it('without cluster ids the same counts are two independent cells, and no note says paired', () => {
    const c = CASES[0];
    const a = analyzeTwoFraming(table(c.cells.map(({ sizes, sums }) => ({ sizes, sums }))), SETTINGS);
    const v = a.boot.get(stat('shift', 'M'));
    expect(v.hi - v.lo).toBeGreaterThan(c.interval[1] - c.interval[0]);
    expect(a.boot.notes.join('\n')).not.toMatch(/paired/);
  });
  it('ids that meet only across model–games pair nothing', () => {
    const c = CASES[0];
    const t: CellTable = { factors: FACTORS, cells: [['M', 'b'], ['M', 's'], ['N', 'b'], ['N', 's']].map(([model, framing], k) => ({
      key: { model, game: 'g', framing }, obs: { kind: 'clustered', sizes: Float64Array.from(c.cells[k % 2].sizes), sums: Float64Array.from(c.cells[k % 2].sums),
        ids: c.cells[0].ids.map((id) => `${id}${k % 2 ? '' : model}${k >= 2 && k % 2 ? 'N' : ''}`) } })) };
    // M's two framings share ids with neither each other (M's base ids end in "M") — N's base ends in "N", N's alt in "N": N pairs
    const a = analyzeTwoFraming(t, { ...SETTINGS });
    const notes = a.boot.notes.join('\n');
    expect(notes).toMatch(/paired: [^\n]*shift\["N"\]/);
    expect(notes).not.toMatch(/paired: [^\n]*shift\["M"\]/);
  });
});

describe('paired simulation: a match effect shared by both framings (own generator)', () => {
  it('G = 8 matches of 10 rounds per framing, 400 data sets: shift and R coverage ≥ 0.90, the shift narrower than unpaired', () => {
    const gen = testSampler(4242), u = uniforms(4243);
    const SETS = 400, G = 8, truth = 0.1 * 0.6; // E[u + 0.1·(1 − u)] − E[u] with E[u] = 0.4
    const est = twoFramingEstimand(twoFramingLayout(table([{ sizes: [1], sums: [0] }, { sizes: [1], sums: [0] }]), 'b', 's'), 1);
    const out = new Float64Array(est.names.length);
    est.evaluate(Float64Array.from([0.4, 0.46]), out);
    const truthR = out[est.names.indexOf(stat('R', 'M'))];
    let covered = 0, coveredR = 0, widthPaired = 0, widthUnpaired = 0;
    for (let s = 0; s < SETS; s++) {
      const ids = Array.from({ length: G }, (_, j) => `m${j}`);
      const rates = Array.from({ length: G }, () => gen.beta(0.4 * 1.5, 0.6 * 1.5));
      const draw = (p: number) => { let k = 0; for (let i = 0; i < 10; i++) if (u() < p) k++; return k; };
      const base = { ids, sizes: new Array(G).fill(10), sums: rates.map((p) => draw(p)) };
      const alt = { ids, sizes: new Array(G).fill(10), sums: rates.map((p) => draw(p + 0.1 * (1 - p))) };
      const a = analyzeTwoFraming(table([base, alt]), SETTINGS), p = a.boot.get(stat('shift', 'M')), r = a.boot.get(stat('R', 'M'));
      if (r.lo <= truthR + 1e-12 && truthR <= r.hi + 1e-12) coveredR++;
      const q = analyzeTwoFraming(table([{ sizes: base.sizes, sums: base.sums }, { sizes: alt.sizes, sums: alt.sums }]), SETTINGS).boot.get(stat('shift', 'M'));
      if (p.lo <= truth + 1e-12 && truth <= p.hi + 1e-12) covered++;
      widthPaired += p.hi - p.lo; widthUnpaired += q.hi - q.lo;
    }
    console.log(`paired, G = ${G}, ICC 0.4: R coverage ${(coveredR / SETS).toFixed(3)}; shift coverage ${(covered / SETS).toFixed(3)}; mean width paired ${(widthPaired / SETS).toFixed(3)},`
      + ` unpaired ${(widthUnpaired / SETS).toFixed(3)}`);
    expect(covered / SETS).toBeGreaterThanOrEqual(0.9);
    expect(coveredR / SETS).toBeGreaterThanOrEqual(0.9);
    expect(widthPaired).toBeLessThan(0.75 * widthUnpaired);
  });
});
