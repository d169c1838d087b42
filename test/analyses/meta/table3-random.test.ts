import { describe, expect, it } from 'vitest';
import { meta } from '../../../src/analyses/meta/index.js';
import { readRates } from '../../../src/sources/rates-csv.js';
import { close, reference } from '../../stats/meta/reference.js';

/**
 * `--pooling random` on the shipped rates (attenuation 1) against metafor
 * (test/reference/meta/make-reference.R): the shift per model and pooled as rma(method = "REML",
 * test = "knha") of the escalc risk differences; R pooled as the Jensen–Shannon distance, whose
 * delta-method variance the reference takes from a numerical gradient. Within 1e-4 (REML).
 */
describe('Table 3 with random effects over games', () => {
  const input = readRates('data/lore-heydari-2024/rates.csv');
  const rows = meta.randomTable3(input.table, { base: 'business', alt: 'friend-sharing', attenuation: 1 }, 'Pooled');
  const fields = ['k', 'shift', 'shift_lo', 'shift_hi', 'shift_tau2', 'shift_I2', 'R', 'R_lo', 'R_hi', 'R_tau2', 'R_I2'] as const;

  it('has the models in input order, then Pooled', () => expect(rows.map((r) => r.model)).toEqual(['GPT-3.5', 'GPT-4', 'LLaMa-2', 'Pooled']));

  it.each(reference.table3_random.map((r: { model: string }) => [r.model, r]))('%s agrees with metafor', (model, ref) => {
    const row = rows.find((r) => r.model === model)!;
    for (const f of fields) expect(close(row[f], ref[f], 1e-4, 1e-8), `${f}: ${row[f]} vs ${ref[f]}`).toBe(true);
  });

  it('the conservative transform: shift × a, and √(1 − R) × √a', () => {
    const a = 0.7;
    const att = meta.randomTable3(input.table, { base: 'business', alt: 'friend-sharing', attenuation: a }, 'Pooled');
    att.forEach((r, i) => {
      expect(r.shift).toBeCloseTo(a * rows[i].shift, 10);
      expect(Math.sqrt(1 - r.R)).toBeCloseTo(Math.sqrt(a) * Math.sqrt(1 - rows[i].R), 8);
    });
  });
});
