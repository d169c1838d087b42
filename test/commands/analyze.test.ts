import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTables as analyzeAnyKind, type AnalyzeResult } from '../../src/commands/analyze.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { stat } from '../../src/core/names.js';
import { jsdBernoulli } from '../../src/stats/jsd.js';
import { streamFor } from '../../src/stats/rng.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { writeOutputs } from '../../src/commands/pipeline/write.js';

// Stores fsync every trial (synchronous = FULL): tmpdir() is on tmpfs where there is one (test/helpers/global-tmp.ts).
const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-analyze-'));
// Every store here holds a one-shot run: its analysis is the two-framing one.
const analyzeTables = (o: Parameters<typeof analyzeAnyKind>[0]) => analyzeAnyKind(o) as AnalyzeResult;

describe('swap-in equivalence', () => {
  it('a store built from the reconstructed counts (300 trials per cell) reproduces Table 3 exactly', () => {
    const rep = reproduceTables({});
    const cells: CellSpec[] = rep.input.table.cells.map((c) => ({
      ...(c.key as { model: string; game: string; framing: string }),
      actions: counts((c.obs as { x: number }).x, 300),
    }));
    const dir = tmp();
    const lv = (f: string) => [...new Set(rep.input.table.cells.map((c) => c.key[f]))];
    writeStore(join(dir, 'recon.sqlite'), { name: 'recon', models: lv('model').map((id) => ({ id })), games: lv('game'), framings: lv('framing') }, cells);
    const res = analyzeTables({ store: join(dir, 'recon.sqlite'), attenuation: 0.7 });
    expect(res.table3.map((r) => [r.model, r.R, r.shift])).toEqual(rep.table3.map((r) => [r.model, r.R, r.shift]));
    // Same cells, same keys, same seed: the cell streams and so the intervals are identical too.
    expect(res.table3).toEqual(rep.table3);
    expect(res.verification.passed).toBe(true);
  });
});

