/**
 * Comprehension probes in runs (docs/methods.md §18c): `probes:` in a design and `run --probes N`
 * ask each model × game × framing N probes before the decisions, stored in probe_trials and never
 * in a decision cell; the dry run counts their calls and cost; the simulated provider's probe
 * error rate is what the stored probes show; a repeated design asks them too; a killed run
 * resumes without asking an answered probe again (counted on a loopback server).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { analyze } from '../../src/commands/analyze.js';
import { TrialStore } from '../../src/live/store/store.js';
import { scoredProbes, storedProbes } from '../../src/live/probes/store.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import { startLoopback, promptOf, type Loopback } from '../helpers/loopback-openai.js';
import { cleanEnv, ROOT, startCli, runCli } from '../helpers/cli.js';
import { UserError } from '../../src/core/errors.js';
import { parseDesign } from '../../src/live/design/design.js';

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-probes-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STORIES = `  - { id: plain, labels: [Help, Keep], template: "You and another player each choose.\\n{payoffs}\\n{answer}" }
  - { id: warden, labels: [Help, Keep], template: "A warden fines anyone who chooses {D} three points.\\n{payoffs}\\n{answer}" }`;
const designText = (models: string, extra = '') => `name: probes-run
models:
${models}
games: [prisoners-dilemma, stag-hunt]
framings:
${STORIES}
trials: 5
${extra}`;

function writeDesign(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const quiet = (out: { printed: string }) => ({ info: () => {}, warn: () => {}, print: (t: string) => { out.printed += t; } });

describe('a simulated run with probes', () => {
  it('stores N probes per cell apart from the decisions; with probe_error 0.2 the accuracy\'s Wilson interval holds 0.8', async () => {
    const model = '  - { id: Sim, provider: simulated, options: { probe_error: 0.2 } }';
    const design = writeDesign('sim.yaml', designText(model, 'probes: 100\ndecoding: { seed: 3 }\n'));
    const store = join(dir, 'sim.sqlite');
    await run({ design, store, logger: quiet({ printed: '' }) });
    const s = TrialStore.openExisting(store);
    try {
      const run1 = s.runs()[0];
      const probes = storedProbes(s, run1.id);
      expect(probes).toHaveLength(2 * 2 * 100);
      // Decisions are untouched: 2 games × 2 framings × 5 trials, and no cell holds a probe.
      expect(s.cellCounts(run1.id).reduce((n, c) => n + c.validC + c.validD + c.invalid + c.error, 0)).toBe(20);
      const scored = scoredProbes(probes);
      const correct = scored.filter((p) => p.score === 'correct').length;
      const [lo, hi] = wilsonInterval(correct, scored.length);
      expect(lo).toBeLessThanOrEqual(0.8);
      expect(hi).toBeGreaterThanOrEqual(0.8);
      // Told apart from its failures: an error rate of 0 (accuracy 1) or of 0.3 lies outside (half-width ≈ 0.04 at n = 400).
      expect(hi).toBeLessThan(0.9);
      expect(lo).toBeGreaterThan(0.7);
      expect(scored.every((p) => p.score !== 'invalid')).toBe(true);
    } finally {
      s.close();
    }
  });

  it('--probes on a design without probes resumes its run and asks only the new ones; --dry-run counts them with their cost', async () => {
    const design = writeDesign('plain.yaml', designText('  - { id: Sim, provider: simulated }', 'prices: { input: 1, output: 2 }\n'));
    const store = join(dir, 'plain.sqlite');
    await run({ design, store, logger: quiet({ printed: '' }) });
    const out = { printed: '' };
    await run({ design, store, probes: 8, dryRun: true, logger: quiet(out) });
    const m = new RegExp('comprehension probes: (\\d+) calls \\((\\d+) probes = 8 per model × game × framing, (\\d+) already stored\\); '
      + '~(\\d+) input tokens, ≤(\\d+) output tokens; cost \\$([\\d.]+)').exec(out.printed)!;
    expect(m).not.toBeNull();
    expect(m.slice(1, 4).map(Number)).toEqual([32, 32, 0]);
    expect(Number(m[5])).toBe(32 * 16); // no max tokens: the default estimate, 16 per call
    expect(Number(m[6])).toBe(0); // simulated calls are free
    // Priced calls (the same probes for a compatible server): (input × $1 + output × $2) per million tokens.
    const priced = { printed: '' };
    await run({ design, store, probes: 8, dryRun: true, provider: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1', logger: quiet(priced) });
    const p = /comprehension probes: 32 calls .*; ~(\d+) input tokens, ≤(\d+) output tokens; cost \$([\d.]+)/.exec(priced.printed)!;
    expect(Number(p[3])).toBeCloseTo((Number(p[1]) * 1 + Number(p[2]) * 2) / 1e6, 4);
    expect(Number(p[3])).toBeGreaterThan(0);
    expect(out.printed).toMatch(/dry run: 0 calls \(20 trials, 20 already stored\)/);
    await run({ design, store, probes: 8, logger: quiet({ printed: '' }) });
    const again = { printed: '' };
    await run({ design, store, probes: 16, dryRun: true, logger: quiet(again) });
    expect(again.printed).toMatch(/comprehension probes: 32 calls \(64 probes = 16 per model × game × framing, 32 already stored\)/);
    const s = TrialStore.openExisting(store);
    try {
      expect(s.runs()).toHaveLength(1);
      expect(storedProbes(s, s.runs()[0].id)).toHaveLength(32);
    } finally {
      s.close();
    }
  });

  it('a repeated design asks its probes too, under the framing\'s story, and its analysis writes comprehension.csv', async () => {
    const store = join(dir, 'rep.sqlite');
    await run({ design: join(ROOT, 'data/designs/akata-pd-sim.yaml'), store, probes: 8, logger: quiet({ printed: '' }) });
    const s = TrialStore.openExisting(store);
    try {
      const probes = storedProbes(s, s.runs()[0].id);
      expect(probes.map((p) => p.model).sort()).toEqual([...Array(8).fill('Sim-A'), ...Array(8).fill('Sim-B')]);
      expect(new Set(probes.map((p) => `${p.outcome}/${p.player}`)).size).toBe(8);
      expect(s.playMoves(s.runs()[0].id).length).toBeGreaterThan(0);
    } finally {
      s.close();
    }
    // The repeated analysis reads them: 8 probes = each outcome asked twice (you, the other) per model; probe_error 0, all correct.
    const out = join(dir, 'rep-out');
    await analyze({ store, out, reps: 20, figures: false, logger: quiet({ printed: '' }) });
    const rows = readFileSync(join(out, 'reports/comprehension.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 7));
    expect(rows).toEqual(['Sim-A', 'Sim-B'].flatMap((m) => ['CC', 'CD', 'DC', 'DD'].map((o) => [m, 'akata-pd', 'akata-jf', o, '2', '2', '0'])));
  });

  it('a context-enrichment design refuses --probes in one line', async () => {
    const e = await run({ design: join(ROOT, 'data/designs/enrichment-paraphrase.yaml'), store: join(dir, 'e.sqlite'), probes: 8, dryRun: true })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toMatch(/enrichment-paraphrase\.yaml: comprehension probes \(--probes\) are asked of one-shot and repeated designs/);
  });
});

describe('the number of probes a run plans', () => {
  // 1 model × 2 games × 101 framings × 10,000 probes = 2,020,000: more than a run plans (2,000,000).
  const many = Array.from({ length: 101 }, (_, i) => `  - { id: f${i}, template: "Each of you chooses.\\n{payoffs}\\n{answer}" }`).join('\n');
  const text = (probes: string) => `name: many\nmodels: [{ id: Sim, provider: simulated }]\ngames: [prisoners-dilemma, stag-hunt]\nframings:\n${many}\n`
    + `trials: 1\n${probes}`;
  it('is bounded: a design\'s probes: and run --probes above it are refused in one line', async () => {
    expect(() => parseDesign(text('probes: 10000\n'), 'many.yaml'))
      .toThrow(/many\.yaml:\d+: .*2020000 comprehension probes .* more than a run plans at most \(2000000\)/);
    const e = await run({ design: writeDesign('many.yaml', text('')), store: join(dir, 'many.sqlite'), probes: 10000, dryRun: true }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toMatch(/many\.yaml: --probes asks 2020000 comprehension probes/);
  });
});

describe('a killed run with probes over a compatible server', () => {
  const PROBES = 2 * 2 * 16;
  let srv: Loopback;
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let sent = 0;
  const isProbe = (body: string) => promptOf(JSON.parse(body) as Record<string, unknown>).includes('how many points');
  beforeAll(async () => {
    srv = await startLoopback({
      answer: (prompt) => (prompt.includes('how many points') ? { text: '3' } : { text: 'Help' }),
      // The first 20 answers pass; later ones wait: the run is certainly asking probes when it is killed.
      hold: () => (sent++ < 20 ? Promise.resolve() : gate),
    });
  });
  afterAll(async () => { release(); await srv.close(); });

  it('kill -9 while asking probes, then resume: every probe stored once, no answered probe asked again', async () => {
    const model = '  - { id: Loop, provider: openai-chat, model: loop, base_url: "http://127.0.0.1:1/v1" }';
    const design = writeDesign('loop.yaml', designText(model, 'probes: 16\n'));
    const store = join(dir, 'loop.sqlite');
    const args = ['run', design, '--store', store, '--base-url', srv.url, '--concurrency', '4'];
    const first = startCli(args, { env: { ...cleanEnv(), OPENAI_API_KEY: 'sk-test' } });
    await srv.waitFor('answered', 20);
    await srv.waitFor('request', 21);
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const db = new Database(store); // read-write: opening recovers the WAL the killed process left
    const answered = db.prepare("SELECT model || '|' || game || '|' || framing || '|' || rep FROM probe_trials WHERE status IN ('ok', 'invalid')")
      .pluck().all() as string[];
    db.close();
    expect(answered.length).toBeGreaterThanOrEqual(16);
    expect(answered.length).toBeLessThan(PROBES);
    const before = srv.log.length;
    release();
    const second = await runCli(args, { env: { ...cleanEnv(), OPENAI_API_KEY: 'sk-test' } });
    expect(second.code).toBe(0);
    const asked = srv.log.slice(before).filter((l) => isProbe(l.body)).map((l) => l.key);
    for (const k of answered) expect(asked).not.toContain(k);
    expect(asked.length).toBe(PROBES - answered.length);
    const s = TrialStore.openExisting(store);
    try {
      const probes = storedProbes(s, s.runs()[0].id);
      expect(probes).toHaveLength(PROBES);
      expect(probes.every((p) => p.status === 'ok')).toBe(true);
      expect(s.statusCounts(s.runs()[0].id).ok).toBe(20);
    } finally {
      s.close();
    }
    // A third run asks nothing and says so once, without a "stored: 0 answered" line that reads as if nothing were stored.
    const third = await runCli(args, { env: { ...cleanEnv(), OPENAI_API_KEY: 'sk-test' } });
    expect(third.code).toBe(0);
    expect(third.stderr).toContain(`comprehension probes: ${PROBES} probes, ${PROBES} already stored, 0 to ask`);
    expect(third.stderr).not.toContain('comprehension probes stored:');
  }, 300_000);
});
