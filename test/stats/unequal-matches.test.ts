import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clusterDifferenceInterval, clusterRateInterval, effectiveClusterCount } from '../../src/stats/cluster-intervals.js';

/**
 * Cluster-robust intervals on data sets from an independent numpy generator
 * (test/reference/unequal_matches.py, beta-binomial matches; 300 data sets per regime, so a
 * coverage of 0.95 has a Monte Carlo SE of 0.013): a shift between two cells whose matches are
 * unequal (one ~60-round match and G − 1 of 1–3 rounds, or 5–15 rounds), and rates near 0 with
 * ICC 0.6.
 */
interface Cell { sizes: number[]; sums: number[] }
interface Regime { name: string; kind: 'shift' | 'rate'; base: number; alt: number; icc: number; G: number; sets: Cell[][] }
const REGIMES = JSON.parse(readFileSync(new URL('../reference/unequal_matches.json', import.meta.url), 'utf8')) as Regime[];

function measure(r: Regime): { coverage: number; none: number; shown: number } {
  const truth = r.kind === 'shift' ? r.alt - r.base : r.base;
  let covered = 0, none = 0;
  for (const [a, b] of r.sets) {
    const iv = r.kind === 'shift' ? clusterDifferenceInterval(a, b, false) : clusterRateInterval(a);
    if (iv.kind === 'none') { none++; continue; }
    if (iv.lo <= truth + 1e-12 && truth <= iv.hi + 1e-12) covered++;
  }
  const shown = r.sets.length - none;
  return { coverage: shown ? covered / shown : NaN, none: none / r.sets.length, shown };
}

describe('the effective number of matches', () => {
  it('is G with equal lengths and near 1 when one match holds most decisions (by hand)', () => {
    expect(effectiveClusterCount({ sizes: [10, 10, 10, 10], sums: [0, 0, 0, 0] })).toBe(4);
    // (60 + 2·5)² / (3600 + 4·5) = 4900 / 3620
    expect(effectiveClusterCount({ sizes: [60, 2, 2, 2, 2, 2], sums: [0, 0, 0, 0, 0, 0] })).toBeCloseTo(4900 / 3620, 12);
  });
});

describe('a shift with one dominant match: coverage ≥ 0.90, or no interval in ≥ 95 % of data sets', () => {
  for (const r of REGIMES.filter((x) => x.kind === 'shift')) {
    it(r.name, () => {
      const m = measure(r);
      console.log(`${r.name}: coverage ${m.coverage.toFixed(3)} of ${m.shown} intervals; no interval in ${m.none.toFixed(3)}`);
      if (m.none < 0.95) expect(m.coverage).toBeGreaterThanOrEqual(0.9);
      else expect(m.none).toBeGreaterThanOrEqual(0.95);
    });
  }
  it('matches of 5–15 rounds still get their interval', () => {
    const r = REGIMES.find((x) => x.name.includes('5-15'))!;
    expect(measure(r).none).toBe(0);
  });
});

describe('rates near 0 with ICC 0.6', () => {
  for (const r of REGIMES.filter((x) => x.kind === 'rate')) {
    it(r.name, () => {
      const m = measure(r);
      console.log(`${r.name}: coverage ${m.coverage.toFixed(3)} of ${m.shown} intervals; no interval in ${m.none.toFixed(3)}`);
      expect(m.coverage).toBeGreaterThanOrEqual(0.9);
    });
  }
});