describe('analyze a direct run', () => {
  const dir = tmp();
  const design = { name: 'd', models: [{ id: 'M', provider: 'simulated' }], games: ['prisoners-dilemma', 'stag-hunt'], framings: ['business', 'friend-sharing', 'abstract'] };
  const cells: CellSpec[] = [
    { model: 'M', game: 'prisoners-dilemma', framing: 'business', actions: [...counts(3, 10), null, null] },
    { model: 'M', game: 'prisoners-dilemma', framing: 'friend-sharing', actions: counts(8, 10) },
    { model: 'M', game: 'prisoners-dilemma', framing: 'abstract', actions: counts(5, 10) },
    { model: 'M', game: 'stag-hunt', framing: 'business', actions: counts(10, 10) },
    { model: 'M', game: 'stag-hunt', framing: 'friend-sharing', actions: counts(9, 10) },
    { model: 'M', game: 'stag-hunt', framing: 'abstract', actions: [...counts(6, 10), null] },
  ];
  writeStore(join(dir, 'd.sqlite'), design, cells);
  const logger = new MemoryLogger();
  const res = analyzeTables({ store: join(dir, 'd.sqlite'), reps: 2000, logger });
  writeOutputs(res.files);

  it('uses valid trials only, no attenuation by default, and counts the invalid ones per cell', () => {
    const t2 = readFileSync(join(dir, 'd', 'reports', 'table2.csv'), 'utf8').trim().split('\n');
    // The paper's columns, then (a direct run) the invalid shares and worst-case bounds: base 3 of 10 valid and 2 invalid → [3/12, 5/12].
    expect(t2[1].startsWith('M,prisoners-dilemma,0.3,3,0.8,8,0.5,0.166666666667,0,0.25,0.416666666667,')).toBe(true);
    const inv = readFileSync(join(dir, 'd', 'reports', 'invalid.csv'), 'utf8').trim().split('\n');
    expect(inv[0]).toBe('model,game,framing,valid,invalid,error,invalid_share,scoring');
    expect(inv).toContain('M,prisoners-dilemma,business,10,2,0,0.166666666667,sample'); // 12 significant digits (README)
    // Hand: pooled raw shift = ((0.8 − 0.3) + (0.9 − 1.0))/2 = 0.2; attenuation 1 → shift = 0.2.
    expect(res.table3.find((r) => r.model === 'Pooled')!.shift).toBeCloseTo(0.2, 15);
    // Table 3's R is the plug-in R; R_corrected beside it the bias-corrected R (methods.md §8.5): each pair's
    // JSD less (1/n_b + 1/n_s)/8 = 1/40 nats (n = 10 valid trials per cell).
    const R = 1 - ((jsdBernoulli(0.3, 0.8) - 1 / 40) + (jsdBernoulli(1, 0.9) - 1 / 40)) / 2 / Math.LN2;
    expect(res.table3.find((r) => r.model === 'Pooled')!.R_corrected).toBeCloseTo(R, 15);
    expect(res.table3.find((r) => r.model === 'Pooled')!.R).toBeCloseTo(1 - (jsdBernoulli(0.3, 0.8) + jsdBernoulli(1, 0.9)) / 2 / Math.LN2, 15);
  });

  it('names Table 3\'s methods (percentile for R, test inversion for R_corrected) in metrics.json; --interval percentile gives the same table and says so in its command', () => {
    const m = JSON.parse(readFileSync(join(dir, 'd', 'reports', 'metrics.json'), 'utf8')) as { settings: { interval: string; table3_variants: string }; command: string };
    expect(m.settings.interval).toBe('95% percentile bootstrap, linear interpolation between order statistics');
    expect(m.settings.table3_variants).toContain('R_corrected is the bias-corrected R with its 95% interval by inverting the R = 1 test');
    expect(res.verification.checks.find((c) => c.name === 'pooled_equals_unrounded_mean')!.passed).toBe(true);
    writeOutputs(analyzeTables({ store: join(dir, 'd.sqlite'), out: join(dir, 'pct'), reps: 2000, interval: 'percentile', logger: new MemoryLogger() }).files);
    expect(readFileSync(join(dir, 'pct', 'reports', 'table3.csv'), 'utf8')).toBe(readFileSync(join(dir, 'd', 'reports', 'table3.csv'), 'utf8'));
    const pm = JSON.parse(readFileSync(join(dir, 'pct', 'reports', 'metrics.json'), 'utf8')) as { settings: { interval: string }; command: string };
    expect(pm.settings.interval).toBe('95% percentile bootstrap, linear interpolation between order statistics');
    expect(pm.command).toContain('--interval percentile');
    expect(m.command).not.toContain('--interval');
  });

  it('writes the family robustness over all three framings and says the data are synthetic', () => {
    const fam = readFileSync(join(dir, 'd', 'reports', 'family-robustness.csv'), 'utf8').trim().split('\n');
    // Hand: PD rates 0.3, 0.8, 0.5 → worst pair (0.3, 0.8)
    const r = 1 - jsdBernoulli(0.3, 0.8) / Math.LN2;
    expect(Number(fam[1].split(',')[2])).toBeCloseTo(r, 12);
    expect(logger.warnings.join('\n')).toContain('synthetic');
    expect(res.verification.checks.find((c) => c.name === 'design_cells_present')!.passed).toBe(true);
  });

  it('λ̂ per framing and V_λ (hand: PD Δu = −0.375, business x = 3 of T = 10)', () => {
    const lb = res.analysis.boot.get(stat('lambda', 'M', 'prisoners-dilemma', 'business')).point;
    const p = 3.5 / 11;
    expect(lb).toBeCloseTo(Math.log(p / (1 - p)) / -0.375, 12);
    const ls = res.analysis.boot.get(stat('lambda', 'M', 'prisoners-dilemma', 'friend-sharing')).point;
    expect(ls).toBe(0); // 8/10 cooperation against a negative payoff gap clamps at 0
    expect(res.analysis.boot.get(stat('Vlambda', 'M', 'prisoners-dilemma')).point).toBeCloseTo(lb ** 2 / 4, 12);
    const csv = readFileSync(join(dir, 'd', 'reports', 'lambda.csv'), 'utf8');
    expect(csv.split('\n')[0]).toContain('V_lambda');
  });

  it('a design cell without valid trials fails the design_cells_present check', () => {
    const d2 = tmp();
    writeStore(join(d2, 'x.sqlite'), { ...design, framings: ['business', 'friend-sharing', 'abstract', 'role'] }, cells);
    const r = analyzeTables({ store: join(d2, 'x.sqlite'), reps: 200 });
    const c = r.verification.checks.find((x) => x.name === 'design_cells_present')!;
    expect(c.passed).toBe(false);
    expect(c.failures).toEqual(['M / prisoners-dilemma / role', 'M / stag-hunt / role']);
  });
});

describe('analyze with first-token (logprob) scoring', () => {
  it('uses the per-trial probabilities: rate = their mean, intervals from resampling the trials', () => {
    const dir = tmp();
    // Hand: base trials {0.1, 0.3} → mean 0.2; alt {0.7, 0.9} → mean 0.8; shift 0.6. Resampled
    // means of two trials take {0.1, 0.2, 0.3} and {0.7, 0.8, 0.9}, so every replicate's shift
    // lies in [0.4, 0.8]; the second game's cells are constant, so its shift is exactly 0.
    writeStore(join(dir, 'lp.sqlite'), { name: 'lp', models: [{ id: 'M', provider: 'openai-chat' }], games: ['stag-hunt', 'harmony'], framings: ['business', 'friend-sharing'] }, [
      { model: 'M', game: 'stag-hunt', framing: 'business', probs: [0.1, 0.3] },
      { model: 'M', game: 'stag-hunt', framing: 'friend-sharing', probs: [0.7, 0.9] },
      { model: 'M', game: 'harmony', framing: 'business', probs: [0.5, 0.5] },
      { model: 'M', game: 'harmony', framing: 'friend-sharing', probs: [0.5, 0.5] },
    ]);
    const res = analyzeTables({ store: join(dir, 'lp.sqlite'), reps: 2000 });
    expect(res.source.tallies.map((t) => t.scoring)).toEqual(['logprobs', 'logprobs', 'logprobs', 'logprobs']);
    const s = res.analysis.boot.get(stat('shift_raw', 'M', 'stag-hunt'));
    expect(s.point).toBeCloseTo(0.6, 15);
    expect(s.lo).toBeGreaterThanOrEqual(0.4 - 1e-12);
    expect(s.hi).toBeLessThanOrEqual(0.8 + 1e-12);
    expect(s.hi - s.lo).toBeGreaterThan(0.1); // the cells do vary
    expect(res.analysis.boot.get(stat('shift_raw', 'M', 'harmony'))).toEqual({ point: 0, lo: 0, hi: 0 });
    // Table 2's counts of a probability cell are expected cooperations Σp: 0.1 + 0.3 = 0.4.
    const t2 = String(res.files.find((f) => f.path.endsWith('table2.csv'))!.content).split('\n');
    expect(t2[1]).toMatch(/^M,stag-hunt,0\.2,0\.4,0\.8,1\.6,0\.6/);
  });
});

