import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRepeated, type RepeatedResult } from '../../src/commands/pipeline/repeated.js';
import type { RepeatedDecision } from '../../src/core/decisions.js';
import { checkLinks, launchChromium, open, type Opened } from '../helpers/browser.js';
import { generateDecisions } from '../helpers/repeated-decisions.js';
import { XSS_MODEL, XSS_NOTE } from '../render/xss-fixture.js';
import { writeOutputs } from '../../src/commands/pipeline/write.js';

/**
 * The match browser of a repeated analysis in headless Chromium, offline, from a moved copy of the
 * output folder (test/helpers/browser.ts). The run is small and generated: a model whose name is
 * HTML, a plain one, two framings, self-play and tit-for-tat, 3 matches of 4 rounds per cell; every
 * prompt and answer carries HTML too. Expected matches and texts come from the generated decisions.
 */
const LONG = 240_000;
const XSS_PROMPT = `${XSS_NOTE} Choose <b>J</b> or F.`;

let browser: Browser | undefined;
let res: RepeatedResult;
let o: Opened;

beforeAll(async () => {
  const launched = launchChromium();
  const generated = generateDecisions({ models: [XSS_MODEL, 'plain'], opponents: ['self', 'tit-for-tat'], matches: 3, rounds: 4, seed: 3 });
  const decisions: RepeatedDecision[] = generated.decisions.map((d) => ({ ...d, prompt: `${XSS_PROMPT} [${d.match} round ${d.round} seat ${d.seat}]`, answer: `<i>${d.answer}</i>` }));
  const dir = mkdtempSync(join(tmpdir(), 'samegame-browser-repeated-'));
  res = await analyzeRepeated({ ...generated, decisions, path: join(dir, 'run.sqlite') }, { reps: 200 });
  writeOutputs(res.files);
  browser = await launched;
  o = await open(browser, res.outDir, 'reports/report.html');
}, LONG);

afterAll(async () => { await browser?.close(); });

const cellOptions = () => o.page.$$eval('.match-browser select option', (os) => os.map((x) => [x.getAttribute('value'), x.textContent ?? '']));

describe('the match browser of a repeated analysis, offline', () => {
  it('loads nothing but itself, logs no problem, draws every figure', async () => {
    expect(o.problems).toEqual([]);
    expect(o.offFile).toEqual([]);
    const state = await o.page.$$eval('figure[data-figure]', (fs) => fs.map((f) => [f.getAttribute('data-figure'), f.getAttribute('data-rendered')]));
    expect(state.map((s) => s[0])).toEqual(expect.arrayContaining(['repeated-rounds', 'repeated-reactions', 'table2-dumbbell', 'table3-forest']));
    expect(state.every((s) => s[1] === 'svg')).toBe(true);
  });

  it('lists every cell, and for each cell every one of its matches, round by round with both moves', async () => {
    await o.page.waitForSelector('.match-browser[data-ready]');
    const options = await cellOptions();
    expect(options).toHaveLength(res.analysis.cells.length);
    for (const [i, cell] of res.analysis.cells.entries()) {
      await o.page.selectOption('.match-browser select', String(i));
      const shown = await o.page.$$eval('.match-browser .match', (ms) => ms.map((m) => m.getAttribute('data-match')));
      expect(shown).toEqual(cell.matches);
      // every round of every match: round number and both seats' moves as stored
      const first = cell.matches[0];
      const table = await o.page.locator('.match-browser .match').first().locator('tr').allTextContents();
      const moves = res.input.decisions.filter((d) => d.match === first);
      const seatOf = (round: number, seat: number) => moves.find((d) => d.round === round && d.seat === seat);
      const want = [1, 2, 3, 4].map((r) => {
        const s1 = seatOf(r, 1)!, s2 = seatOf(r, 2);
        return `${r}${s1.action ?? '—'}${s2 ? s2.action ?? '—' : s1.opponentAction}`;
      });
      expect(table.slice(1)).toEqual(want);
    }
  });

  it('a click on a move shows that decision\'s prompt and answer, as text', async () => {
    await o.page.selectOption('.match-browser select', '0');
    const match = res.analysis.cells[0].matches[1];
    const box = o.page.locator('.match-browser .match').nth(1);
    expect(await box.getAttribute('data-match')).toBe(match);
    await box.locator('tr').nth(3).locator('button').first().click();
    const d = res.input.decisions.find((x) => x.match === match && x.round === 3 && x.seat === 1)!;
    await box.locator('.decision').waitFor({ state: 'visible' });
    expect(await box.locator('.decision pre.prompt').textContent()).toBe(d.prompt);
    expect(await box.locator('.decision pre.answer').textContent()).toBe(d.answer);
  });

  it('names, prompts and answers that are HTML show as text and run nothing', async () => {
    expect(await o.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await o.page.evaluate(() => document.querySelectorAll('img, main b, main i').length)).toBe(0);
    expect((await cellOptions())[0][1]).toContain(XSS_MODEL);
    expect(await o.page.locator('.match-browser .match th').first().textContent()).toBe('Round');
    expect(await o.page.locator('#repeated-cells-table tbody tr td').first().textContent()).toBe(XSS_MODEL);
  });

  it('every file link leads to its file', () => checkLinks(o, 'reports/report.html'));
});
