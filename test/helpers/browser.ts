import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * The browser tests' shared steps: one launch of headless Chromium, a report opened from a moved
 * copy of its output folder from file:// with every non-file request aborted, and the check that
 * every file link of a report leads to its file.
 *
 * The browser is Debian's chromium when /usr/bin/chromium exists, and otherwise the Chromium build
 * of the npm package @sparticuz/chromium (a dev dependency, so `npm ci` brings it): no system
 * package is needed for the tests.
 */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const SYSTEM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The npm package's Chromium, unpacked once per machine into node_modules/.cache (the package unpacks
 * into os.tmpdir(): a child process does it with TMPDIR set to a fresh folder, which is then renamed
 * into place, so test files started together never see a half-written binary).
 */
export async function packagedChromium(): Promise<string> {
  const version = (JSON.parse(readFileSync(join(ROOT, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as { version: string }).version;
  const cache = join(ROOT, 'node_modules', '.cache', `sparticuz-chromium-${version}`);
  const binary = join(cache, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(cache), { recursive: true });
  const staging = mkdtempSync(`${cache}.partial-`);
  const script = "import('@sparticuz/chromium').then((m) => m.default.executablePath()).then((p) => process.stdout.write(p))";
  const { stdout: unpacked } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, TMPDIR: staging }, encoding: 'utf8' });
  if (unpacked !== join(staging, 'chromium')) throw new Error(`@sparticuz/chromium unpacked to ${unpacked}, not ${staging}`);
  try { renameSync(staging, cache); } catch (e) {
    // Another test file renamed its copy first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw e;
  }
  return binary;
}

/**
 * Headless Chromium: Debian's when installed, else the npm package's with the flags it recommends.
 * SAMEGAME_TEST_CHROMIUM=package takes the package's even where Debian's is installed (the fresh
 * machine's path, checked on any machine).
 */
export async function launchChromium(): Promise<Browser> {
  if (existsSync(SYSTEM_CHROMIUM) && process.env.SAMEGAME_TEST_CHROMIUM !== 'package') return playwright.launch({ executablePath: SYSTEM_CHROMIUM, headless: true, args: SYSTEM_ARGS });
  const { default: packaged } = await import('@sparticuz/chromium');
  return playwright.launch({ executablePath: await packagedChromium(), headless: true, args: packaged.args });
}

export interface Opened { page: Page; url: string; moved: string; problems: string[]; offFile: string[]; requests: string[]; waiting?: (url: string) => void }

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).map((f) => f.split('\\').join('/')).sort();
}

/** Copy an output folder elsewhere and open its report there, waiting for the figures. */
export async function open(browser: Browser, outDir: string, reportRel: string): Promise<Opened> {
  const moved = join(mkdtempSync(join(tmpdir(), 'samegame-moved-')), 'unzipped');
  cpSync(outDir, moved, { recursive: true });
  const url = pathToFileURL(join(moved, reportRel)).href;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const o: Opened = { page: await context.newPage(), url, moved, problems: [], offFile: [], requests: [] };
  await context.setOffline(true);
  await context.route('**/*', (route) => {
    const u = route.request().url();
    if (!u.startsWith('file://')) { o.offFile.push(u); return route.abort(); }
    if (u === url || !o.waiting) return route.continue();
    // A clicked link: note the file it asks for and answer "no content", so the report stays open.
    const done = o.waiting;
    o.waiting = undefined;
    done(u);
    return route.fulfill({ status: 204, body: '' });
  });
  o.page.on('request', (r) => { o.requests.push(r.url()); });
  o.page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') o.problems.push(`${m.type()}: ${m.text()}`); });
  o.page.on('pageerror', (e) => { o.problems.push(`pageerror: ${e.message}`); });
  // Generous limits: several reports load at once, on a machine that may be busy (nothing waits on time).
  await o.page.goto(url, { timeout: 120_000 });
  await o.page.waitForSelector('body[data-figures-done]', { timeout: 120_000 });
  return o;
}

/** Click each file link of an opened report; returns [href attribute, file requested] per link. */
export async function clickAll(o: Opened): Promise<{ href: string; file: string }[]> {
  const links = o.page.locator('a[href]:not([href^="#"])');
  const count = await links.count();
  const out: { href: string; file: string }[] = [];
  for (let i = 0; i < count; i++) {
    const link = links.nth(i);
    const href = (await link.getAttribute('href'))!;
    const requested = new Promise<string>((resolve) => { o.waiting = resolve; });
    await link.dispatchEvent('click'); // the anchor's own activation: a navigation to its href, without the pointer simulation
    out.push({ href, file: fileURLToPath(await requested) });
  }
  return out;
}

/** Every file link leads to its file inside the moved folder, and every file written has a link. */
export async function checkLinks(o: Opened, reportRel: string): Promise<void> {
  const links = await clickAll(o);
  expect(links.length).toBeGreaterThan(0);
  for (const l of links) {
    expect(l.href, 'a relative link').not.toMatch(/^(?:[a-z]+:|\/)/i);
    expect(existsSync(l.file), `${l.href} → ${l.file}`).toBe(true);
    expect(relative(o.moved, l.file).startsWith('..'), `${l.href} stays inside the folder`).toBe(false);
  }
  const reached = new Set(links.map((l) => relative(o.moved, l.file).split('\\').join('/')));
  const written = filesUnder(o.moved).filter((f) => f !== reportRel && !f.endsWith('.sqlite') && !/\.sqlite-(?:wal|shm)$/.test(f));
  expect(written.filter((f) => !reached.has(f)), 'files without a link').toEqual([]);
}

