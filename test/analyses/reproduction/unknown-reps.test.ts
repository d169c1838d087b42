import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRates } from '../../../src/sources/rates-csv.js';
import { parsePublished, type PublishedValues } from '../../../src/sources/published.js';
import { analyzeTwoFraming, TWO_FRAMING_DEFAULTS, type TwoFramingAnalysis } from '../../../src/analyses/two-framing/index.js';
import { ASSUMED_PUBLISHED_REPS, compareWithPublished, reproductionMetrics, reproductionSentence } from '../../../src/analyses/reproduction/index.js';
import { ROOT } from '../../helpers/cli.js';

/**
 * Verdicts when the publication's bootstrap size is unknown (docs/methods.md §16): correct
 * publications made with 1,000 replicates (test/reference/publications-1000.json, numpy, by
 * `python3 test/reference/publications.py 100 1000`), compared with no `reps` column and no
 * --published-reps, so samegame assumes B_p = 1,000. At most 8 % of them may get any `differs`;
 * assuming the computation's own B_c = 10,000 instead (the earlier default) calls far more of
 * them wrong.
 */
interface Fixture {
  reps: number; attenuation: number; base: string; alt: string;
  datasets: Record<string, { rates: string; publications: { seed: number; rows: [string, string, string][] }[] }>;
}
const fx = JSON.parse(readFileSync(new URL('../../reference/publications-1000.json', import.meta.url), 'utf8')) as Fixture;

/** A publication with no `reps` column. */
function publication(rows: readonly (readonly string[])[]): PublishedValues {
  const text = ['table,model,game,statistic,published', ...rows.map(([m, s, v]) => `table3,${m},,${s},${v}`)].join('\n');
  return { ...parsePublished(text, 'publication.csv'), sha256: '' };
}

const anyDiffers = (a: TwoFramingAnalysis, p: PublishedValues, publishedReps?: number) =>
  compareWithPublished({ analysis: a }, p, { publishedReps }).counts.differs > 0;

describe.each(Object.keys(fx.datasets))('publications of the %s data made with 1,000 replicates, reps not stated', (name) => {
  const ds = fx.datasets[name];
  const input = readRates(join(ROOT, ds.rates), { base: fx.base, alt: fx.alt });
  const a = analyzeTwoFraming(input.table, { ...TWO_FRAMING_DEFAULTS, attenuation: fx.attenuation, interval: 'percentile' });
  const pubs = ds.publications.map((p) => publication(p.rows));

  it('were made with 1,000 replicates, 100 of them', () => {
    expect(fx.reps).toBe(1000);
    expect(pubs).toHaveLength(100);
    expect(ASSUMED_PUBLISHED_REPS).toBe(1000);
  });

  it('at most 8 % get any differs; assuming B_p = B_c = 10,000 calls many more wrong', () => {
    const share = pubs.filter((p) => anyDiffers(a, p)).length / pubs.length;
    const asComputed = pubs.filter((p) => anyDiffers(a, p, a.settings.reps)).length / pubs.length;
    console.log(`${name}: any differs with the assumed B_p = 1,000: ${share}; with B_p = B_c: ${asComputed}`);
    expect(share).toBeLessThanOrEqual(0.08);
    expect(asComputed).toBeGreaterThan(share + 0.1);
  });

  it('says the B_p was assumed, in the sentence and metrics.json', () => {
    const rep = compareWithPublished({ analysis: a }, pubs[0]);
    expect(rep.rule.assumedReps).toBe(rep.rule.k);
    expect(reproductionSentence(rep)).toMatch(/assuming the publication used B_p = 1,000/);
    expect(reproductionMetrics(rep).published_reps_assumed).toEqual({ endpoints: rep.rule.k, reps: 1000 });
    const given = compareWithPublished({ analysis: a }, pubs[0], { publishedReps: 1000 });
    expect(given.rule.assumedReps).toBe(0);
    expect(reproductionSentence(given)).not.toMatch(/assuming/);
  });
});
