/**
 * Begg's rank test with one variance far below the others' (test/reference/meta/make-reference-tiny-rank.R):
 * vᵢ − 1/Σw cancels for that cell (metafor's own ranktest then loses it: a NaN standardized effect,
 * τ 0 or −0.05 where the limit gives 0.25, −0.30, 0.22). Computed from sums of positive terms, the test
 * equals metafor's ranktest at 1e-12 — where its ranks are the limit's — at 1e-12, 1e-20 and 1e-30.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ranktest } from '../../../src/stats/meta/small-study.js';

const ref = JSON.parse(readFileSync(new URL('../../reference/meta/reference-tiny-rank.json', import.meta.url), 'utf8'));
type Case = { v: number[]; tau: number; p: number };

describe('Begg\'s rank test with a tiny variance', () => {
  const y = Float64Array.from(ref.y as number[]);
  it.each((ref.cases as Case[]).map((c) => [c.v.map((x) => x.toPrecision(2)).join(' '), c] as const))('v = %s', (_, c) => {
    const r = ranktest(y, Float64Array.from(c.v));
    expect(Math.abs(r.tau - c.tau)).toBeLessThanOrEqual(1e-12);
    expect(Math.abs(r.p - c.p)).toBeLessThanOrEqual(1e-12);
  });
});
