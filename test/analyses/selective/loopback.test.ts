/**
 * End to end through a loopback Responses API server that returns chosen first-token top
 * logprobs: `samegame run` a context-enrichment design, `samegame analyze` it, and compare the
 * per-call transfer probabilities, both metrics, an interval and the imputation bounds with a hand
 * computation — including calls where one action is missing from the returned candidates.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, ROOT, runCli } from '../../helpers/cli.js';
import { startLoopback, type Answer, type Loopback } from '../../helpers/loopback-openai.js';

// Chosen first-position alternatives (probabilities) per condition/world/format and rep.
const TOP: Record<string, [Answer['top'], Answer['top']]> = {
  'minimal/regional/prose': [[['TRANS', 0.6], ['RET', 0.3], ['**', 0.05]], [['TRANSFER', 0.8], [' retain', 0.1], ['\n', 0.05]]],
  'minimal/regional/list': [[['TR', 0.5], ['RE', 0.5]], [['T', 0.7], ['R', 0.2]]],
  // rep 0: RETAIN is missing; returned mass 0.92, unreturned 0.08.
  'minimal/regional/kv': [[['TRANSFER', 0.9], ['**', 0.02]], [['TRA', 0.75], ['RET', 0.25]]],
  'minimal/local/prose': [[['RET', 0.9], ['TRA', 0.1]], [['RETAIN', 0.6], ['TRANSFER', 0.2], ['I', 0.1]]],
  // rep 0: TRANSFER is missing; returned mass 0.95, unreturned 0.05.
  'minimal/local/list': [[['RE', 0.95]], [['RET', 0.8], ['TRANS', 0.2]]],
  'minimal/local/kv': [[['RETAIN', 0.5], ['TRANSFER', 0.5]], [['R', 0.6], ['T', 0.3]]],
  'grounded/regional/prose': [[['TRANSFER', 0.9], ['RETAIN', 0.1]], [['TRANSFER', 0.9], ['RETAIN', 0.1]]],
  'grounded/regional/list': [[['TRANSFER', 0.9], ['RETAIN', 0.1]], [['TRANSFER', 0.9], ['RETAIN', 0.1]]],
  'grounded/regional/kv': [[['TRANSFER', 0.9], ['RETAIN', 0.1]], [['TRANSFER', 0.9], ['RETAIN', 0.1]]],
  'grounded/local/prose': [[['RETAIN', 0.9], ['TRANSFER', 0.1]], [['RETAIN', 0.9], ['TRANSFER', 0.1]]],
  'grounded/local/list': [[['RETAIN', 0.9], ['TRANSFER', 0.1]], [['TRA', 0.3], ['RE', 0.6]]],
  'grounded/local/kv': [[['RETAIN', 0.9], ['TRANSFER', 0.1]], [['RETAIN', 0.9], ['TRANSFER', 0.1]]],
};

// Hand values of t/(t+r), with u/2 imputed for the missing action (docs/methods.md).
const P: Record<string, [number, number]> = {
  'minimal/regional/prose': [0.6 / 0.9, 0.8 / 0.9],
  'minimal/regional/list': [0.5, 0.7 / 0.9],
  'minimal/regional/kv': [0.9 / (0.9 + 0.04), 0.75],
  'minimal/local/prose': [0.1, 0.2 / 0.8],
  'minimal/local/list': [0.025 / (0.025 + 0.95), 0.2],
  'minimal/local/kv': [0.5, 1 / 3],
  'grounded/regional/prose': [0.9, 0.9], 'grounded/regional/list': [0.9, 0.9], 'grounded/regional/kv': [0.9, 0.9],
  'grounded/local/prose': [0.1, 0.1], 'grounded/local/list': [0.1, 1 / 3], 'grounded/local/kv': [0.1, 0.1],
};
// The bounds of the two imputed calls: missing mass 0, and the full unreturned mass.
const ZERO: Record<string, number> = { 'minimal/regional/kv': 1, 'minimal/local/list': 0 };
const FULL: Record<string, number> = { 'minimal/regional/kv': 0.9 / 0.98, 'minimal/local/list': 0.05 / 1.0 };

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const FORMATS = ['prose', 'list', 'kv'];
/** SS and WR by their definitions (docs/methods.md), from cell means keyed world/format. */
function metrics(cell: (world: string, format: string) => number): [number, number] {
  const ss = mean(['regional', 'local'].map((w) => mean(FORMATS.slice(1).map((f) => Math.abs(cell(w, 'prose') - cell(w, f))))));
  const wr = mean(FORMATS.map((f) => cell('regional', f) - cell('local', f)));
  return [ss, wr];
}
const cellOf = (cond: string, pick: (key: string, rep: number) => number) => (w: string, f: string) => {
  const k = `${cond}/${w}/${f}`;
  return mean([pick(k, 0), pick(k, 1)]);
};

