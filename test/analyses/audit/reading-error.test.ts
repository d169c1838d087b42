import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readRates } from '../../../src/sources/rates-csv.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { ReplicateState } from '../../../src/analyses/audit/replicate-state.js';
import { readingErrorRanges } from '../../../src/analyses/audit/reading-error.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { pairsTable, rerun, settings, withCounts } from './helpers.js';

describe('reading error: shipped data, shift point (hand derivation)', () => {
  const input = readRates(join(__dirname, '..', '..', '..', 'data', 'lore-heydari-2024', 'rates.csv'), { base: 'business', alt: 'friend-sharing' });
  const s = settings(500, 0.7, 20240818);
  const a = analyzeTwoFraming(input.table, s);
  const st = new ReplicateState(input.table, a.layout, { seed: s.seed, reps: s.reps, attenuation: 0.7 });
  const re = readingErrorRanges(st, 1);
  it('moves every unclamped cell one count the helpful way', () => {
    // Max: base −1 possible in 10 of 12 base cells (two are 0/300), alt +1 in 9 of 12 (three are 300/300):
    // 19 counts of 1/300, averaged over 12 pairs, times a = 0.7. Min: base +1 in 11 (one is 300/300), alt −1 in 12.
    const r = re.ranges.find((x) => x.group === POOLED && x.kind === 'shift' && x.which === 'point')!;
    const obs = a.boot.get(stat('shift', POOLED)).point;
    expect(r.exact).toBe(true);
    expect(r.max - obs).toBeCloseTo((0.7 * 19) / 3600, 12);
    expect(obs - r.min).toBeCloseTo((0.7 * 23) / 3600, 12);
    expect(r.argmax).toHaveLength(19);
    expect(r.argmin).toHaveLength(23);
  });
});

describe('reading error on a small table against brute force', () => {
  const table = pairsTable([['M', 'G1', 3, 9, 12], ['M', 'G2', 0, 5, 12]]);
  const s = settings(800, 0.7);
  const a = analyzeTwoFraming(table, s);
  const st = new ReplicateState(table, a.layout, { seed: s.seed, reps: s.reps, attenuation: 0.7 });
  const re = readingErrorRanges(st, 1);
  const observed = [3, 9, 0, 5];
  // All tables within ±1 of every cell (0 cannot go below 0): 3·3·2·3 = 54.
  const all: { counts: number[]; boot: ReturnType<typeof rerun> }[] = [];
  for (const d0 of [-1, 0, 1]) for (const d1 of [-1, 0, 1]) for (const d2 of [0, 1]) for (const d3 of [-1, 0, 1]) {
    const counts = [observed[0] + d0, observed[1] + d1, observed[2] + d2, observed[3] + d3];
    all.push({ counts, boot: rerun(withCounts(table, counts), s) });
  }
  it('finds the exact extremes of the point estimates', () => {
    for (const k of ['R', 'shift'] as const) {
      const vals = all.map((x) => x.boot.get(stat(k, POOLED)).point);
      const r = re.ranges.find((x) => x.group === POOLED && x.kind === k && x.which === 'point')!;
      expect(r.min).toBeCloseTo(Math.min(...vals), 12);
      expect(r.max).toBeCloseTo(Math.max(...vals), 12);
    }
  });
  it('reports endpoint values that real tables attain, inside the brute-force range', () => {
    for (const k of ['R', 'shift'] as const) for (const w of ['lo', 'hi'] as const) {
      const vals = all.map((x) => x.boot.get(stat(k, POOLED))[w]);
      const r = re.ranges.find((x) => x.group === POOLED && x.kind === k && x.which === w)!;
      expect(r.exact).toBe(false);
      expect(r.min).toBeGreaterThanOrEqual(Math.min(...vals) - 1e-12);
      expect(r.max).toBeLessThanOrEqual(Math.max(...vals) + 1e-12);
      const at = (changes: typeof r.argmin) => { const c = [...observed]; for (const x of changes) c[x.index] = x.to; return rerun(withCounts(table, c), s).get(stat(k, POOLED))[w]; };
      expect(at(r.argmin)).toBe(r.min);
      expect(at(r.argmax)).toBe(r.max);
    }
  });
});

describe('reading error with per-cell ranges (a digitized figure) against brute force', () => {
  // Each cell's own allowance down and up, as a digitized figure gives them: asymmetric, some 0.
  const table = pairsTable([['M', 'G1', 3, 9, 12], ['M', 'G2', 4, 5, 12]]);
  const down = [1, 0, 2, 1], up = [0, 2, 1, 0];
  const s = settings(800, 0.7);
  const a = analyzeTwoFraming(table, s);
  const st = new ReplicateState(table, a.layout, { seed: s.seed, reps: s.reps, attenuation: 0.7 });
  const ranges = { K: 1, label: '±1 px of the digitized figure', down, up, input: {} };
  const re = readingErrorRanges(st, 1, undefined, ranges);
  const observed = [3, 9, 4, 5];
  const all: { counts: number[]; boot: ReturnType<typeof rerun> }[] = [];
  const span = (i: number) => Array.from({ length: down[i] + up[i] + 1 }, (_, j) => observed[i] - down[i] + j);
  for (const x0 of span(0)) for (const x1 of span(1)) for (const x2 of span(2)) for (const x3 of span(3)) {
    all.push({ counts: [x0, x1, x2, x3], boot: rerun(withCounts(table, [x0, x1, x2, x3]), s) });
  }
  it('enumerates 2·3·4·2 = 48 tables; the point extremes are theirs exactly', () => {
    expect(all).toHaveLength(48);
    for (const k of ['R', 'shift'] as const) {
      const vals = all.map((x) => x.boot.get(stat(k, POOLED)).point);
      const r = re.ranges.find((x) => x.group === POOLED && x.kind === k && x.which === 'point')!;
      expect(r.min).toBeCloseTo(Math.min(...vals), 12);
      expect(r.max).toBeCloseTo(Math.max(...vals), 12);
    }
  });
  it('every reported table stays within the ranges, and the endpoint ranges lie inside the brute-force ones', () => {
    for (const r of re.ranges) {
      for (const c of [...r.argmin, ...r.argmax]) {
        expect(c.to - c.from).toBeGreaterThanOrEqual(-down[c.index]);
        expect(c.to - c.from).toBeLessThanOrEqual(up[c.index]);
      }
      if (r.which === 'point') continue;
      const vals = all.map((x) => x.boot.get(stat(r.kind, POOLED))[r.which as 'lo' | 'hi']);
      if (r.group !== POOLED) continue;
      expect(r.min).toBeGreaterThanOrEqual(Math.min(...vals) - 1e-12);
      expect(r.max).toBeLessThanOrEqual(Math.max(...vals) + 1e-12);
    }
    expect(re).toMatchObject({ K: 1, label: '±1 px of the digitized figure', perCell: { down, up } });
  });
  it('equal ranges down and up of K are the ±K analysis exactly (one code path)', () => {
    const sym = readingErrorRanges(st, 1, undefined, { ...ranges, down: [1, 1, 1, 1], up: [1, 1, 1, 1] });
    const plain = readingErrorRanges(st, 1);
    expect(sym.ranges).toEqual(plain.ranges);
  });
});
