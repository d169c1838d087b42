import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';
import { BinomialSampler } from '../../src/stats/binomial.js';
import { streamFor } from '../../src/stats/rng.js';

/**
 * data/designs/same-game.yaml with no framing effect, as the simulated provider answers it: every
 * framing of a model–game shares one cooperation rate, 300 trials per cell. The trials are drawn
 * here (Binomial(300, p) per cell) and written straight to a store, which takes a second where the
 * runner takes minutes; `samegame run --provider simulated` of the same design gives the same kind
 * of store.
 */
const design = parse(readFileSync(join(ROOT, 'data/designs/same-game.yaml'), 'utf8')) as {
  name: string; models: { id: string; provider: string }[]; games: string[]; framings: (string | { id: string })[]; trials: number;
};
const framings = design.framings.map((f) => (typeof f === 'string' ? f : f.id));

let dir: string;
let store: string;
beforeAll(() => {
  // a RAM disk where there is one: the store fsyncs every trial
  dir = mkdtempSync(join(tmpdir(), 'sg-near-one-'));
  store = join(dir, 'same-game.sqlite');
  const rates = [0.12, 0.45, 0.71, 0.93];
  const rng = streamFor(5, 'near-one');
  const cells: CellSpec[] = design.models.flatMap((m, mi) => design.games.flatMap((game, gi) => {
    const sampler = new BinomialSampler(design.trials, rates[(gi + mi) % rates.length]);
    return framings.map((framing) => ({ model: m.id, game, framing, actions: counts(sampler.draw(rng), design.trials) }));
  }));
  writeStore(store, { ...design, models: design.models.map((m) => ({ ...m, provider: 'simulated' })) }, cells);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface VCheck { name: string; passed: boolean; status?: string; warnings?: string[]; failures?: string[] }
interface Iv { point: number; lo: number; hi: number }

async function analyzeRun(interval: string) {
  const out = join(dir, interval);
  const r = await runCli(['analyze', store, '--base', 'business', '--alt', 'friend-sharing', '--reps', '2000', '--out', out, '--interval', interval, '-q']);
  const v = JSON.parse(readFileSync(join(out, 'reports', 'verification.json'), 'utf8')) as { passed: boolean; checks: VCheck[] };
  const m = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8')) as {
    settings: { interval: string }; models: { model: string; R: Iv; R_family: Iv }[]; pooled: { R: Iv; R_family: Iv };
  };
  return { r, v, m, contain: v.checks.find((c) => c.name === 'intervals_ordered_and_contain_point')! };
}

describe('a simulated same-game.yaml run with no framing effect, analyzed', () => {
  it('percentile: exits 0; every R or family R above its interval is a named warn (boundary bias, advice: the R = 1 test), none fails', async () => {
    const { r, v, m, contain } = await analyzeRun('percentile');
    expect(r.code, r.stderr).toBe(0);
    expect(v.passed).toBe(true);
    expect(contain.status).toBe('warn');
    const all: (readonly [string, Iv])[] = [...m.models.flatMap((x) => [[`R["${x.model}"]`, x.R], [`Rfam["${x.model}"]`, x.R_family]] as const),
      ['R["Pooled"]', m.pooled.R], ['Rfam["Pooled"]', m.pooled.R_family]];
    const above = all.filter(([, s]) => s.point > s.hi);
    expect(above.length).toBeGreaterThan(0);
    for (const [name] of above) {
      const w = contain.warnings!.find((x) => x.startsWith(`${name}:`));
      expect(w, name).toBeDefined();
      expect(w).toContain('boundary bias');
      expect(w).toContain('decide R = 1 by the R = 1 test');
    }
    expect(r.stderr).toContain('warning: ');
    // verification.md and the HTML report show the status and the named warnings
    const md = readFileSync(join(dir, 'percentile', 'reports', 'verification.md'), 'utf8');
    expect(md).toContain('| intervals_ordered_and_contain_point | warn |');
    expect(md).toContain('## intervals_ordered_and_contain_point: warnings');
    const html = readFileSync(join(dir, 'percentile', 'reports', 'report.html'), 'utf8');
    expect(html).toMatch(/<td class="warn"[^>]*>warn<\/td>/);
    expect(html).toContain('intervals_ordered_and_contain_point warnings (not failures):');
  });

  it('bca: exits 0 and records the method; a near-1 R outside its BCa interval lies below it (bias correction toward 1), named as a warn', async () => {
    const { r, v, m, contain } = await analyzeRun('bca');
    expect(r.code, r.stderr).toBe(0);
    expect(v.passed).toBe(true);
    expect(m.settings.interval).toContain('BCa');
    for (const w of contain.warnings ?? []) expect(w, w).toMatch(/bias correction|BCa fell back/);
    const html = readFileSync(join(dir, 'bca', 'reports', 'report.html'), 'utf8');
    expect(html).toContain('95 % BCa-bootstrap intervals');
    expect(html).toContain('--interval bca');
  });
});