type Row = Record<string, string>;
const csv = (path: string): Row[] => Papa.parse<Row>(readFileSync(path, 'utf8'), { header: true, skipEmptyLines: true }).data;

describe('loopback Responses API → run → analyze equals the hand computation', () => {
  let srv: Loopback;
  let dir: string;
  let out: string;
  let store: string;
  beforeAll(async () => {
    srv = await startLoopback({
      answer: (_prompt, key) => {
        const [, , framing, rep] = key.split('|');
        const top = TOP[framing][Number(rep)]!;
        return { text: top[0][0].trim(), top };
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'sg-selective-'));
    const design = readFileSync(join(ROOT, 'test/fixtures/enrichment/small.yaml'), 'utf8')
      .replace(/^synthetic: true\n/m, '')
      .replace(/^ {2}- \{ id: M, provider: simulated.*$/m, `  - { id: M, provider: openai-responses, model: loop, base_url: "${srv.url}", api_key_env: SAMEGAME_TEST_KEY }`);
    writeFileSync(join(dir, 'd.yaml'), design);
    store = join(dir, 'd.sqlite');
    out = join(dir, 'out');
    const env = cleanEnv({ SAMEGAME_TEST_KEY: 'sk-test' });
    const run = await runCli(['run', join(dir, 'd.yaml'), '--store', store, '-q'], { env });
    expect(run.stderr).toMatch(/^done: \d+ trials stored \(\d+ ok, 0 invalid, 0 errors\), \d+ tokens; store .+\nnext: samegame analyze .+\n$/); // -q: the summary and the next command only
    expect(run.code).toBe(0);
    const an = await runCli(['analyze', store, '--out', out], { env });
    expect(an.code, an.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the seed settings on the wire: top_logprobs 20, logprobs included, temperature 0.7, 64 tokens, effort none', () => {
    expect(srv.log).toHaveLength(24);
    const body = JSON.parse(srv.log[0].body) as Record<string, unknown>;
    expect(body).toMatchObject({ top_logprobs: 20, include: ['message.output_text.logprobs'], temperature: 0.7, max_output_tokens: 64, reasoning: { effort: 'none' } });
    expect(String(body.input)).toMatch(/Answer with exactly one word, either TRANSFER or RETAIN, and nothing else\.$/);
  });

  it('every call’s transfer probability (export p_cooperate) is t/(t+r), with u/2 for a missing action', async () => {
    const ex = await runCli(['export', store, '--format', 'csv']);
    const rows = Papa.parse<Row>(ex.stdout, { header: true, skipEmptyLines: true }).data;
    expect(rows).toHaveLength(24);
    for (const r of rows) {
      expect(`${r.condition}/${r.world}/${r.format}`).toBe(r.framing);
      expect(Number(r.p_cooperate), `${r.framing} ${r.rep}`).toBeCloseTo(P[r.framing][Number(r.rep)], 12);
    }
  });

  it('selective.csv has the contract columns and the hand-computed metrics (fractions)', () => {
    const text = readFileSync(join(out, 'reports/selective.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('model,condition,surface_sensitivity,ss_lo,ss_hi,world_responsiveness,wr_lo,wr_hi,verdict');
    const rows = csv(join(out, 'reports/selective.csv'));
    expect(rows.map((r) => r.condition)).toEqual(['minimal', 'grounded']);
    for (const r of rows) {
      const [ss, wr] = metrics(cellOf(r.condition, (k, rep) => P[k][rep]));
      expect(Number(r.surface_sensitivity), r.condition).toBeCloseTo(ss, 12);
      expect(Number(r.world_responsiveness), r.condition).toBeCloseTo(wr, 12);
    }
    // grounded by hand: SS = (0 + (|0.1 − 13/60| + 0)/2)/2 = 7/240; WR = (0.8 + (0.9 − 13/60) + 0.8)/3 = 137/180.
    expect(Number(rows[1].surface_sensitivity)).toBeCloseTo(7 / 240, 12);
    expect(Number(rows[1].world_responsiveness)).toBeCloseTo(137 / 180, 12);
    // Only grounded/local/list can vary under resampling: its mean is 0.1, 13/60 or 1/3 with
    // probabilities ¼, ½, ¼, so the 2.5 % and 97.5 % percentiles are the extremes.
    expect([Number(rows[1].ss_lo), Number(rows[1].ss_hi)]).toEqual([0, expect.closeTo(7 / 120, 12)]);
    expect(Number(rows[1].wr_lo)).toBeCloseTo(13 / 18, 12);
    expect(Number(rows[1].wr_hi)).toBeCloseTo(0.8, 12);
    // Default verdict thresholds: invariance by equivalence at 0.05 (docs/methods.md §12) and the WR
    // interval above 0. Two calls per cell cannot show SS ≤ 0.05: grounded's point 7/240 is below it,
    // but its simultaneous upper bound lies above it.
    const eq = csv(join(out, 'reports/selective-equivalence.csv'));
    expect(Number(eq[1].ss_upper_simultaneous)).toBeGreaterThan(0.05);
    expect(rows[1].verdict).toBe('invariance inconclusive, world-responsive');
    expect(Number(rows[0].surface_sensitivity)).toBeGreaterThan(0.05);
    expect(rows[0].verdict).toMatch(/^(surface-sensitive|invariance inconclusive)/);
  });

  it('imputation sensitivity: the metrics with the missing mass at 0 and at the full unreturned mass', () => {
    const rows = csv(join(out, 'reports/selective-imputation.csv'));
    const m = rows.find((r) => r.condition === 'minimal')!;
    const bound = (b: Record<string, number>) => cellOf('minimal', (k, rep) => (rep === 0 && k in b ? b[k] : P[k][rep]));
    const [mid, zero, full] = [cellOf('minimal', (k, rep) => P[k][rep]), bound(ZERO), bound(FULL)].map(metrics);
    expect(Number(m.ss_missing_at_zero)).toBeCloseTo(zero[0], 12);
    expect(Number(m.ss_missing_at_full)).toBeCloseTo(full[0], 12);
    expect(Number(m.wr_missing_at_zero)).toBeCloseTo(zero[1], 12);
    expect(Number(m.wr_missing_at_full)).toBeCloseTo(full[1], 12);
    expect([m.imputed_calls, m.calls]).toEqual(['2', '12']);
    const largest = Math.max(...[zero, full].flatMap((b) => [Math.abs(b[0] - mid[0]), Math.abs(b[1] - mid[1])]));
    expect(Number(m.max_abs_change)).toBeCloseTo(largest, 12);
    const json = JSON.parse(readFileSync(join(out, 'reports/selective.json'), 'utf8'));
    expect(json.imputation).toMatchObject({ imputed_calls: 2, scored_calls: 24 });
    expect(json.imputation.max_abs_change).toBeCloseTo(largest, 12);
    expect(rows.find((r) => r.condition === 'grounded')!.max_abs_change).toBe('0');
  });

  it('the context-enrichment summary metrics on the same cells: mean JSD (divergence, nats) and directional sensitivity', () => {
    const H = (p: number) => (p <= 0 || p >= 1 ? 0 : -p * Math.log(p) - (1 - p) * Math.log(1 - p));
    const jsd = (p: number, q: number) => H((p + q) / 2) - (H(p) + H(q)) / 2;
    const r = csv(join(out, 'reports/selective-paraphrase.csv')).find((x) => x.condition === 'minimal')!;
    const c = cellOf('minimal', (k, rep) => P[k][rep]);
    const div = mean(['regional', 'local'].map((w) => mean(['list', 'kv'].map((f) => jsd(c(w, 'prose'), c(w, f))))));
    const dist = mean(['regional', 'local'].map((w) => mean(['list', 'kv'].map((f) => Math.sqrt(jsd(c(w, 'prose'), c(w, f)))))));
    expect(Number(r.jsd_divergence)).toBeCloseTo(div, 12);
    expect(Number(r.js_distance)).toBeCloseTo(dist, 12);
    expect(Number(r.directional_sensitivity)).toBeCloseTo(c('regional', 'prose') - c('local', 'prose'), 12);
  });
});
