import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_BINS } from '../../src/analyses/two-framing/figures.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { checkLinks, launchChromium, open, type Opened } from '../helpers/browser.js';
import { XSS_MODEL, XSS_NOTE, xssRates } from '../render/xss-fixture.js';
import { pngPixel } from '../helpers/digitized-figure.js';

/**
 * The reports in a real browser: headless Chromium (test/helpers/browser.ts) driven by playwright-core, one browser for the
 * file, one page per report. Each report is opened from a copy of its output folder in another
 * place (as after unzipping it elsewhere), from file://, with every non-file request aborted.
 * Expected values come from the seed's Tables 2 and 3 (Same Game, Different Story §5), not from
 * the code. Last, every file link of each report is clicked: the request it makes must name a file
 * that exists in that copy, and together the links must cover every file the command wrote beside
 * the report.
 */
const DIGITIZED = join(ROOT, 'data', 'examples', 'digitized');
// The commands and a browser: generous limits for a busy machine (nothing waits on time).
const LONG = 240_000;

// Same Game, Different Story Table 2 (straight apostrophes, as in the data file): rate (count) per framing, difference.
const TABLE2 = [
  ['GPT-3.5', "Prisoner's Dilemma", '0.087 (26)', '0.323 (97)', '0.237'],
  ['GPT-3.5', 'Snowdrift / Chicken', '0.130 (39)', '0.340 (102)', '0.210'],
  ['GPT-3.5', 'Stag Hunt', '0.167 (50)', '0.337 (101)', '0.170'],
  ['GPT-3.5', "Prisoner's Delight / Harmony", '0.190 (57)', '0.433 (130)', '0.243'],
  ['GPT-4', "Prisoner's Dilemma", '0.000 (0)', '0.987 (296)', '0.987'],
  ['GPT-4', 'Snowdrift / Chicken', '0.000 (0)', '0.990 (297)', '0.990'],
  ['GPT-4', 'Stag Hunt', '0.817 (245)', '0.997 (299)', '0.180'],
  ['GPT-4', "Prisoner's Delight / Harmony", '1.000 (300)', '1.000 (300)', '0.000'],
  ['LLaMa-2', "Prisoner's Dilemma", '0.033 (10)', '0.913 (274)', '0.880'],
  ['LLaMa-2', 'Snowdrift / Chicken', '0.140 (42)', '0.930 (279)', '0.790'],
  ['LLaMa-2', 'Stag Hunt', '0.567 (170)', '1.000 (300)', '0.433'],
  ['LLaMa-2', "Prisoner's Delight / Harmony", '0.860 (258)', '1.000 (300)', '0.140'],
];
// Same Game, Different Story Table 3: model, R, 95 % CI, action shift, 95 % CI.
const TABLE3 = [
  ['GPT-3.5', '0.967', [0.956, 0.975], '0.150', [0.127, 0.173]],
  ['GPT-4', '0.651', [0.639, 0.661], '0.377', [0.369, 0.386]],
  ['LLaMa-2', '0.731', [0.710, 0.750], '0.393', [0.377, 0.408]],
  ['Pooled', '0.783', [0.774, 0.790], '0.307', [0.297, 0.316]],
] as const;

let browser: Browser | undefined;
const tmp = (what: string) => mkdtempSync(join(tmpdir(), `samegame-browser-${what}-`));

