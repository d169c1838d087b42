import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { simulateRule } from '../../../src/stats/confseq/simulate.js';
import type { StopRule } from '../../../src/stats/confseq/stop-rule.js';

/**
 * The seed design's planned contrasts (business vs friend-sharing, 3 models × 4 games) at the
 * shipped Lorè–Heydari rates (data/lore-heydari-2024/rates.csv), stopped by the betting sequence
 * with waves of 20 pairs up to the fixed design's 300: expected pairs per contrast, 100 simulated
 * runs per contrast. Stated in docs/methods.md §24.
 */
const rows = Papa.parse<Record<string, string>>(readFileSync(new URL('../../../data/lore-heydari-2024/rates.csv', import.meta.url), 'utf8').trim(),
  { header: true }).data;
const contrasts = [...new Set(rows.map((r) => `${r.model}|${r.game}`))].map((k) => {
  const [model, game] = k.split('|');
  const rate = (f: string) => Number(rows.find((r) => r.model === model && r.game === game && r.framing === f)!.rate);
  return { key: k, base: rate('business'), alt: rate('friend-sharing') };
});
const RUNS = 100, FIXED = 300;

function total(rule: StopRule) {
  const per = contrasts.map((c) => ({ ...c, sim: simulateRule(rule, c, RUNS, 44, c.key) }));
  const pairs = per.reduce((a, c) => a + c.sim.meanTrials, 0);
  console.log(`${JSON.stringify({ halfWidth: rule.halfWidth, decide: rule.decide })}: ${pairs.toFixed(1)} pairs of ${contrasts.length * FIXED}; `
    + per.map((c) => `${c.key} ${c.base}→${c.alt}: ${c.sim.meanTrials.toFixed(0)} (cov ${c.sim.coverage})`).join('; '));
  return { pairs, per };
}

describe('the seed design at the shipped rates, betting sequence, waves of 20 pairs up to 300', () => {
  const rule = (o: Partial<StopRule>): StopRule => ({ target: 'shift', confidence: 0.95, wave: 20, maxTrials: FIXED, method: 'betting', ...o });
  it('has the 12 planned contrasts', () => expect(contrasts).toHaveLength(12));
  let precision = 0;
  it('half-width 0.05 on each shift: fewer pairs than fixed, savings modest', () => {
    const { pairs, per } = total(rule({ halfWidth: 0.05 }));
    precision = pairs;
    expect(pairs).toBeLessThan(contrasts.length * FIXED);
    // Contrasts between rates near 0 or 1 stop early; the others cannot reach ±0.05 in 300 pairs.
    expect(per.filter((c) => c.sim.meanTrials < FIXED).length).toBeGreaterThan(0);
  });
  it('decide: sign: large savings', () => {
    expect(precision).toBeGreaterThan(0);
    const sign = total(rule({ decide: 'sign', halfWidth: 0.05 })).pairs;
    expect(sign).toBeLessThan(0.6 * precision);
  });
});
