import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { analyzeTwoFraming, type TwoFramingSettings } from '../../../src/analyses/two-framing/analysis.js';
import { ReplicateState } from '../../../src/analyses/audit/replicate-state.js';
import { readingErrorRanges } from '../../../src/analyses/audit/reading-error.js';
import { intervalConclusions, intervalFinding, tippingPoints } from '../../../src/analyses/audit/tipping.js';
import { tablesWithin } from '../../../src/analyses/audit/tipping-search.js';
import { pairsTable, rerun, settings, vectorsWithL1, withCounts } from './helpers.js';

function run(table: CellTable, s: TwoFramingSettings, searchReps = s.reps) {
  const a = analyzeTwoFraming(table, s);
  const lvl = { seed: s.seed, attenuation: s.attenuation };
  const full = new ReplicateState(table, a.layout, { ...lvl, reps: s.reps });
  const search = new ReplicateState(table, a.layout, { ...lvl, reps: searchReps });
  const findings = intervalConclusions(a.layout.models, full.columns).map(({ group, kind }) => intervalFinding(full, search, group, kind, s));
  return tippingPoints(full, { settings: s, readingError: readingErrorRanges(full, 1) }, findings);
}

const observedOf = (t: CellTable) => t.cells.map((c) => (c.obs as { x: number }).x);
const shiftExcludes0 = (b: ReturnType<typeof rerun>, g: string) => { const v = b.get(stat('shift', g)); return v.lo > 0 || v.hi < 0; };

describe('tablesWithin', () => {
  it('counts integer vectors by L1 norm (hand: c = 2)', () => {
    // norm 0: 1; norm 1: 4; norm 2: 8; norm 3: 12
    expect(tablesWithin(2, 0)).toBe(1);
    expect(tablesWithin(2, 1)).toBe(5);
    expect(tablesWithin(2, 3)).toBe(25);
    expect(tablesWithin(3, 1)).toBe(7);
  });
});

describe('tipping point of a shift interval, small case (exact search)', () => {
  // One model, one game, n = 20: p_base = 0.25, p_alt = 0.70, shift 0.45 with an interval above 0.
  const table = pairsTable([['M', 'G', 5, 14, 20]]);
  const s = settings(2000, 1);
  const res = run(table, s);
  const t = res.find((x) => x.id === `shift-excludes-0[${POOLED}]`)!;
  const observed = observedOf(table);

  it('holds on the observed table and is found by the exact search', () => {
    expect(shiftExcludes0(rerun(table, s), POOLED)).toBe(true);
    expect(t.holds).toBe(true);
    expect(t.method).toBe('exact');
    expect(t.changes).toBeGreaterThan(0);
  });
  it('the found changes overturn it when the pipeline is re-run', () => {
    const counts = [...observed];
    for (const c of t.cells) counts[c.index] = c.to;
    expect(counts.reduce((sum, x, i) => sum + Math.abs(x - observed[i]), 0)).toBe(t.changes);
    expect(shiftExcludes0(rerun(withCounts(table, counts), s), POOLED)).toBe(false);
    expect(t.verified).toBe(true);
  });
  it('no table with fewer changes overturns it (brute force through the pipeline)', () => {
    for (let m = 1; m < t.changes!; m++) {
      for (const d of vectorsWithL1(2, m)) {
        const counts = observed.map((x, i) => x + d[i]);
        if (counts.some((x) => x < 0 || x > 20)) continue;
        expect(shiftExcludes0(rerun(withCounts(table, counts), s), POOLED)).toBe(true);
      }
    }
  });
});

describe('tipping point of the model ordering (exact dynamic programming)', () => {
  // A: (4, 6) of 10 is closer than B: (3, 7), so R_A > R_B.
  const table = pairsTable([['A', 'G', 4, 6, 10], ['B', 'G', 3, 7, 10]]);
  const s = settings(200, 0.7);
  const t = run(table, s).find((x) => x.id === 'order-by-R')!;
  const observed = observedOf(table);
  const reversed = (counts: number[]) => { const b = rerun(withCounts(table, counts), s); return b.get(stat('R', 'B')).point > b.get(stat('R', 'A')).point; };

  it('reverses the order with the found changes', () => {
    expect(t.method).toBe('exact-dp');
    const counts = [...observed];
    for (const c of t.cells) counts[c.index] = c.to;
    expect(reversed(counts)).toBe(true);
  });
  it('no table with fewer changes reverses it', () => {
    for (let m = 1; m < t.changes!; m++) {
      for (const d of vectorsWithL1(4, m)) {
        const counts = observed.map((x, i) => x + d[i]);
        if (counts.some((x) => x < 0 || x > 10)) continue;
        expect(reversed(counts)).toBe(false);
      }
    }
  });
});

describe('a conclusion that does not hold is reported, not searched', () => {
  it('a shift interval that already covers 0', () => {
    const table = pairsTable([['M', 'G', 10, 11, 20]]);
    const t = run(table, settings(500, 1)).find((x) => x.id === `shift-excludes-0[${POOLED}]`)!;
    expect(t.holds).toBe(false);
    expect(t.method).toBe('not-held');
    expect(t.changes).toBeUndefined();
  });
});
