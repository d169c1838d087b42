/**
 * Wide tables stay inside their card in chromium: the meta-analysis report (its sources' SHA-256
 * column) and the Akata log's report (the per-model table). A table wider than its section scrolls
 * inside its box; a long hash breaks. Nothing runs past a card's right edge.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { launchChromium, open, type Opened } from '../helpers/browser.js';
import { AKATA_LOG } from '../helpers/akata-report.js';

const LONG = 240_000;
let browser: Browser | undefined;
const opened: Record<string, Opened> = {};

async function ok(args: string[]): Promise<void> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`samegame ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-browser-wide-'));
  const launched = launchChromium();
  await Promise.all([
    ok(['meta', 'data/meta/lore-heydari.yaml', '--out', join(dir, 'meta'), '-q']),
    ok(['analyze', '--trials', AKATA_LOG, '--format', 'akata', '--out', join(dir, 'akata'), '--reps', '200', '-q']),
  ]);
  browser = await launched;
  opened.meta = await open(browser, join(dir, 'meta'), 'reports/report.html');
  opened.akata = await open(browser, join(dir, 'akata'), 'reports/report.html');
}, LONG);

afterAll(async () => { await browser?.close(); });

/**
 * Every table that runs past its card: wider than the box it sits in (a table-wrap that would
 * have to scroll, or a table with no box) or with a right edge past the card's inner edge.
 */
async function overflowing(o: Opened): Promise<string[]> {
  return o.page.$$eval('section', (sections) => sections.flatMap((s) => {
    const inner = s.getBoundingClientRect().right - parseFloat(getComputedStyle(s).paddingRight) + 0.5;
    return [...s.querySelectorAll('table')].filter((t) => {
      const box = t.parentElement!;
      return box.scrollWidth > box.clientWidth + 0.5 || Math.min(t.getBoundingClientRect().right, box.getBoundingClientRect().right) > inner;
    }).map((t) => `${s.id}: ${t.id || t.querySelector('caption')?.textContent || 'table'} ${t.scrollWidth} px in ${t.parentElement!.clientWidth} px`);
  }));
}

describe('wide tables in chromium', () => {
  for (const name of ['meta', 'akata']) {
    it(`the ${name} report: no table runs past its card's right edge`, async () => {
      expect(await overflowing(opened[name])).toEqual([]);
      expect(await opened[name].page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    });
  }

  it('the meta report draws its plots (forest, funnel, Baujat) at one scale, so their text has one size', async () => {
    const scales = await opened.meta.page.$$eval('figure .chart svg', (svgs) => svgs.map((g) => g.getBoundingClientRect().width / Number(g.getAttribute('width'))));
    expect(scales.length).toBeGreaterThanOrEqual(2);
    for (const s of scales.slice(1)) expect(s).toBeCloseTo(scales[0], 2);
  });

  it('a narrow window: a table wider than its card scrolls inside its box, the page does not', async () => {
    const page = opened.meta.page;
    await page.setViewportSize({ width: 560, height: 900 });
    const boxes = await page.$$eval('.table-wrap', (ws) => ws.map((w) => getComputedStyle(w).overflowX));
    expect(new Set(boxes)).toEqual(new Set(['auto']));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
