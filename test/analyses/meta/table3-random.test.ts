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

  // metafor's ends, clipped to the declared bounds (shift [−1, 1], R [0, 1]): GPT-4's shift_hi is 1.368 there
  const bounds = (f: string): [number, number] => (f.startsWith('shift_') ? [-1, 1] : f.startsWith('R_') ? [0, 1] : [-Infinity, Infinity]);
  const clip = (f: string, x: number) => Math.min(bounds(f)[1], Math.max(bounds(f)[0], x));
  const refs: [string, Record<string, number>][] = reference.table3_random.map((r: Record<string, number> & { model: string }) => [r.model, r]);
  it.each(refs)('%s agrees with metafor', (model, ref) => {
    const row = rows.find((r) => r.model === model)!;
    for (const f of fields) {
      const want = f.endsWith('_lo') || f.endsWith('_hi') ? clip(f, ref[f]) : ref[f];
      expect(close(row[f] as number, want, 1e-4, 1e-8), `${f}: ${row[f]} vs ${want}`).toBe(true);
      if (want !== ref[f]) expect(row.clipped, f).toContain(f);
    }
  });

  it('two games: the Hartung–Knapp ends past ±1 are clipped to the shift\'s bounds, and the output says so', () => {
    // one model, shifts 0.1 and 0.8 over two games (n = 100): t(1) makes the interval of the mean reach far past ±1
    const cell = (game: string, framing: string, x: number) => ({ key: { model: 'M', game, framing }, obs: { kind: 'binary' as const, n: 100, x } });
    const table = { factors: ['model', 'game', 'framing'], cells: [cell('g1', 'b', 40), cell('g1', 's', 50), cell('g2', 'b', 10), cell('g2', 's', 90)] };
    const [m] = meta.randomTable3(table, { base: 'b', alt: 's', attenuation: 1 }, 'Pooled');
    expect(m.shift).toBeGreaterThan(0.1);
    expect([m.shift_lo, m.shift_hi]).toEqual([-1, 1]);
    expect(m.clipped).toEqual(expect.arrayContaining(['shift_lo', 'shift_hi']));
    expect(m.R_lo).toBeGreaterThanOrEqual(0);
    expect(m.R_hi).toBeLessThanOrEqual(1);
    const text = meta.randomTable3Text([m]);
    expect(text).toContain('[-1.000, 1.000]');
    expect(text).toMatch(/shown at the bound: M \(shift_lo, shift_hi/);
    expect(text).toContain('can exceed Table 3\'s fixed mean of R');
    expect(meta.randomTable3Csv([m]).split('\n')[1]).toMatch(/,shift_lo shift_hi( [a-zA-Z_ ]+)?$/);
  });

  it('the conservative transform: shift × a, and √(1 − R) × √a', () => {
    const a = 0.7;
    const att = meta.randomTable3(input.table, { base: 'business', alt: 'friend-sharing', attenuation: a }, 'Pooled');
    att.forEach((r, i) => {
      expect(r.shift).toBeCloseTo(a * (rows[i].shift as number), 10);
      expect(Math.sqrt(1 - (r.R as number))).toBeCloseTo(Math.sqrt(a) * Math.sqrt(1 - (rows[i].R as number)), 8);
    });
  });
});
