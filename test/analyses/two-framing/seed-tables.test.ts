import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../../src/commands/reproduce.js';
import { table2Rows } from '../../../src/analyses/two-framing/tables.js';

// Same Game, Different Story, Table 3 (conservative, attenuation 0.70) and Table 2, transcribed from the paper.
const TABLE3: Record<string, [number, number, number, number, number, number]> = {
  'GPT-3.5': [0.967, 0.956, 0.975, 0.150, 0.127, 0.173],
  'GPT-4': [0.651, 0.639, 0.661, 0.377, 0.369, 0.386],
  'LLaMa-2': [0.731, 0.710, 0.750, 0.393, 0.377, 0.408],
  Pooled: [0.783, 0.774, 0.790, 0.307, 0.297, 0.316],
};
const TABLE2: [string, string, number, number, number, number, number][] = [
  ['GPT-3.5', "Prisoner's Dilemma", 0.087, 26, 0.323, 97, 0.237],
  ['GPT-3.5', 'Snowdrift / Chicken', 0.130, 39, 0.340, 102, 0.210],
  ['GPT-3.5', 'Stag Hunt', 0.167, 50, 0.337, 101, 0.170],
  ['GPT-3.5', "Prisoner's Delight / Harmony", 0.190, 57, 0.433, 130, 0.243],
  ['GPT-4', "Prisoner's Dilemma", 0.000, 0, 0.987, 296, 0.987],
  ['GPT-4', 'Snowdrift / Chicken', 0.000, 0, 0.990, 297, 0.990],
  ['GPT-4', 'Stag Hunt', 0.817, 245, 0.997, 299, 0.180],
  ['GPT-4', "Prisoner's Delight / Harmony", 1.000, 300, 1.000, 300, 0.000],
  ['LLaMa-2', "Prisoner's Dilemma", 0.033, 10, 0.913, 274, 0.880],
  ['LLaMa-2', 'Snowdrift / Chicken', 0.140, 42, 0.930, 279, 0.790],
  ['LLaMa-2', 'Stag Hunt', 0.567, 170, 1.000, 300, 0.433],
  ['LLaMa-2', "Prisoner's Delight / Harmony", 0.860, 258, 1.000, 300, 0.140],
];

describe('Same Game, Different Story tables from the shipped data', () => {
  const res = reproduceTables({});

  it('Table 2: counts reconstructed from the rates, rates and differences to three decimals', () => {
    const rows = table2Rows(res.analysis);
    expect(rows.length).toBe(12);
    rows.forEach((r, i) => {
      const [model, game, br, bc, ar, ac, d] = TABLE2[i];
      expect([r.model, r.game, r.base_count, r.alt_count]).toEqual([model, game, bc, ac]);
      expect(r.base_rate.toFixed(3)).toBe(br.toFixed(3));
      expect(r.alt_rate.toFixed(3)).toBe(ar.toFixed(3));
      expect(r.difference.toFixed(3)).toBe(d.toFixed(3));
    });
  });

  it.each(Object.keys(TABLE3))('Table 3 %s: points equal to three decimals, endpoints within 0.003', (model) => {
    const row = res.table3.find((r) => r.model === model)!;
    const [R, Rlo, Rhi, s, slo, shi] = TABLE3[model];
    expect(row.R.toFixed(3)).toBe(R.toFixed(3));
    expect(row.shift.toFixed(3)).toBe(s.toFixed(3));
    for (const [got, want] of [[row.R_lo, Rlo], [row.R_hi, Rhi], [row.shift_lo, slo], [row.shift_hi, shi]]) {
      expect(Math.abs(got - want)).toBeLessThanOrEqual(0.003 + 1e-12);
    }
  });

  it('all Appendix C checks pass and the six degenerate cells are listed', () => {
    expect(res.verification.checks.map((c) => [c.name, c.passed])).toEqual([
      ['robustness_in_unit_interval', true], ['intervals_ordered_and_contain_point', true], ['cell_count', true],
      ['decision_count', true], ['shift_in_range', true], ['pooled_equals_unrounded_mean', true],
      ['two_empirical_tables', true], ['counts_reproduce_rates', true], ['published_values_reproduced', true],
    ]);
    expect(res.verification.checks.find((c) => c.name === 'cell_count')!.value).toContain('24 cells');
    expect(res.verification.checks.find((c) => c.name === 'decision_count')!.value).toContain('7200 decisions');
    expect(res.verification.degenerate.map((d) => `${d.cell} ${d.x}/${d.n}`)).toEqual([
      "GPT-4 / Prisoner's Dilemma / business 0/300", 'GPT-4 / Snowdrift / Chicken / business 0/300',
      "GPT-4 / Prisoner's Delight / Harmony / business 300/300", "GPT-4 / Prisoner's Delight / Harmony / friend-sharing 300/300",
      'LLaMa-2 / Stag Hunt / friend-sharing 300/300', "LLaMa-2 / Prisoner's Delight / Harmony / friend-sharing 300/300",
    ]);
  });
});

describe('verification at the bound R = 1', () => {
  it('equal rates in both framings: the interval below R = 1 is noted, not failed', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'samegame-bound-'));
    const f = join(dir, 'equal.csv');
    writeFileSync(f, 'model,game,framing,n,cooperate\nA,G1,business,300,150\nA,G1,friend-sharing,300,150\nA,G2,business,300,90\nA,G2,friend-sharing,300,90\n');
    const res = reproduceTables({ data: f, reps: 2000 });
    const c = res.verification.checks.find((x) => x.name === 'intervals_ordered_and_contain_point')!;
    expect(res.table3[0].R).toBe(1);
    expect(res.table3[0].R_hi).toBeLessThan(1);
    expect(c.passed).toBe(true);
    expect(c.value).toContain('at the bound R = 1');
    // The shift interval of the same data does contain its point 0, and is checked normally.
    expect(res.table3[0].shift_lo).toBeLessThanOrEqual(0);
    expect(res.table3[0].shift_hi).toBeGreaterThanOrEqual(0);
  });
});

describe('Appendix C table and decision checks can fail', () => {
  it('an extra empirical table, an unrequested comparison table, or a decision mismatch fails', async () => {
    const { verifyTwoFraming } = await import('../../../src/analyses/two-framing/checks.js');
    const res = reproduceTables({ reps: 200 });
    const run = (tables: string[], decisions = 7200, requested: string[] = []) => {
      const v = verifyTwoFraming({ analysis: res.analysis, expectedDecisions: { value: decisions, source: 'test' }, tables, requestedComparisons: requested });
      return Object.fromEntries(v.checks.map((c) => [c.name, c.passed]));
    };
    expect(run(['table2', 'table3'])).toMatchObject({ two_empirical_tables: true, decision_count: true });
    expect(run(['table2', 'table3', 'table4']).two_empirical_tables).toBe(false);
    expect(run(['table2', 'table3', 'compare']).two_empirical_tables).toBe(false);
    expect(run(['table2', 'table3', 'compare'], 7200, ['compare']).two_empirical_tables).toBe(true);
    expect(run(['table2', 'table3'], 7500).decision_count).toBe(false);
  });
});
