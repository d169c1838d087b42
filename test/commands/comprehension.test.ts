/**
 * The comprehension outputs of `analyze` (docs/methods.md §18c), end to end through the CLI: a
 * compatible server over loopback answers every probe under the framing "plain" with the game's
 * payoff, and under "warden" (whose story fines anyone who chooses D three points) with the fined
 * payoff; `run --probes 16` then `analyze` give reports/comprehension.csv with the counts derived
 * by hand, the warden framing flagged, and the flag beside the model's R and shift in table3.csv,
 * the report and table3.tex. A run without probes keeps table3.csv as it was.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseDesign } from '../../src/live/design/design.js';
import { analyze } from '../../src/commands/analyze.js';
import { startLoopback, askedWords, type Loopback } from '../helpers/loopback-openai.js';
import { cleanEnv, runCli } from '../helpers/cli.js';

const DESIGN = `name: warden
models:
  - { id: Loop, provider: openai-chat, model: loop, base_url: "http://127.0.0.1:1/v1" }
games: [prisoners-dilemma, stag-hunt]
framings:
  - { id: plain, labels: [Help, Keep], template: "You and another player each choose.\\n{payoffs}\\n{answer}" }
  - id: warden
    labels: [Help, Keep]
    template: "You and another player are held by a warden, who fines anyone who chooses {D} three points.\\n{payoffs}\\n{answer}"
trials: 12
`;

let dir: string;
let srv: Loopback;
const env = () => ({ ...cleanEnv(), OPENAI_API_KEY: 'sk-test' });
const csv = (path: string) => Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').trim(), { header: true }).data;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-comprehension-'));
  writeFileSync(join(dir, 'warden.yaml'), DESIGN);
  const games = parseDesign(DESIGN, 'warden.yaml').games;
  srv = await startLoopback({
    answer: (prompt, key) => {
      const m = /if you choose (Help|Keep) and the other player chooses (Help|Keep), how many points (do you|does the other player) get/.exec(prompt);
      if (!m) {
        // A decision: Help on even reps, Keep on odd ones, under either framing.
        const words = askedWords(prompt) ?? ['Help', 'Keep'];
        return { text: words[Number(key.split('|').pop()) % 2] };
      }
      const [x, y] = [m[1] === 'Help' ? 'C' : 'D', m[2] === 'Help' ? 'C' : 'D'] as const;
      const cc = (g: typeof games[number]) => `chooses Help, you receive ${g.payoffs.C.C[0]} points and the other player receives ${g.payoffs.C.C[1]} points`;
      const game = games.find((g) => prompt.includes(`If you choose Help and the other player ${cc(g)}`))!;
      const you = m[3] === 'do you';
      // The fined payoff: under the warden, your points when you choose Keep (D) are 3 less.
      return { text: `${game.payoffs[x][y][you ? 0 : 1] - (prompt.includes('warden') && you && x === 'D' ? 3 : 0)}` };
    },
  });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

it('probes answered with the fined payoff under one framing: right counts, that framing flagged, its R and shift marked everywhere', async () => {
  const store = join(dir, 'w.sqlite');
  const ran = await runCli(['run', join(dir, 'warden.yaml'), '--store', store, '--base-url', srv.url, '--probes', '16', '-q'], { env: env() });
  expect(ran.code).toBe(0);
  const out = join(dir, 'out');
  const an = await runCli(['analyze', store, '--base', 'plain', '--alt', 'warden', '--reps', '200', '--out', out], { env: env() });
  expect(an.code).toBe(0);
  expect(an.stderr).toContain("comprehension: warden is not shown payoff-equivalent for Loop (24/32 probes answered with the game's payoff; below 0.9; "
    + 'below plain by more than sampling error)');

  // 16 probes per cell = 2 blocks of the 8 questions: each outcome row asked 4 times (twice per player). Under the warden the 2 "you"
  // questions of DC and DD are answered 3 points short: 2 of 4 correct; every other row 4 of 4.
  const rows = csv(join(out, 'reports/comprehension.csv'));
  expect(rows.map((r) => [r.game, r.framing, r.outcome, r.asked, r.correct, r.invalid])).toEqual(
    ['prisoners-dilemma', 'stag-hunt'].flatMap((g) => ['plain', 'warden'].flatMap((f) => ['CC', 'CD', 'DC', 'DD'].map((o) =>
      [g, f, o, '4', f === 'warden' && o[0] === 'D' ? '2' : '4', '0']))));
  const half = rows.find((r) => r.framing === 'warden' && r.outcome === 'DD')!;
  // Wilson 95% interval of 2/4 (z = 1.959964): centre 0.5, half-width z·sqrt(1/16 + z²/64)/(1 + z²/4) = 0.349961.
  expect(Number(half.accuracy)).toBe(0.5);
  expect(Number(half.accuracy_lo)).toBeCloseTo(0.150039, 5);
  expect(Number(half.accuracy_hi)).toBeCloseTo(0.849961, 5);

  const verdicts = csv(join(out, 'reports/comprehension-verdicts.csv'));
  expect(verdicts.map((v) => [v.framing, v.asked, v.correct, v.verdict])).toEqual([
    ['plain', '32', '32', 'shown'], ['warden', '32', '24', 'not shown payoff-equivalent for this model']]);

  const t3 = csv(join(out, 'reports/table3.csv'));
  expect(t3.map((r) => [r.model, r.comprehension])).toEqual([
    ['Loop', 'not shown payoff-equivalent for this model (warden)'], ['Pooled', 'pools models not shown payoff-equivalent for them: Loop']]);
  const tex = readFileSync(join(out, 'reports/table3.tex'), 'utf8');
  const note = '\\par\\smallskip{\\footnotesize Not shown payoff-equivalent for this model (comprehension probes, reports/comprehension.csv): '
    + 'the R and shift of Loop (warden: 24/32 probes answered with the game\'s payoff, below 0.9; below plain by more than sampling error).}\n\\end{table}';
  expect(tex).toContain(note);
  const html = readFileSync(join(out, 'reports/report.html'), 'utf8');
  const table3 = html.slice(html.indexOf('id="table3"'), html.indexOf('id="comprehension"'));
  expect(table3).toContain('the R and shift of Loop (warden: 24/32');
  expect(html).toContain('<h2>Comprehension probes</h2>');
  expect(existsSync(join(out, 'figures/comprehension.svg'))).toBe(true);

  // The threshold is a flag; the plain framing passes any, the warden one is still below plain by more than sampling error.
  await analyze({ store, base: 'plain', alt: 'warden', reps: 50, out: join(dir, 'low'), figures: false, comprehensionThreshold: 0.5 });
  expect(csv(join(dir, 'low/reports/comprehension-verdicts.csv')).map((v) => v.reason)).toEqual(['', 'below plain by more than sampling error']);
  // A threshold of 0 would mark nothing ever: refused, exit 2, nothing written.
  const zero = await runCli(['analyze', store, '--out', join(dir, 'zero'), '--comprehension-threshold', '0'], { env: env() });
  expect(zero.code).toBe(2);
  expect(zero.stderr).toContain('--comprehension-threshold: "0" is not a number in (0, 1]');
  expect(existsSync(join(dir, 'zero'))).toBe(false);
}, 300_000);

it('a run without probes: no comprehension files, table3.csv without the column', async () => {
  const store = join(dir, 'n.sqlite');
  expect((await runCli(['run', join(dir, 'warden.yaml'), '--store', store, '--base-url', srv.url, '-q'], { env: env() })).code).toBe(0);
  const out = join(dir, 'none');
  await analyze({ store, base: 'plain', alt: 'warden', reps: 50, out, figures: false });
  expect(existsSync(join(out, 'reports/comprehension.csv'))).toBe(false);
  expect(Object.keys(csv(join(out, 'reports/table3.csv'))[0])).not.toContain('comprehension');
}, 300_000);