async function ok(args: string[]): Promise<void> {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`samegame ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
}

const rows = (page: Page, table: string) =>
  page.$$eval(`table#${table} tbody tr`, (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
const count = (page: Page, figure: string, selector: string) =>
  page.$$eval(`#figure-${figure} svg ${selector}`, (els) => els.length);
const interval = (s: string) => s.replace(/[[\]]/g, '').split(',').map(Number);
const figureStates = (page: Page) =>
  page.$$eval('figure[data-figure]', (fs) => fs.map((f) => [f.getAttribute('data-figure'), f.getAttribute('data-rendered')]));

/**
 * The shipped data's reproduce output as committed (reports/ and figures/, which
 * test/commands/committed-outputs.test.ts regenerates byte for byte with `samegame reproduce`):
 * copied without the files the audit writes beside it (those `auditDir` holds), so the folder
 * holds what reproduce writes, as after running it.
 */
function committedReproduce(auditDir: string): string {
  const dir = tmp('reproduce');
  for (const sub of ['reports', 'figures']) {
    mkdirSync(join(dir, sub));
    for (const f of readdirSync(join(ROOT, sub))) if (!existsSync(join(auditDir, sub, f))) copyFileSync(join(ROOT, sub, f), join(dir, sub, f));
  }
  return dir;
}

// The outputs every case opens, each written once: the shipped data's reproduce (committed; its
// report.html is the one `samegame report` writes), the XSS probe's report, the analyze report of a direct
// quickstart run with the comparison, audit.html, and the analyze report of a context-enrichment run.
const dirs = { shipped: '', xss: '', analyze: '', audit: '', selective: '', digitized: '' };
const pages: Partial<Record<keyof typeof dirs, Opened>> = {};
const page = (k: keyof typeof dirs): Opened => pages[k]!;

beforeAll(async () => {
  const launched = launchChromium();
  // The commands run in this process, one at a time, while the browser starts.
  const written = (async () => {
    dirs.xss = tmp('xss');
    await ok(['report', '--out', dirs.xss, '-q', '--data', xssRates(dirs.xss), '--reps', '200']);
    dirs.analyze = tmp('analyze');
    await ok(['run', join(ROOT, 'data/designs/quickstart.yaml'), '--store', join(dirs.analyze, 'q.sqlite'), '-q']);
    await ok(['analyze', join(dirs.analyze, 'q.sqlite'), '--out', join(dirs.analyze, 'out'), '--reps', '500', '--compare', 'data/lore-heydari-2024/rates.csv', '--map-model', 'Sim-A=GPT-4', '-q']);
    dirs.audit = tmp('audit');
    await ok(['audit', '--out', dirs.audit, '--reps', '400', '--search-reps', '200', '-q']);
    dirs.shipped = committedReproduce(dirs.audit);
    dirs.selective = tmp('selective');
    await ok(['run', join(ROOT, 'data/designs/hospital-transfer-sim.yaml'), '--store', join(dirs.selective, 'h.sqlite'), '-q']);
    await ok(['analyze', join(dirs.selective, 'h.sqlite'), '--out', join(dirs.selective, 'out'), '--reps', '300', '-q']);
    dirs.digitized = tmp('digitized');
    await ok(['reproduce', '--digitized', join(DIGITIZED, 'project.tar'), '--layout', join(DIGITIZED, 'layout.csv'), '--out', dirs.digitized, '--reps', '400', '-q']);
  })();
  // Settle both before either fails, so that a browser started is always closed.
  const [b, w] = await Promise.allSettled([launched, written]);
  if (b.status === 'fulfilled') browser = b.value;
  if (b.status === 'rejected') throw b.reason;
  if (w.status === 'rejected') throw w.reason;
  const cases: [keyof typeof dirs, string, string][] = [['shipped', dirs.shipped, 'reports/report.html'], ['xss', dirs.xss, 'reports/report.html'],
    ['analyze', join(dirs.analyze, 'out'), 'reports/report.html'], ['audit', dirs.audit, 'reports/audit.html'], ['selective', join(dirs.selective, 'out'), 'reports/report.html'],
    ['digitized', dirs.digitized, 'reports/report.html']];
  await Promise.all(cases.map(async ([k, dir, rel]) => { pages[k] = await open(browser!, dir, rel); }));
}, LONG);

afterAll(async () => { await browser?.close(); });

describe('report.html of the shipped data in headless Chromium, offline', () => {
  it('loads nothing but itself and logs no error or warning', () => {
    const o = page('shipped');
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    expect(o.requests.every((u) => u.startsWith('file://'))).toBe(true);
  });

  it('every figure is drawn as an SVG with its marks', async () => {
    const { page: p } = page('shipped');
    const state = await p.$$eval('figure[data-figure]', (fs) => fs.map((f) => [f.getAttribute('data-figure'), f.getAttribute('data-rendered'), f.querySelectorAll('svg').length]));
    expect(state).toEqual([['table2-dumbbell', 'svg', 1], ['table3-forest', 'svg', 1], ['cell-r2', 'svg', 1], ['bootstrap-pooled', 'svg', 1], ['reproduction', 'svg', 1]]);
    // 12 model–games × 2 framings (Table 2); 4 rows × 2 statistics (Table 3); 12 cells × raw and conservative.
    expect(await count(p, 'table2-dumbbell', 'g.mark-symbol.role-mark path')).toBe(24);
    expect(await count(p, 'table2-dumbbell', 'g.mark-rule.role-mark line')).toBe(12);
    expect(await count(p, 'table3-forest', 'g.mark-symbol.role-mark path')).toBe(8);
    expect(await count(p, 'table3-forest', 'g.mark-rule.role-mark line')).toBe(8);
    expect(await count(p, 'cell-r2', 'g.mark-symbol.role-mark path')).toBe(24);
    expect(await count(p, 'bootstrap-pooled', 'g.mark-rect.role-mark path')).toBe(2 * BOOTSTRAP_BINS);
    expect(await count(p, 'bootstrap-pooled', 'g.mark-rule.role-mark line')).toBe(6);
    // 84 published numbers, one point each.
    expect(await count(p, 'reproduction', 'g.mark-symbol.role-mark path')).toBe(84);
  });

  it('the reproduction table lists every published number with its verdict, coloured', async () => {
    const { page: p } = page('shipped');
    // The numbers that are not exact in the table, the exact ones folded under it (a table of the same columns in a <details>).
    const shown = await rows(p, 'reproduction-values');
    const folded = await p.$$eval('table#reproduction-values', ([t]) => Array.from(
      t.closest('.table-wrap')!.nextElementSibling!.querySelectorAll('tbody tr'), (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
    expect(new Set(shown.map((r) => r.at(-1)))).toEqual(new Set(['within-mc']));
    expect(new Set(folded.map((r) => r.at(-1)))).toEqual(new Set(['exact']));
    expect(shown.length + folded.length).toBe(84);
    expect(await p.$$eval('details td.v-exact', (tds) => tds.length)).toBe(folded.length);
    expect(await p.$$eval('table#reproduction-values td.v-within-mc', (tds) => tds.length)).toBe(shown.length);
  });

  it('Table 2 holds the seed\'s rates, counts and differences', async () => {
    expect(await rows(page('shipped').page, 'table2')).toEqual(TABLE2);
  });

  it('Table 3 holds the seed\'s estimates (points exact to 3 decimals, interval ends within 0.003)', async () => {
    const got = await rows(page('shipped').page, 'table3');
    expect(got.map((r) => [r[0], r[1], r[3]])).toEqual(TABLE3.map((t) => [t[0], t[1], t[3]]));
    got.forEach((r, i) => {
      const want = [...TABLE3[i][2], ...TABLE3[i][4]];
      [...interval(r[2]), ...interval(r[4])].forEach((v, k) => expect(Math.abs(v - want[k])).toBeLessThanOrEqual(0.003 + 1e-9));
    });
  });

  it('the verification section lists every check as passed', async () => {
    const checks = await rows(page('shipped').page, 'checks');
    expect(checks.length).toBeGreaterThanOrEqual(8);
    expect(checks.every((c) => c[1] === 'pass')).toBe(true);
  });

  it('hovering a mark shows its values in a tooltip', async () => {
    const { page: p } = page('shipped');
    await p.hover('#figure-table3-forest g.mark-symbol.role-mark path >> nth=0');
    const tip = p.locator('#vg-tooltip-element');
    await tip.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await tip.innerText()).toMatch(/GPT-3\.5[\s\S]*0\.967/);
  });
});

describe('XSS probe: a model name and a note that are HTML', () => {
  it('show as text and run nothing', async () => {
    const o = page('xss');
    expect(o.problems).toEqual([]);
    expect(await o.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await o.page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect((await rows(o.page, 'table2'))[0][0]).toBe(XSS_MODEL);
    expect((await rows(o.page, 'provenance-values')).map((r) => r[1])).toContain(XSS_NOTE);
  });

  it('appear as text in the drawn figures too', async () => {
    const o = page('xss');
    const texts = await o.page.$$eval('#figure-table2-dumbbell svg text', (ts) => ts.map((t) => t.textContent));
    expect(texts).toContain(XSS_MODEL);
    expect(o.offFile).toEqual([]);
  });
});

describe('the analyze report of a direct run (with the comparison) and audit.html, offline', () => {
  it('analyze: no console problems, every figure drawn, the comparison figure with its 8 cells', async () => {
    const o = page('analyze');
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    const state = await figureStates(o.page);
    expect(state.map((s) => s[0])).toEqual(['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled', 'compare-direct-reconstructed']);
    expect(state.every((s) => s[1] === 'svg')).toBe(true);
    // Sim-A plays the four canonical games in business and friend-sharing: 8 matched cells.
    expect(await count(o.page, 'compare-direct-reconstructed', 'g.mark-symbol.role-mark path')).toBe(8);
  });

  it('audit.html: no console problems and both audit figures drawn', async () => {
    const o = page('audit');
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    expect(await figureStates(o.page)).toEqual([['audit-attenuation', 'svg'], ['audit-tipping-points', 'svg']]);
  });
});

describe('the report of a digitized figure (WebPlotDigitizer .tar): the image with every point over it, offline', () => {
  it('no console problems, nothing off file://, the two-framing figures drawn', async () => {
    const o = page('digitized');
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    expect((await figureStates(o.page)).every((s) => s[1] === 'svg')).toBe(true);
  });

  it('the embedded image decodes in the page at its size, and every point sits at its click with its cell as label', async () => {
    const { page: p } = page('digitized');
    const size = await p.$eval('#digitized-figure svg image', (img) => new Promise<[number, number]>((resolve, reject) => {
      const probe = new Image();
      probe.onload = () => resolve([probe.naturalWidth, probe.naturalHeight]);
      probe.onerror = () => reject(new Error('the data URI did not load'));
      probe.src = img.getAttribute('href')!;
    }));
    expect(size).toEqual([1314, 1350]);
    const marks = await p.$$eval('#digitized-figure g.mark', (gs) => gs.map((g) => {
      const c = g.querySelector('circle')!;
      return [g.getAttribute('data-cell'), Number(c.getAttribute('cx')), Number(c.getAttribute('cy')), g.querySelectorAll('line').length, g.querySelector('text')!.textContent];
    }));
    const csvRows = readFileSync(join(page('digitized').moved, 'reports', 'digitization.csv'), 'utf8').trim().split('\n').slice(1);
    expect(marks).toHaveLength(24);
    const layout = readFileSync(join(DIGITIZED, 'layout.csv'), 'utf8').trim().split('\n').slice(1);
    marks.forEach((m, i) => {
      const [, , model, game, framing] = layout[i].split(',');
      const cell = `${model} / ${game} / ${framing}`;
      expect([m[0], m[4], m[3]]).toEqual([cell, String(i + 1), 3]); // numbered as in the points table; whisker and its two caps
      const at = csvRows[i].split(',').slice(-8, -6).map(Number);
      expect(Math.abs((m[1] as number) - at[0]) + Math.abs((m[2] as number) - at[1])).toBeLessThan(0.002);
    });
  });

  it('the point numbers stay inside the image and clear of one another; the paragraph above is not overrun', async () => {
    const { page: p } = page('digitized');
    const svg = (await p.locator('#digitized-figure svg').boundingBox())!;
    const texts = await p.$$eval('#digitized-figure g.mark text', (ts) => ts.map((t) => { const r = t.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }));
    const above = await p.$eval('#digitized-figure', (f) => f.previousElementSibling!.getBoundingClientRect().bottom);
    expect(texts).toHaveLength(24);
    for (const [l, t, r, b] of texts) {
      expect(l >= svg.x - 0.5 && r <= svg.x + svg.width + 0.5 && t >= svg.y - 0.5 && b <= svg.y + svg.height + 0.5).toBe(true);
      expect(t).toBeGreaterThanOrEqual(above);
    }
    const clash = texts.flatMap((a, i) => texts.slice(i + 1).filter((b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]).map(() => i + 1));
    expect(clash).toEqual([]);
  });

  it('drawn on screen: the pixels under a point are the mark\'s red, the figure\'s pixels elsewhere', async () => {
    const { page: p } = page('digitized');
    const svg = p.locator('#digitized-figure svg');
    await svg.scrollIntoViewIfNeeded();
    const box = (await svg.boundingBox())!;
    const circle = (await p.locator('#digitized-figure g.mark circle').first().boundingBox())!;
    const shot = await svg.screenshot();
    const px = (x: number, y: number) => pngPixel(shot, Math.round(x), Math.round(y)).slice(0, 3);
    const [r, g, b] = px(circle.x + circle.width / 2 - box.x, circle.y + circle.height / 2 - box.y);
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(90);
    expect(b).toBeLessThan(90);
    // The image is there: the top-left corner of the figure is its white background, not the page's grey.
    expect(px(2, 2)).toEqual([255, 255, 255]);
  });
});

describe('every file link of every report leads to its file (from a moved copy of the output folder)', () => {
  it('reproduce of a digitized figure: reports/report.html', () => checkLinks(page('digitized'), 'reports/report.html'));
  it('reproduce: reports/report.html', () => checkLinks(page('shipped'), 'reports/report.html'));
  it('audit: reports/audit.html', () => checkLinks(page('audit'), 'reports/audit.html'));
  it('analyze of the quickstart run (with --compare): reports/report.html', () => checkLinks(page('analyze'), 'reports/report.html'));
  it('analyze of a context-enrichment run (selective): reports/report.html', () => checkLinks(page('selective'), 'reports/report.html'));
});
