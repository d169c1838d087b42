import { cpSync, existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * Every file link of every report, clicked in Debian's chromium: the report is opened from a copy
 * of its output folder in another place (as after unzipping it elsewhere), each link is clicked,
 * and the request it makes must name a file that exists in that copy. Together the links must
 * cover every file the command wrote beside the report.
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const contexts: BrowserContext[] = [];
// A run, an analysis and a browser per case: generous limits for a busy machine (nothing waits on time).
const LONG = 240_000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).map((f) => f.split('\\').join('/')).sort();
}

async function ok(args: string[], cwd = ROOT): Promise<void> {
  const r = await runCli(args, { cwd });
  if (r.code !== 0) throw new Error(`samegame ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
}

/** Open the report, click each file link; returns [href attribute, file requested] per link. */
async function clickAll(report: string): Promise<{ href: string; file: string }[]> {
  const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'samegame-chromium-')), {
    executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 900 },
  });
  contexts.push(context);
  const reportUrl = pathToFileURL(report).href;
  let waiting: ((url: string) => void) | undefined;
  await context.setOffline(true);
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (!url.startsWith('file://')) return route.abort();
    if (url === reportUrl || !waiting) return route.continue();
    // A clicked link: note the file it asks for and answer "no content", so the report stays open.
    const done = waiting;
    waiting = undefined;
    done(url);
    return route.fulfill({ status: 204, body: '' });
  });
  const page = context.pages()[0] ?? await context.newPage();
  await page.goto(reportUrl);
  await page.waitForSelector('body[data-figures-done]', { timeout: 60_000 });
  const count = await page.locator('a[href]:not([href^="#"])').count();
  const out: { href: string; file: string }[] = [];
  for (let i = 0; i < count; i++) {
    const link = page.locator('a[href]:not([href^="#"])').nth(i);
    const href = (await link.getAttribute('href'))!;
    const requested = new Promise<string>((resolve) => { waiting = resolve; });
    await link.click();
    out.push({ href, file: fileURLToPath(await requested) });
  }
  return out;
}

/** Copy an output folder elsewhere, open its report there, click every link. */
async function checkLinks(outDir: string, reportRel: string): Promise<void> {
  const moved = join(mkdtempSync(join(tmpdir(), 'samegame-moved-')), 'unzipped');
  cpSync(outDir, moved, { recursive: true });
  const links = await clickAll(join(moved, reportRel));
  expect(links.length).toBeGreaterThan(0);
  for (const l of links) {
    expect(l.href, 'a relative link').not.toMatch(/^(?:[a-z]+:|\/)/i);
    expect(existsSync(l.file), `${l.href} → ${l.file}`).toBe(true);
    expect(relative(moved, l.file).startsWith('..'), `${l.href} stays inside the folder`).toBe(false);
  }
  const reached = new Set(links.map((l) => relative(moved, l.file).split('\\').join('/')));
  const written = filesUnder(moved).filter((f) => f !== reportRel && !f.endsWith('.sqlite') && !/\.sqlite-(?:wal|shm)$/.test(f));
  expect(written.filter((f) => !reached.has(f)), 'files without a link').toEqual([]);
}

beforeAll(() => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: the browser test needs Debian's chromium (apt-get install -y chromium)`);
});
afterAll(async () => { for (const c of contexts) await c.close(); });

describe('every file link of every report leads to its file (from a moved copy of the output folder)', () => {
  it('reproduce: reports/report.html', async () => {
    const out = mkdtempSync(join(tmpdir(), 'samegame-links-reproduce-'));
    await ok(['reproduce', '--out', out, '--reps', '300', '-q']);
    await checkLinks(out, 'reports/report.html');
  }, LONG);

  it('audit: reports/audit.html', async () => {
    const out = mkdtempSync(join(tmpdir(), 'samegame-links-audit-'));
    await ok(['audit', '--out', out, '--reps', '400', '--search-reps', '200', '-q']);
    await checkLinks(out, 'reports/audit.html');
  }, LONG);

  it('analyze of the quickstart run (with --compare): reports/report.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'samegame-links-analyze-'));
    await ok(['run', join(ROOT, 'data/designs/quickstart.yaml'), '--store', join(dir, 'q.sqlite'), '-q']);
    await ok(['analyze', join(dir, 'q.sqlite'), '--out', join(dir, 'out'), '--reps', '300', '--compare', 'data/lore-heydari-2024/rates.csv', '--map-model', 'Sim-A=GPT-4', '-q']);
    await checkLinks(join(dir, 'out'), 'reports/report.html');
  }, LONG);

  it('analyze of a context-enrichment run (selective): reports/report.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'samegame-links-selective-'));
    await ok(['run', join(ROOT, 'data/designs/hospital-transfer-sim.yaml'), '--store', join(dir, 'h.sqlite'), '-q']);
    await ok(['analyze', join(dir, 'h.sqlite'), '--out', join(dir, 'out'), '--reps', '300', '-q']);
    await checkLinks(join(dir, 'out'), 'reports/report.html');
  }, LONG);
});
