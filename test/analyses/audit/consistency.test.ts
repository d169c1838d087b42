import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { parseDecimal } from '../../../src/core/decimal.js';
import { readRates } from '../../../src/sources/rates-csv.js';
import { checkConsistency, consistencyFlags, consistentCounts, rateText } from '../../../src/analyses/audit/consistency.js';

const fixtures = join(__dirname, '..', '..', 'fixtures', 'audit');
const rate = (s: string) => parseDecimal(s)!;

describe('consistentCounts (GRIM)', () => {
  // Hand derivations: k/n rounded half up at the rate's decimals.
  it('finds the single count of a 3-decimal rate at n = 300', () => {
    expect(consistentCounts(rate('0.087'), 300)).toEqual({ min: 26, max: 26 }); // 26/300 = 0.08667
    expect(consistentCounts(rate('0.000'), 300)).toEqual({ min: 0, max: 0 });
    expect(consistentCounts(rate('1.000'), 300)).toEqual({ min: 300, max: 300 });
  });
  it('has no count for an impossible rate', () => {
    expect(consistentCounts(rate('0.088'), 300)).toBeUndefined(); // 26/300 = 0.0867, 27/300 = 0.0900
    expect(consistentCounts(rate('0.5'), 3)).toBeUndefined(); // 0.333 → 0.3, 0.667 → 0.7
    expect(consistentCounts(rate('0.50'), 7)).toBeUndefined(); // 3/7 = 0.4286, 4/7 = 0.5714
  });
  it('returns a run when several counts round alike (halves round up)', () => {
    expect(consistentCounts(rate('0.3'), 20)).toEqual({ min: 5, max: 6 }); // 5/20 = 0.25 → 0.3; 7/20 = 0.35 → 0.4
    expect(consistentCounts(rate('0.33'), 100)).toEqual({ min: 33, max: 33 });
    expect(consistentCounts(rate('0.5'), 4)).toEqual({ min: 2, max: 2 });
  });
  it('writes rates with their decimals', () => {
    expect(rateText(27, 300, 3)).toBe('0.090');
    expect(rateText(26, 300, 3)).toBe('0.087');
    expect(rateText(300, 300, 3)).toBe('1.000');
    expect(rateText(1, 2, 0)).toBe('1');
  });
});

describe('checkConsistency', () => {
  it('flags exactly the planted impossible rate 0.088 at n = 300, with the counts around it', () => {
    const input = readRates(join(fixtures, 'rates-planted-0088.csv'), { base: 'business', alt: 'friend-sharing' });
    const c = checkConsistency(input.rows);
    const flags = consistencyFlags(c);
    expect(flags).toHaveLength(1);
    expect(flags[0].line).toBe(2);
    expect(flags[0].cell).toBe("GPT-3.5 / Prisoner's Dilemma / business");
    expect(flags[0].status).toBe('impossible-rate');
    expect(flags[0].nearby).toEqual([{ count: 26, rate: '0.087' }, { count: 27, rate: '0.090' }]);
    expect(c.filter((x) => x.status === 'consistent')).toHaveLength(23);
  });
  it('passes the shipped rates', () => {
    const input = readRates(join(__dirname, '..', '..', '..', 'data', 'lore-heydari-2024', 'rates.csv'), { base: 'business', alt: 'friend-sharing' });
    expect(consistencyFlags(checkConsistency(input.rows))).toEqual([]);
  });
  it('checks a given count against its rate', () => {
    const input = readRates(join(fixtures, 'rates-with-counts.csv'), { base: 'business', alt: 'friend-sharing' });
    const c = checkConsistency(input.rows);
    expect(c[0].status).toBe('consistent'); // 26/300 → 0.087
    expect(c[1].status).toBe('count-mismatch'); // 98/300 = 0.3267 → 0.327, not 0.323 (97 is)
    expect(c[1].consistent).toEqual({ min: 97, max: 97, size: 1 });
  });
  it('says when n ≥ 10^decimals leaves nothing to test', () => {
    const rows = [{ line: 2, reconstructed: true, rate: rate('0.3'), cell: { key: { model: 'm', game: 'g', framing: 'f' }, obs: { kind: 'binary' as const, n: 10, x: 3 } } }];
    expect(checkConsistency(rows)[0].status).toBe('not-discriminating');
    const rows2 = [{ ...rows[0], rate: rate('0.30'), cell: { ...rows[0].cell, obs: { kind: 'binary' as const, n: 10, x: 3 } } }];
    expect(checkConsistency(rows2)[0].status).toBe('consistent'); // n = 10 < 100
  });
});
