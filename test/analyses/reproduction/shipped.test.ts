import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../../src/commands/reproduce.js';
import { compareWithPublished, reproductionSentence, reproductionCheck, reproductionSection } from '../../../src/analyses/reproduction/index.js';
import { parsePublished, SHIPPED_PUBLISHED } from '../../../src/sources/published.js';
import { MemoryLogger } from '../../../src/core/logger.js';
import { stat } from '../../../src/core/names.js';
import { quantileSorted } from '../../../src/stats/quantile.js';
import { ROOT } from '../../helpers/cli.js';

const SHIPPED = readFileSync(join(ROOT, SHIPPED_PUBLISHED), 'utf8');
const published = (text: string) => ({ ...parsePublished(text, 'p.csv'), sha256: 'x' });

describe('the shipped data against the paper\'s Tables 2 and 3', () => {
  const logger = new MemoryLogger();
  const res = reproduceTables({ logger });
  const rep = res.reproduction!;

  it('reproduce on the shipped rates compares with the shipped published values, and says so', () => {
    expect(rep.path).toBe(SHIPPED_PUBLISHED);
    expect(logger.infos[0]).toBe('comparing with the published values in data/lore-heydari-2024/published.csv (the shipped data\'s paper tables; --expect FILE to use another)');
    expect(res.files.map((f) => f.path.split('/').slice(-2).join('/'))).toContain('reports/reproduction.csv');
  });

  it('every Table 2 number and every Table 3 point is exact', () => {
    const points = rep.rows.filter((r) => r.table === 'table2' || !/_(lo|hi)$/.test(r.statistic));
    expect(points).toHaveLength(60 + 8);
    for (const r of points) expect([r.table, r.model, r.game, r.statistic, r.verdict]).toEqual([r.table, r.model, r.game, r.statistic, 'exact']);
    for (const r of points) expect([r.band, r.tolerance]).toEqual([undefined, r.statistic.endsWith('count') ? 0.5 : 0.0005]);
  });

  it('every Table 3 interval endpoint is exact or within Monte Carlo error, its band around the computed value', () => {
    const ends = rep.rows.filter((r) => r.table === 'table3' && /_(lo|hi)$/.test(r.statistic));
    expect(ends).toHaveLength(16);
    // 16 endpoints at α = 0.05: z = Φ⁻¹(1 − 0.05/32) = 2.955166847497834 (scipy); the paper's B = 10,000 (Table 1).
    expect(rep.rule).toMatchObject({ alpha: 0.05, k: 16, computedReps: 10_000, publishedReps: [10_000] });
    expect(rep.rule.z).toBeCloseTo(2.955166847497834, 12);
    for (const r of ends) {
      expect(['exact', 'within-mc']).toContain(r.verdict);
      expect([r.publishedReps, r.level]).toEqual([10_000, r.statistic.endsWith('_lo') ? (1 - 0.95) / 2 : 1 - (1 - 0.95) / 2]);
      const [lo, hi] = r.band!;
      expect(lo).toBeLessThan(r.computed);
      expect(hi).toBeGreaterThan(r.computed);
      expect(r.tolerance).toBeCloseTo(r.difference <= 0 ? hi + 0.0005 - r.computed : r.computed - lo + 0.0005, 15);
    }
    // The two endpoints one rounding step from what numpy and samegame agree on (0.9553, 0.3167) are among them.
    const notExact = ends.filter((r) => r.verdict !== 'exact').map((r) => `${r.model} ${r.statistic}`);
    expect(notExact).toEqual(expect.arrayContaining(['GPT-3.5 R_lo', 'Pooled shift_hi']));
    expect(rep.counts).toEqual({ exact: 84 - notExact.length, 'within-mc': notExact.length, differs: 0, missing: 0 });
  });

  it('the sentence counts the verdicts and names every endpoint that is not exact; the check passes', () => {
    const s = reproductionSentence(rep);
    expect(s).toMatch(/^84 published numbers: \d+ exact, \d+ within Monte Carlo error \(Table 3 GPT-3\.5 R_lo: 0\.956 published, 0\.95526 computed; .*Table 3 Pooled shift_hi: 0\.316 published, 0\.31675 computed\), 0 differ\.$/);
    for (const r of rep.rows.filter((x) => x.verdict === 'within-mc')) expect(s).toContain(`Table 3 ${r.model} ${r.statistic}: ${r.published} published`);
    expect(res.verification.checks.at(-1)).toMatchObject({ name: 'published_values_reproduced', passed: true });
  });

  it('another rates file uses published values only when given; false turns the default off', () => {
    const other = reproduceTables({ data: join(ROOT, 'test/fixtures/rates/other.csv'), base: 'plain', alt: 'story', reps: 200 });
    expect(other.reproduction).toBeUndefined();
    expect(other.verification.checks.map((c) => c.name)).not.toContain('published_values_reproduced');
    expect(reproduceTables({ reps: 50, expect: false }).reproduction).toBeUndefined();
  });

  describe('a planted wrong value and an unknown model', () => {
    const planted = SHIPPED.replace('table3,GPT-4,,shift,0.377,', 'table3,GPT-4,,shift,0.387,')
      + 'table3,GPT-5,,R,0.900,10000,not in the data\n';
    const p = compareWithPublished(res, published(planted));

    it('exactly the changed shift differs, the unknown model is missing, everything else as before', () => {
      expect(p.rows.filter((r) => r.verdict === 'differs').map((r) => [r.table, r.model, r.statistic, r.published])).toEqual([['table3', 'GPT-4', 'shift', '0.387']]);
      expect(p.rows.filter((r) => r.verdict === 'missing').map((r) => [r.model, r.statistic, r.line])).toEqual([['GPT-5', 'R', 86]]);
      const before = new Map(rep.rows.map((r) => [JSON.stringify([r.table, r.model, r.game, r.statistic]), r.verdict]));
      const changed = p.rows.filter((r) => before.get(JSON.stringify([r.table, r.model, r.game, r.statistic])) !== r.verdict);
      expect(changed.map((r) => r.model)).toEqual(['GPT-4', 'GPT-5']);
      const d = p.rows.find((r) => r.verdict === 'differs')!;
      expect(d.difference).toBeCloseTo(0.3774166666666667 - 0.387, 15);
      expect(d.tolerance).toBe(0.0005);
    });

    it('the check fails naming both rows, and the report section shows them', () => {
      const c = reproductionCheck(p);
      expect(c.passed).toBe(false);
      expect(c.failures).toEqual([
        'Table 3 GPT-4 shift: published 0.387, computed 0.37742; |difference| 0.00958 > tolerance 0.00050',
        'Table 3 GPT-5 R: published 0.900, missing from the computation (no such model, game or statistic)',
      ]);
      expect(reproductionSentence(p)).toMatch(/, 1 differ \(Table 3 GPT-4 shift: 0\.387 published, 0\.37742 computed\), 1 missing \(Table 3 GPT-5 R\)\.$/);
      type Shown = { rows: { text?: string; verdict?: string }[][]; folded?: { rows: { text?: string }[][] } };
      const table = reproductionSection(p).blocks.find((b) => b.kind === 'table')! as unknown as Shown;
      // The numbers that are not exact come first, in the verdict's colour; the exact ones are folded below.
      expect(table.rows.map((r) => r.at(-1))).toEqual(expect.arrayContaining([{ text: 'differs', verdict: 'differs' }, { text: 'missing', verdict: 'missing' }]));
      expect(table.rows.every((r) => (r.at(-1) as { text: string }).text !== 'exact')).toBe(true);
      expect(table.folded!.rows.every((r) => (r.at(-1) as { text: string }).text === 'exact')).toBe(true);
      expect(table.rows.length + table.folded!.rows.length).toBe(p.rows.length);
    });
  });

  it('BCa endpoints are judged at their adjusted levels: the level the endpoint was read at, and the band around it', () => {
    // A BCa publication (--published-method bca) named explicitly (compared as given); a percentile one is compared at 2.5 % and 97.5 % (published-method.test.ts).
    const bca = reproduceTables({ interval: 'bca', publishedMethod: 'bca', reps: 2000, expect: join(ROOT, SHIPPED_PUBLISHED) });
    const ends = bca.reproduction!.rows.filter((r) => r.table === 'table3' && /_(lo|hi)$/.test(r.statistic));
    const z = bca.reproduction!.rule.z;
    for (const r of ends) {
      const name = stat(r.statistic.split('_')[0], r.model);
      const j = bca.analysis.boot.indexOf(name);
      const sorted = bca.analysis.boot.replicates.slice(j * 2000, (j + 1) * 2000).sort();
      // The endpoint is the R-7 quantile of its replicates at the recorded level (sorting, not selection) …
      expect(quantileSorted(sorted, r.level!)).toBe(r.computed);
      // … and the band reads the same replicates at that level ± δ (B_c = 2,000, B_p = 10,000 from the shipped file).
      const d = z * Math.sqrt(r.level! * (1 - r.level!) * (1 / 2000 + 1 / 10_000));
      expect(r.band![0]).toBe(Math.min(r.computed, quantileSorted(sorted, Math.max(0, r.level! - d))));
      expect(r.band![1]).toBe(Math.max(r.computed, quantileSorted(sorted, Math.min(1, r.level! + d))));
    }
    expect(ends.filter((r) => Math.abs(r.level! - (r.statistic.endsWith('_lo') ? 0.025 : 0.975)) > 1e-3).length).toBeGreaterThan(0);
  });

  it('family statistics are compared when the data has more than two framings; per-model rows may name game All', () => {
    const other = reproduceTables({ data: join(ROOT, 'test/fixtures/rates/other.csv'), base: 'plain', alt: 'story', reps: 400 });
    const fam = other.analysis.boot.get('Rfam["Alpha"]');
    const text = `table,model,game,statistic,published\nfamily,Alpha,All,R,${fam.point.toFixed(3)}\nfamily,Alpha,,R_lo,${fam.lo.toFixed(3)}\nfamily,Alpha,Nope,R,0.5\n`;
    const p = compareWithPublished(other, published(text));
    expect(p.rows.map((r) => r.verdict)).toEqual(['exact', 'exact', 'missing']);
    expect(p.rows[1].band![0]).toBeLessThan(p.rows[1].band![1]);
    expect(compareWithPublished(res, published(text)).rows.map((r) => r.verdict)).toEqual(['missing', 'missing', 'missing']);
  });
});
