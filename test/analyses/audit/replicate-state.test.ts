import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readRates } from '../../../src/sources/rates-csv.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { ReplicateState } from '../../../src/analyses/audit/replicate-state.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { rerun, settings, withCounts } from './helpers.js';

const shipped = readRates(join(__dirname, '..', '..', '..', 'data', 'lore-heydari-2024', 'rates.csv'), { base: 'business', alt: 'friend-sharing' });

describe('ReplicateState', () => {
  const s = settings(3000);
  const a = analyzeTwoFraming(shipped.table, s);
  const st = new ReplicateState(shipped.table, a.layout, { seed: s.seed, reps: s.reps, attenuation: s.attenuation });
  const groups = [...a.layout.models, POOLED];

  it('reproduces the bootstrap of the pipeline bit for bit', () => {
    for (const g of groups) for (const k of ['R', 'shift'] as const) expect(st.interval(g, k)).toEqual(a.boot.get(stat(k, g)));
  });

  it('after count changes, equals the pipeline on the changed table', () => {
    const counts = Int32Array.from(st.counts);
    counts[0] += 5; counts[9] -= 40; counts[15] -= 1; // a 0/n → … and n/n → n−1 cell among them
    st.setCounts(counts);
    const b = rerun(withCounts(shipped.table, counts), s);
    for (const g of groups) for (const k of ['R', 'shift'] as const) expect(st.interval(g, k)).toEqual(b.get(stat(k, g)));
    st.setCounts(shipped.table.cells.map((c) => (c.obs as { x: number }).x));
    expect(st.interval(POOLED, 'R')).toEqual(a.boot.get(stat('R', POOLED)));
  });

  it('rejects counts outside [0, n]', () => {
    expect(() => st.setCount(0, 301)).toThrow(RangeError);
    expect(() => st.setCount(0, -1)).toThrow(RangeError);
  });
});