describe('a simulated run with known probabilities recovers them', () => {
  it('true per-model and pooled R and shift fall inside the 95% intervals at about the nominal rate', () => {
    const truth: Record<string, [number, number]> = { 'A|g1': [0.2, 0.6], 'A|g2': [0.5, 0.7], 'B|g1': [0.4, 0.4], 'B|g2': [0.1, 0.5] };
    const n = 200;
    const R = (pb: number, ps: number) => 1 - jsdBernoulli(pb, ps) / Math.LN2;
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const want: Record<string, { R: number; shift: number }> = {};
    for (const g of ['A', 'B', 'Pooled']) {
      const ks = Object.keys(truth).filter((k) => g === 'Pooled' || k.startsWith(`${g}|`));
      want[g] = { R: mean(ks.map((k) => R(...truth[k]))), shift: mean(ks.map((k) => truth[k][1] - truth[k][0])) };
    }
    let covered = 0, total = 0;
    const dir = tmp();
    const runs = 40;
    for (let s = 0; s < runs; s++) {
      const cells: CellSpec[] = [];
      for (const [k, [pb, ps]] of Object.entries(truth)) {
        const [model, game] = k.split('|');
        for (const [framing, p] of [['business', pb], ['friend-sharing', ps]] as const) {
          const rng = streamFor(1000 + s, `${k}|${framing}`);
          cells.push({ model, game, framing, actions: Array.from({ length: n }, () => (rng.next() < p ? 'C' : 'D')) });
        }
      }
      const path = join(dir, `sim${s}.sqlite`);
      writeStore(path, { name: `sim${s}` }, cells);
      const res = analyzeTables({ store: path, reps: 1000, seed: s });
      for (const row of res.table3) {
        for (const [v, lo, hi] of [[want[row.model].R, row.R_lo, row.R_hi], [want[row.model].shift, row.shift_lo, row.shift_hi]]) {
          total++;
          if (v >= lo && v <= hi) covered++;
        }
      }
    }
    // 240 intervals at nominal 95 %: expect ≈ 228, binomial SD ≈ 3.4, so [216, 237] is about ±3.5 SD
    // (the seeds are fixed: the count is 234 today).
    expect(total).toBe(runs * 6);
    expect(covered / total).toBeGreaterThanOrEqual(0.9); // 216 of 240
    expect(covered / total).toBeLessThanOrEqual(0.99);   // 237 of 240: near-100 % would mean intervals far too wide
  });
});

describe('λ̂ when a game has no payoff gap', () => {
  it('Δu = 0 at q = 0.5 gives no λ̂, a note in lambda.csv and a warning', () => {
    const dir = tmp();
    // Pure coordination: u(C,C) = u(D,D) = 1, u(C,D) = u(D,C) = 0 → ū(C) = ū(D) = 1/2 → Δu = 0.
    const coord = { id: 'coordination', payoffs: { C: { C: [1, 1], D: [0, 0] }, D: { C: [0, 0], D: [1, 1] } } };
    writeStore(join(dir, 'z.sqlite'), { name: 'z', models: [{ id: 'M', provider: 'openai-chat' }], games: [coord], framings: ['business', 'friend-sharing'] }, [
      { model: 'M', game: 'coordination', framing: 'business', actions: counts(4, 10) },
      { model: 'M', game: 'coordination', framing: 'friend-sharing', actions: counts(7, 10) },
    ]);
    const logger = new MemoryLogger();
    const res = analyzeTables({ store: join(dir, 'z.sqlite'), reps: 200, logger });
    expect(res.analysis.boot.get(stat('lambda', 'M', 'coordination', 'business')).point).toBeNaN();
    const csv = String(res.files.find((f) => f.path.endsWith('lambda.csv'))!.content);
    expect(csv).toContain('Δu = 0 at q = 0.5');
    expect(logger.warnings.join('\n')).toContain('λ̂ undefined for game "coordination"');
  });
});
