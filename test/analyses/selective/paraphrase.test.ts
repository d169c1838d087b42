/**
 * the context-enrichment summary's metrics (paraphrase invariance by mean Jensen–Shannon divergence, directional
 * sensitivity) on the selective layout, by hand and on a simulated run of
 * data/designs/enrichment-paraphrase.yaml (sampled text, parsed).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { selectiveLayout } from '../../../src/analyses/selective/estimand.js';
import { stat } from '../../../src/core/names.js';
import type { CellTable } from '../../../src/core/cells.js';
import { paraphraseEstimand } from '../../../src/analyses/selective/paraphrase-estimand.js';
import { runCli } from '../../helpers/cli.js';

const H = (p: number) => (p <= 0 || p >= 1 ? 0 : -p * Math.log(p) - (1 - p) * Math.log(1 - p));
const jsd = (p: number, q: number) => H((p + q) / 2) - (H(p) + H(q)) / 2;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('paraphraseEstimand (hand values)', () => {
  // worlds [new, old] × formats [original, para-1, para-2]: rates 0.8, 0.6, 1 | 0.5, 0.5, 0.2
  const rates: Record<string, number[]> = { new: [0.8, 0.6, 1], old: [0.5, 0.5, 0.2] };
  const formats = ['original', 'para-1', 'para-2'];
  const table: CellTable = {
    factors: ['model', 'condition', 'world', 'format'],
    cells: Object.entries(rates).flatMap(([world, ps]) => ps.map((p, i) => ({ key: { model: 'm', condition: 'c', world, format: formats[i] }, obs: { kind: 'binary' as const, n: 10, x: p * 10 } }))),
  };
  const est = paraphraseEstimand(selectiveLayout(table, { worlds: ['new', 'old'], formats }));
  const out = new Float64Array(est.names.length);
  est.evaluate(Float64Array.from([0.8, 0.6, 1, 0.5, 0.5, 0.2]), out);
  it('mean JSD over paraphrases, averaged over worlds; the distance beside it; DS on the original', () => {
    expect(est.names).toEqual([stat('JSD', 'm', 'c'), stat('JSDIST', 'm', 'c'), stat('DS', 'm', 'c')]);
    const div = ((jsd(0.8, 0.6) + jsd(0.8, 1)) / 2 + (jsd(0.5, 0.5) + jsd(0.5, 0.2)) / 2) / 2;
    const dist = ((Math.sqrt(jsd(0.8, 0.6)) + Math.sqrt(jsd(0.8, 1))) / 2 + (0 + Math.sqrt(jsd(0.5, 0.2))) / 2) / 2;
    expect(out[0]).toBeCloseTo(div, 14);
    expect(out[1]).toBeCloseTo(dist, 14);
    expect(out[2]).toBeCloseTo(0.3, 14); // (0.8 − 0.5)·(+1)
  });
  it('identical formats give zero divergence (a perfectly invariant agent)', () => {
    est.evaluate(Float64Array.from([0.7, 0.7, 0.7, 0.2, 0.2, 0.2]), out);
    expect([out[0], out[1]]).toEqual([0, 0]);
    expect(out[2]).toBeCloseTo(0.5, 14);
  });
});

describe('the context-enrichment summary variant, sampled from simulated agents', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-para-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('analyze reports JSD (divergence and distance) and directional sensitivity with intervals, from the cell rates', async () => {
    const store = join(dir, 'p.sqlite');
    const run = await runCli(['run', 'data/designs/enrichment-paraphrase.yaml', '--provider', 'simulated', '--store', store, '-q']);
    expect(run.code, run.stderr).toBe(0);
    const an = await runCli(['analyze', store, '--out', join(dir, 'out'), '--reps', '2000']);
    expect(an.code, an.stderr).toBe(0);
    expect(an.stderr).toContain('sampled text, no imputation');
    type Row = Record<string, string>;
    const read = (f: string) => Papa.parse<Row>(readFileSync(join(dir, 'out/reports', f), 'utf8'), { header: true, skipEmptyLines: true }).data;
    const cells = read('selective-cells.csv');
    expect(cells).toHaveLength(2 * 4 * 2 * 4);
    const p = (m: string, c: string, w: string, f: string) => Number(cells.find((x) => x.model === m && x.condition === c && x.world === w && x.format === f)!.p_transfer_mean);
    const paras = ['paraphrase-1', 'paraphrase-2', 'paraphrase-3'];
    const rows = read('selective-paraphrase.csv');
    expect(rows).toHaveLength(8);
    for (const r of rows) {
      const worlds = ['cooperation-rewarded', 'standard'];
      const div = mean(worlds.map((w) => mean(paras.map((f) => jsd(p(r.model, r.condition, w, 'original'), p(r.model, r.condition, w, f))))));
      expect(Number(r.jsd_divergence)).toBeCloseTo(div, 12);
      expect(Number(r.jsd_divergence)).toBeLessThanOrEqual(Math.LN2);
      expect(Number(r.directional_sensitivity)).toBeCloseTo(p(r.model, r.condition, worlds[0], 'original') - p(r.model, r.condition, worlds[1], 'original'), 12);
      expect(Number(r.ds_lo)).toBeLessThanOrEqual(Number(r.directional_sensitivity));
      expect(Number(r.ds_hi)).toBeGreaterThanOrEqual(Number(r.directional_sensitivity));
    }
    // The simulated agent's true change is logistic(−0.6) − logistic(−1.2) ≈ +0.123 in every cell:
    // pooled over the 8 model × condition groups and the 4 formats, world responsiveness is positive.
    const sel = read('selective.csv');
    expect(mean(sel.map((r) => Number(r.world_responsiveness)))).toBeGreaterThan(0);
  }, 60_000);
});
