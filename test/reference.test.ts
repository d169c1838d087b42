import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readRates } from '../src/sources/rates-csv.js';
import { analyzeTwoFraming } from '../src/analyses/two-framing/analysis.js';
import { stat } from '../src/core/names.js';

/**
 * Other data — other models and games, n from 7 to 1000, three framings, cells at 0 and n —
 * against the independent numpy computation in test/reference/reference.py (see its header).
 * Points agree to 1e-9; interval endpoints within Monte Carlo error: the reference endpoints are
 * means over 20 numpy seeds with their SD, and samegame's endpoint is one draw of the same
 * quantity, so it must lie within 4·SD·√(1 + 1/20) (plus 1e-6 for endpoints on an atom).
 */
const raw = JSON.parse(readFileSync(new URL('./reference/other.json', import.meta.url), 'utf8')) as {
  base: string; alt: string; attenuation: number;
  statistics: Record<string, { point: number; lo: number; hi: number; lo_sd: number; hi_sd: number }>;
};
// The reference names statistics as kind[part | part]; samegame's names come from stat().
const ref = {
  ...raw,
  statistics: Object.fromEntries(Object.entries(raw.statistics).map(([k, v]) => {
    const m = /^(\w+)\[(.*)\]$/.exec(k)!;
    return [stat(m[1], ...m[2].split(' | ')), v];
  })),
};

describe('reference computation (numpy) on other data', () => {
  const input = readRates(new URL('./fixtures/rates/other.csv', import.meta.url).pathname, { base: ref.base, alt: ref.alt });
  const a = analyzeTwoFraming(input.table, { seed: 7, reps: 10_000, attenuation: ref.attenuation, base: ref.base, alt: ref.alt });
  const names = Object.keys(ref.statistics);

  it('covers every statistic the reference computes, family robustness included', () => {
    expect(names.length).toBe(6 * 3 + 3 * 5); // per model–game: R2, shift_raw, Rfam; per group: 5
    for (const n of names) expect(a.boot.names).toContain(n);
  });

  it.each(names)('%s point estimate within 1e-9', (name) => {
    expect(Math.abs(a.boot.get(name).point - ref.statistics[name].point)).toBeLessThan(1e-9);
  });

  // A shift is lattice-valued (steps of 1/n per cell, divided by the games averaged), so its
  // percentiles jump by whole steps between seeds; allow one step beside the seed-to-seed SD.
  const lattice = (name: string): number => {
    if (!name.startsWith('shift')) return 0;
    const inner = JSON.parse(name.slice(name.indexOf('['))) as string[];
    const pairs = a.layout.pairs.filter((p) => (inner.length === 2 ? p.model === inner[0] && p.game === inner[1]
      : inner[0] === 'Pooled' || p.model === inner[0]));
    const nMin = Math.min(...pairs.flatMap((p) => [p.baseIndex, p.altIndex]).map((i) => (a.table.cells[i].obs as { n: number }).n));
    return 1 / nMin / pairs.length;
  };

  it.each(names)('%s interval endpoints within Monte Carlo error', (name) => {
    const r = ref.statistics[name];
    const got = a.boot.get(name);
    const k = 4 * Math.sqrt(1 + 1 / 20);
    const tol = (sd: number) => k * sd + lattice(name) + 1e-6;
    expect(Math.abs(got.lo - r.lo)).toBeLessThanOrEqual(tol(r.lo_sd));
    expect(Math.abs(got.hi - r.hi)).toBeLessThanOrEqual(tol(r.hi_sd));
  });
});
