import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { TrialStore } from '../../../src/live/store/store.js';
import { chooseRun, storeTable } from '../../../src/sources/store.js';
import { analyzeTwoFraming, table2Csv, metricsObject, table2Section } from '../../../src/analyses/two-framing/index.js';
import { counts, writeStore } from '../../helpers/store.js';
import { readRates } from '../../../src/sources/rates-csv.js';
import { ROOT } from '../../helpers/cli.js';

/**
 * Invalid answers (docs/methods.md §3.1): per cell the invalid share, and worst-case (Manski)
 * bounds on the rate over all trials and on the difference, by hand: base 2 C of 40 valid and
 * 10 invalid → [2/50, 12/50]; alt 38 of 40 and 0 invalid → [38/40, 38/40]; difference
 * [0.95 − 0.24, 0.95 − 0.04] = [0.71, 0.91].
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-invalid-'));
const path = join(dir, 's.sqlite');
writeStore(path, { name: 't', models: [{ id: 'M', provider: 'openai-chat' }], games: ['prisoners-dilemma'], framings: ['business', 'friend-sharing'] }, [
  { model: 'M', game: 'prisoners-dilemma', framing: 'business', actions: [...counts(2, 40), ...Array.from({ length: 10 }, () => null)] },
  { model: 'M', game: 'prisoners-dilemma', framing: 'friend-sharing', actions: counts(38, 40) },
]);

function analysis() {
  const store = TrialStore.openExisting(path);
  try {
    const t = storeTable(store, chooseRun(store, path));
    return analyzeTwoFraming(t.folded, { seed: 1, reps: 200, attenuation: 1, base: 'business', alt: 'friend-sharing' });
  } finally { store.close(); }
}

describe('worst-case bounds for invalid answers', () => {
  const a = analysis();
  it('table2.csv keeps its columns and adds the invalid shares and bounds', () => {
    const text = table2Csv(a);
    expect(text.split('\n')[0]).toBe('model,game,base_rate,base_count,alt_rate,alt_count,difference,'
      + 'base_invalid_share,alt_invalid_share,base_rate_lo,base_rate_hi,alt_rate_lo,alt_rate_hi,difference_lo,difference_hi,'
      + 'base_rate_im_lo,base_rate_im_hi,alt_rate_im_lo,alt_rate_im_hi,difference_im_lo,difference_im_hi');
    const [row] = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
    const v = (k: string) => Number(row[k]);
    expect(v('base_rate')).toBeCloseTo(2 / 40, 15);
    expect(v('base_invalid_share')).toBeCloseTo(10 / 50, 15);
    expect(v('alt_invalid_share')).toBe(0);
    expect([v('base_rate_lo'), v('base_rate_hi')]).toEqual([2 / 50, 12 / 50]);
    expect([v('alt_rate_lo'), v('alt_rate_hi')]).toEqual([38 / 40, 38 / 40]);
    expect(v('difference_lo')).toBeCloseTo(0.71, 14);
    expect(v('difference_hi')).toBeCloseTo(0.91, 14);
    // 2 of 40 valid, 10 invalid: test/reference/imbens_manski.json (scipy) gives [0, 0.339347190932]
    expect([v('base_rate_im_lo'), v('base_rate_im_hi')]).toEqual([0, 0.339347190932]);
  });
  it('metrics.json gives every cell its invalid count and every pair its bounds', () => {
    const m = metricsObject(a, { path, sha256: '', kind: 'direct run' }, { name: 'samegame', version: '0' }) as unknown as
      { cells: { base: { invalid: number }; alt: { invalid: number }; invalid_bounds: Record<string, number> }[] };
    expect(m.cells[0].base.invalid).toBe(10);
    expect(m.cells[0].alt.invalid).toBe(0);
    expect(m.cells[0].invalid_bounds.difference_lo).toBeCloseTo(0.71, 14);
  });
  it('the report lists the pair with its invalid shares and bounds under Table 2', () => {
    const blocks = table2Section(a).blocks;
    const t = blocks.find((b) => b.kind === 'table' && b.id === 'invalid-bounds') as { rows: { text?: string }[][] } | undefined;
    expect(t).toBeDefined();
    const cells = t!.rows[0].map((c) => (typeof c === 'string' ? c : c.text));
    expect(cells).toEqual(['M', 'prisoners-dilemma', '20.0 %, 0.0 %', '[0.040, 0.240]', '[0.950, 0.950]', '[0.710, 0.910]']);
  });

  it('a rates file knows nothing of invalid answers: Table 2 as the paper has it', () => {
    const rates = readRates(join(ROOT, 'data/lore-heydari-2024/rates.csv'), { base: 'business', alt: 'friend-sharing' });
    const text = table2Csv(analyzeTwoFraming(rates.table, { seed: 1, reps: 10, attenuation: 0.7, base: 'business', alt: 'friend-sharing' }));
    expect(text.split('\n')[0]).toBe('model,game,base_rate,base_count,alt_rate,alt_count,difference');
  });
});
