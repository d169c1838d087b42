import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { comparableRows, describeTables, settingChanges } from '../../src/analyses/reproduction/settings.js';
import { SHIPPED_SETTINGS } from '../../src/commands/expect.js';

/**
 * The shipped data compared by default with its publication only where the settings match the
 * paper's: a changed setting keeps the published numbers that do not depend on it (attenuation →
 * Table 3; replicates and interval method → interval endpoints; framings → Tables 2 and 3), says
 * so in one line and exits 0 unless a comparable number differs. An explicit --expect is compared
 * as given. The shipped file has 60 Table 2 numbers (12 rows × 5) and 24 Table 3 numbers (4 × 6).
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-expect-settings-'));
const rowsOf = (dir: string) => readFileSync(join(dir, 'reports', 'reproduction.csv'), 'utf8').trim().split('\n').slice(1);

describe('reproduce with a setting the published tables depend on', () => {
  it('--attenuation 0.5: exit 0, Table 2 only, one line saying so; the regenerate command names no --expect', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--attenuation', '0.5', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const said = r.stderr.split('\n').filter((l) => l.includes('settings differ'));
    expect(said).toEqual(["settings differ from the publication's (--attenuation 0.5, published 0.70): comparing Table 2 of data/lore-heydari-2024/published.csv, the numbers that do not depend on them (--expect data/lore-heydari-2024/published.csv compares every number)"]);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(60);
    expect(rows.every((l) => l.startsWith('table2,') && l.endsWith(',exact'))).toBe(true);
    const metrics = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
    expect(metrics.command).not.toContain('--expect');
    expect(metrics.command).toContain('--attenuation 0.5');
    expect(metrics.reproduction.selection).toBe(said[0]);
    expect(readFileSync(join(out, 'reports', 'report.html'), 'utf8')).toContain('Compared in part: settings differ from the publication&#39;s (--attenuation 0.5');
  });

  it('an explicit --expect is compared as given: Table 3 at a = 0.5 differs, exit 3', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--attenuation', '0.5', '--reps', '500', '--expect', 'data/lore-heydari-2024/published.csv', '--out', out, '-q']);
    expect(r.code).toBe(3);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(84);
    expect(rows.filter((l) => l.startsWith('table3,') && l.endsWith(',differs')).length).toBeGreaterThan(0);
  });

  it('--interval bca and --reps 400: the interval method is no setting change (endpoints are read as the publication computed them, percentile); --reps keeps Table 2 and Table 3\'s points', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--interval', 'bca', '--reps', '400', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("settings differ from the publication's (--reps 400, published 10000): comparing Table 2 and Table 3's points (not its interval endpoints) of");
    const rows = rowsOf(out);
    expect(rows).toHaveLength(60 + 8);
    expect(rows.filter((l) => /^table3,[^,]*,,(?:R|shift)_(?:lo|hi),/.test(l))).toEqual([]);
  });

  it('other framings: no published number is comparable, none compared, exit 0', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--base', 'friend-sharing', '--alt', 'business', '--reps', '200', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("settings differ from the publication's (--reps 200, published 10000; --base friend-sharing --alt business, published business vs friend-sharing): comparing no table of");
    expect(existsSync(join(out, 'reports', 'reproduction.csv'))).toBe(false);
  });
});

describe('which published numbers depend on which setting', () => {
  const all = (['table2', 'table3', 'family'] as const).flatMap((table) =>
    (table === 'table2' ? ['base_rate', 'difference'] : ['R', 'R_lo', 'shift_hi']).map((statistic) => ({ table, statistic })));
  const keep = (used: Partial<typeof SHIPPED_SETTINGS>) => comparableRows(all, settingChanges({ ...SHIPPED_SETTINGS, ...used }, SHIPPED_SETTINGS))
    .map((r) => `${r.table}.${r.statistic}`);

  it('the paper\'s settings keep everything', () => { expect(keep({})).toHaveLength(all.length); });
  it('attenuation: Table 3 goes; the unattenuated family table stays', () => {
    expect(keep({ attenuation: 1 })).toEqual(['table2.base_rate', 'table2.difference', 'family.R', 'family.R_lo', 'family.shift_hi']);
  });
  it('replicates or interval method: the endpoints go, the points stay', () => {
    const points = ['table2.base_rate', 'table2.difference', 'table3.R', 'family.R'];
    expect(keep({ reps: 2000 })).toEqual(points);
    expect(keep({ interval: 'bca' })).toEqual(points);
  });
  it('framings: Tables 2 and 3 go', () => { expect(keep({ alt: 'abstract' })).toEqual(['family.R', 'family.R_lo', 'family.shift_hi']); });
  it('describes what is kept', () => {
    const t = all.filter((r) => r.table !== 'family');
    expect(describeTables(t, comparableRows(t, settingChanges({ ...SHIPPED_SETTINGS, interval: 'bca' }, SHIPPED_SETTINGS))))
      .toBe("Table 2 and Table 3's points (not its interval endpoints)");
  });
});
