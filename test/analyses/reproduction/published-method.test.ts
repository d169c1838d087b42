import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRates } from '../../../src/sources/rates-csv.js';
import { parsePublished, readPublished, SHIPPED_PUBLISHED } from '../../../src/sources/published.js';
import { analyzeTwoFraming, TWO_FRAMING_DEFAULTS } from '../../../src/analyses/two-framing/index.js';
import { compareWithPublished, reproductionMetrics, reproductionRuleText } from '../../../src/analyses/reproduction/index.js';
import { quantilesUnsorted } from '../../../src/stats/quantile.js';
import { stat } from '../../../src/core/names.js';
import { ROOT } from '../../helpers/cli.js';

/**
 * Comparisons keep the publication's method (docs/methods.md §16): with --interval bca the tables
 * show BCa intervals, but the published (percentile) endpoints are compared with percentile
 * endpoints of the same replicates, so the shipped data's verdicts are today's: 0 differ.
 */
const input = readRates(join(ROOT, 'data/lore-heydari-2024/rates.csv'), { base: 'business', alt: 'friend-sharing' });
const published = readPublished(join(ROOT, SHIPPED_PUBLISHED), SHIPPED_PUBLISHED);
const bca = analyzeTwoFraming(input.table, { ...TWO_FRAMING_DEFAULTS, interval: 'bca' });
const pct = analyzeTwoFraming(input.table, { ...TWO_FRAMING_DEFAULTS, interval: 'percentile' });

describe('published percentile endpoints against a BCa analysis', () => {
  const rep = compareWithPublished({ analysis: bca }, published);
  it('compares percentile endpoints of the same replicates: the verdicts of the percentile analysis, 0 differ', () => {
    const same = compareWithPublished({ analysis: pct }, published);
    expect(rep.counts.differs).toBe(0);
    expect(rep.rows.map((r) => [r.computed, r.verdict])).toEqual(same.rows.map((r) => [r.computed, r.verdict]));
    // The compared value is the R-7 2.5 % quantile of the replicates, not the BCa end the table shows.
    const j = bca.boot.indexOf(stat('R', 'Pooled'));
    const reps = Float64Array.from(bca.boot.replicates.subarray(j * bca.boot.reps, (j + 1) * bca.boot.reps));
    const row = rep.rows.find((r) => r.model === 'Pooled' && r.statistic === 'R_lo')!;
    expect(row.computed).toBe(quantilesUnsorted(reps, [0.025])[0]);
    expect(row.computed).not.toBe(bca.boot.lo[j]);
  });
  it('says so in the caption and metrics.json; a percentile analysis says nothing', () => {
    expect(reproductionRuleText(rep)).toMatch(/compared as percentile intervals, the publication's method.*the tables show BCa/);
    expect(reproductionMetrics(rep)).toMatchObject({ compared_methods: ['percentile'], shown_method: 'bca' });
    const same = compareWithPublished({ analysis: pct }, published);
    expect(reproductionRuleText(same)).not.toMatch(/publication's method/);
    expect(reproductionMetrics(same)).not.toHaveProperty('compared_methods');
  });
});

describe('a method column or --published-method', () => {
  const text = (method: string) => `table,model,game,statistic,published,method\ntable3,Pooled,,R_lo,0.770,${method}\n`;
  it('bca rows are compared with the BCa ends of a BCa analysis', () => {
    const rep = compareWithPublished({ analysis: bca }, { ...parsePublished(text('bca'), 'p.csv'), sha256: '' });
    expect(rep.rows[0].computed).toBe(bca.boot.get(stat('R', 'Pooled')).lo);
    expect(rep.rule.methods).toEqual(['bca']);
    const flag = compareWithPublished({ analysis: bca }, { ...parsePublished(text(''), 'p.csv'), sha256: '' }, { publishedMethod: 'bca' });
    expect(flag.rows[0].computed).toBe(bca.boot.get(stat('R', 'Pooled')).lo);
  });
  it('a BCa publication against a percentile analysis is refused with the fix; a bad method names file, line and field', () => {
    expect(() => compareWithPublished({ analysis: pct }, { ...parsePublished(text('bca'), 'p.csv'), sha256: '' })).toThrow(/--interval bca/);
    expect(() => parsePublished(text('studentized'), 'p.csv')).toThrow(/p\.csv:2: field "method"/);
  });
});
