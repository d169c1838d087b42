import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_BINS } from '../../src/analyses/two-framing/figures.js';
import { XSS_MODEL, XSS_NOTE, xssRates } from '../render/xss-fixture.js';

/**
 * reports/report.html in a real browser: Debian's chromium driven by playwright-core, the page
 * opened from file:// with every non-file request aborted. Expected values come from the seed's
 * Tables 2 and 3 (Same Game, Different Story §5), not from the code.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'samegame.js');

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

interface Opened { context: BrowserContext; page: Page; problems: string[]; offFile: string[]; requests: string[] }
const opened: Opened[] = [];

async function open(html: string): Promise<Opened> {
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'samegame-chromium-')), {
    executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 },
  });
  const o: Opened = { context, page: context.pages()[0] ?? await context.newPage(), problems: [], offFile: [], requests: [] };
  opened.push(o);
  await context.setOffline(true);
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file://')) return route.continue();
    o.offFile.push(url);
    return route.abort();
  });
  o.page.on('request', (r) => { o.requests.push(r.url()); });
  o.page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') o.problems.push(`${m.type()}: ${m.text()}`); });
  o.page.on('pageerror', (e) => { o.problems.push(`pageerror: ${e.message}`); });
  await o.page.goto(pathToFileURL(html).href);
  await o.page.waitForSelector('body[data-figures-done]', { timeout: 30_000 });
  return o;
}

function report(args: string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'samegame-browser-'));
  const extra = args.includes('xss') ? ['--data', xssRates(out), '--reps', '200'] : [];
  const r = spawnSync(process.execPath, [BIN, 'report', '--out', out, '-q', ...extra], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`samegame report failed: ${r.stderr}`);
  return join(out, 'reports', 'report.html');
}

const rows = (page: Page, table: string) =>
  page.$$eval(`table#${table} tbody tr`, (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
const count = (page: Page, figure: string, selector: string) =>
  page.$$eval(`#figure-${figure} svg ${selector}`, (els) => els.length);
const interval = (s: string) => s.replace(/[[\]]/g, '').split(',').map(Number);

beforeAll(() => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: the browser test needs Debian's chromium (apt-get install -y chromium; .ci/run installs it)`);
  }
});

afterAll(async () => {
  for (const o of opened) await o.context.close();
});

describe('report.html of the shipped data in headless Chromium, offline', () => {
  let o: Opened;
  beforeAll(async () => { o = await open(report([])); });

  it('loads nothing but itself and logs no error or warning', () => {
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    expect(o.requests.every((u) => u.startsWith('file://'))).toBe(true);
  });

  it('every figure is drawn as an SVG with its marks', async () => {
    const state = await o.page.$$eval('figure[data-figure]', (fs) => fs.map((f) => [f.getAttribute('data-figure'), f.getAttribute('data-rendered'), f.querySelectorAll('svg').length]));
    expect(state).toEqual([['table2-dumbbell', 'svg', 1], ['table3-forest', 'svg', 1], ['cell-r2', 'svg', 1], ['bootstrap-pooled', 'svg', 1], ['reproduction', 'svg', 1]]);
    // 12 model–games × 2 framings (Table 2); 4 rows × 2 statistics (Table 3); 12 cells × raw and conservative.
    expect(await count(o.page, 'table2-dumbbell', 'g.mark-symbol.role-mark path')).toBe(24);
    expect(await count(o.page, 'table2-dumbbell', 'g.mark-rule.role-mark line')).toBe(12);
    expect(await count(o.page, 'table3-forest', 'g.mark-symbol.role-mark path')).toBe(8);
    expect(await count(o.page, 'table3-forest', 'g.mark-rule.role-mark line')).toBe(8);
    expect(await count(o.page, 'cell-r2', 'g.mark-symbol.role-mark path')).toBe(24);
    expect(await count(o.page, 'bootstrap-pooled', 'g.mark-rect.role-mark path')).toBe(2 * BOOTSTRAP_BINS);
    expect(await count(o.page, 'bootstrap-pooled', 'g.mark-rule.role-mark line')).toBe(6);
    // 84 published numbers, one point each.
    expect(await count(o.page, 'reproduction', 'g.mark-symbol.role-mark path')).toBe(84);
  });

  it('the reproduction table lists every published number with its verdict, coloured', async () => {
    const got = await rows(o.page, 'reproduction-values');
    expect(got).toHaveLength(84);
    expect(new Set(got.map((r) => r.at(-1)))).toEqual(new Set(['exact', 'within-mc']));
    expect(await o.page.$$eval('table#reproduction-values td.pass', (tds) => tds.length)).toBe(got.filter((r) => r.at(-1) === 'exact').length);
  });

  it('Table 2 holds the seed\'s rates, counts and differences', async () => {
    expect(await rows(o.page, 'table2')).toEqual(TABLE2);
  });

  it('Table 3 holds the seed\'s estimates (points exact to 3 decimals, interval ends within 0.003)', async () => {
    const got = await rows(o.page, 'table3');
    expect(got.map((r) => [r[0], r[1], r[3]])).toEqual(TABLE3.map((t) => [t[0], t[1], t[3]]));
    got.forEach((r, i) => {
      const want = [...TABLE3[i][2], ...TABLE3[i][4]];
      [...interval(r[2]), ...interval(r[4])].forEach((v, k) => expect(Math.abs(v - want[k])).toBeLessThanOrEqual(0.003 + 1e-9));
    });
  });

  it('the verification section lists every check as passed', async () => {
    const checks = await rows(o.page, 'checks');
    expect(checks.length).toBeGreaterThanOrEqual(8);
    expect(checks.every((c) => c[1] === 'pass')).toBe(true);
  });

  it('hovering a mark shows its values in a tooltip', async () => {
    await o.page.hover('#figure-table3-forest g.mark-symbol.role-mark path >> nth=0');
    const tip = o.page.locator('#vg-tooltip-element');
    await tip.waitFor({ state: 'visible', timeout: 5_000 });
    expect(await tip.innerText()).toMatch(/GPT-3\.5[\s\S]*0\.967/);
  });
});

describe('XSS probe: a model name and a note that are HTML', () => {
  let o: Opened;
  beforeAll(async () => { o = await open(report(['xss'])); });

  it('show as text and run nothing', async () => {
    expect(o.problems).toEqual([]);
    expect(await o.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await o.page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect((await rows(o.page, 'table2'))[0][0]).toBe(XSS_MODEL);
    expect((await rows(o.page, 'provenance-values')).map((r) => r[1])).toContain(XSS_NOTE);
  });

  it('appear as text in the drawn figures too', async () => {
    const texts = await o.page.$$eval('#figure-table2-dumbbell svg text', (ts) => ts.map((t) => t.textContent));
    expect(texts).toContain(XSS_MODEL);
    expect(o.offFile).toEqual([]);
  });
});

function cliOk(args: string[]): void {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`samegame ${args[0]} failed: ${r.stderr}`);
}

describe('the analyze report of a direct run (with the comparison) and audit.html, offline', () => {
  it('analyze: no console problems, every figure drawn, the comparison figure with its 8 cells', async () => {
    const out = mkdtempSync(join(tmpdir(), 'samegame-browser-analyze-'));
    const store = join(out, 'quick.sqlite');
    cliOk(['run', 'data/designs/quickstart.yaml', '--store', store, '-q']);
    cliOk(['analyze', store, '--out', out, '--reps', '500', '--compare', 'data/lore-heydari-2024/rates.csv', '--map-model', 'Sim-A=GPT-4', '-q']);
    const o = await open(join(out, 'reports', 'report.html'));
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    const state = await o.page.$$eval('figure[data-figure]', (fs) => fs.map((f) => [f.getAttribute('data-figure'), f.getAttribute('data-rendered')]));
    expect(state.map((s) => s[0])).toEqual(['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled', 'compare-direct-reconstructed']);
    expect(state.every((s) => s[1] === 'svg')).toBe(true);
    // Sim-A plays the four canonical games in business and friend-sharing: 8 matched cells.
    expect(await count(o.page, 'compare-direct-reconstructed', 'g.mark-symbol.role-mark path')).toBe(8);
  });

  it('audit.html: no console problems and both audit figures drawn', async () => {
    const out = mkdtempSync(join(tmpdir(), 'samegame-browser-audit-'));
    cliOk(['audit', '--out', out, '--reps', '400', '--search-reps', '200', '-q']);
    const o = await open(join(out, 'reports', 'audit.html'));
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    const state = await o.page.$$eval('figure[data-figure]', (fs) => fs.map((f) => [f.getAttribute('data-figure'), f.getAttribute('data-rendered')]));
    expect(state).toEqual([['audit-attenuation', 'svg'], ['audit-tipping-points', 'svg']]);
  });
});
