/**
 * The report of the shipped Akata et al. log in chromium (the same launch as report.test.ts):
 * every row of every table has as many cells as its header; the round figure, as the browser
 * draws it, is at most 2,000 px tall with an x axis in every panel; `--names` turns act_gpt4 into
 * the given name in the drawn figure and in the report. test/commands/akata-report.test.ts checks
 * the same on the files, where no browser runs; the audit page's width is checked here too.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { launchChromium, open, type Opened } from '../helpers/browser.js';
import { AKATA_LOG } from '../helpers/akata-report.js';

const LONG = 240_000;
const NAME = 'GPT-4 (June 2023)';
let browser: Browser | undefined;
let o: Opened;
let audit: Opened;

async function ok(args: string[]): Promise<void> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`samegame ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
}

beforeAll(async () => {
  const launched = launchChromium();
  const dir = mkdtempSync(join(tmpdir(), 'samegame-browser-akata-'));
  const names = join(dir, 'names.csv');
  writeFileSync(names, `id,name\nact_gpt4,${NAME}\n`);
  const written = Promise.all([
    ok(['analyze', '--trials', AKATA_LOG, '--format', 'akata', '--names', names, '--out', join(dir, 'out'), '--reps', '300', '-q']),
    ok(['audit', '--out', join(dir, 'audit'), '--reps', '400', '--search-reps', '200', '-q']),
  ]);
  const [b, w] = await Promise.allSettled([launched, written]);
  if (b.status === 'fulfilled') browser = b.value;
  if (b.status === 'rejected') throw b.reason;
  if (w.status === 'rejected') throw w.reason;
  o = await open(browser!, join(dir, 'out'), 'reports/report.html');
  audit = await open(browser!, join(dir, 'audit'), 'reports/audit.html');
}, LONG);

afterAll(async () => { await browser?.close(); });

describe('the Akata log\'s report in chromium', () => {
  it('every row of every table has the header\'s number of cells', async () => {
    const tables = await o.page.$$eval('table', (ts) => ts.map((t) => ({
      id: t.id, header: t.querySelectorAll('thead th').length, rows: [...t.querySelectorAll('tbody tr')].map((r) => r.children.length),
    })));
    expect(tables.length).toBeGreaterThanOrEqual(4);
    for (const t of tables) for (const [i, n] of t.rows.entries()) expect(n, `${t.id} row ${i + 1}`).toBe(t.header);
  });

  it('the round figure: at most 2,000 px tall, an x axis in each of its five panels', async () => {
    const fig = o.page.locator('#figure-repeated-rounds .chart svg');
    const box = await fig.boundingBox();
    expect(box!.height * 2).toBeLessThanOrEqual(2000); // drawn at the PNG's 2 px per px
    const axes = await o.page.$$eval('#figure-repeated-rounds .chart svg g.role-axis-title text', (ts) => ts.map((t) => t.textContent));
    expect(axes.filter((t) => t === 'Round')).toHaveLength(5);
  });

  it('--names: act_gpt4 is the given name in the figure and the report', async () => {
    const text = await o.page.locator('#figure-repeated-rounds .chart svg').textContent();
    expect(text).toContain(NAME);
    const cells = await o.page.$$eval('#repeated-cells-table tbody td:first-child', (tds) => tds.map((t) => t.textContent));
    expect(cells).toContain(NAME);
    expect(cells).not.toContain('act_gpt4');
  });

  it('the audit page fits 1,400 px: its wide tables scroll inside their box', async () => {
    await audit.page.setViewportSize({ width: 1400, height: 900 });
    const width = await audit.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1400);
    const first = await audit.page.locator('main section').first().textContent();
    expect(first).toMatch(/conclusions tested hold/);
  });
});
