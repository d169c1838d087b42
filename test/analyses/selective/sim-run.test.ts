/**
 * The offline pilot: `samegame run data/designs/hospital-transfer-sim.yaml` then `samegame analyze`
 * gives the selective table, the verdicts, the imputation sensitivity and the plane figure, with
 * the published metrics drawn on the same plane.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTables } from '../../../src/commands/analyze.js';
import { runCli } from '../../helpers/cli.js';
import { writeStore } from '../../helpers/store.js';
import { TrialStore } from '../../../src/live/store/store.js';
import { storeTable, type StoreTable } from '../../../src/sources/store.js';
import { selectiveAnalysis } from '../../../src/analyses/selective/index.js';

type Row = Record<string, string>;
const csv = (path: string): Row[] => Papa.parse<Row>(readFileSync(path, 'utf8'), { header: true, skipEmptyLines: true }).data;
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const FORMATS = ['canonical-prose', 'bullets', 'key-value', 'paraphrased-prose'];

let dir: string;
let store: string;
let out: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-selsim-'));
  store = join(dir, 'h.sqlite');
  out = join(dir, 'out');
  const run = await runCli(['run', 'data/designs/hospital-transfer-sim.yaml', '--store', store, '-q']);
  expect(run.code, run.stderr).toBe(0);
  const an = await runCli(['analyze', store, '--out', out]);
  expect(an.code, an.stderr).toBe(0);
  expect(an.stderr).toContain('warning: synthetic data');
  expect(an.stdout).toContain('Selective robustness (percentage points');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a simulated run of the context-enrichment paper pilot', () => {
  it('writes the selective table: 2 models × 5 conditions, contract columns, fractions', () => {
    const text = readFileSync(join(out, 'reports/selective.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('model,condition,surface_sensitivity,ss_lo,ss_hi,world_responsiveness,wr_lo,wr_hi,verdict');
    const rows = csv(join(out, 'reports/selective.csv'));
    expect(rows.map((r) => `${r.model}/${r.condition}`)).toEqual(['Sim-Sol', 'Sim-Terra'].flatMap((m) =>
      ['minimal', 'neutral-padding', 'generic-social', 'descriptive-grounding', 'normative-grounding'].map((c) => `${m}/${c}`)));
    for (const r of rows) {
      const [ss, lo, hi, wr, wlo, whi] = ['surface_sensitivity', 'ss_lo', 'ss_hi', 'world_responsiveness', 'wr_lo', 'wr_hi'].map((k) => Number(r[k]));
      expect(lo <= ss && ss <= hi && wlo <= wr && wr <= whi, `${r.model}/${r.condition}`).toBe(true);
      expect(ss >= 0 && ss <= 1 && Math.abs(wr) <= 1).toBe(true); // fractions, not percent
    }
  });

  it('the metrics follow the definitions from the per-cell means (reports/selective-cells.csv)', () => {
    const cells = csv(join(out, 'reports/selective-cells.csv'));
    expect(cells).toHaveLength(80);
    expect(cells.every((c) => c.valid_calls === '10')).toBe(true);
    const p = (m: string, c: string, w: string, f: string) => Number(cells.find((x) => x.model === m && x.condition === c && x.world === w && x.format === f)!.p_transfer_mean);
    for (const r of csv(join(out, 'reports/selective.csv'))) {
      const ss = mean(['regional', 'local'].map((w) => mean(FORMATS.slice(1).map((f) => Math.abs(p(r.model, r.condition, w, 'canonical-prose') - p(r.model, r.condition, w, f))))));
      const wr = mean(FORMATS.map((f) => p(r.model, r.condition, 'regional', f) - p(r.model, r.condition, 'local', f)));
      // the files carry 12 significant digits (README, "Numbers in the files"): inputs and results each within 5e-13
      expect(Number(r.surface_sensitivity)).toBeCloseTo(ss, 11);
      expect(Number(r.world_responsiveness)).toBeCloseTo(wr, 11);
    }
  });

  it('verdicts follow the thresholds, and the simulated truth shows through', () => {
    const rows = csv(join(out, 'reports/selective.csv'));
    const eq = csv(join(out, 'reports/selective-equivalence.csv'));
    rows.forEach((r, i) => {
      // Invariance by equivalence on the simultaneous bounds of SS (docs/methods.md §12).
      const lower = Number(eq[i].ss_lower_simultaneous), upper = Number(eq[i].ss_upper_simultaneous);
      expect(lower <= Number(r.surface_sensitivity) && Number(r.surface_sensitivity) <= upper).toBe(true);
      const inv = upper <= 0.05 ? 'invariant' : lower > 0.05 ? 'not invariant' : 'inconclusive';
      expect(eq[i].invariance).toBe(inv);
      const resp = Number(r.wr_lo) > 0;
      expect(r.verdict).toBe(inv === 'invariant' ? (resp ? 'selectively robust' : 'not world-responsive')
        : inv === 'not invariant' ? (resp ? 'surface-sensitive' : 'surface-sensitive and not world-responsive')
          : `invariance inconclusive, ${resp ? 'world-responsive' : 'not world-responsive'}`);
    });
    const v = (m: string, c: string) => rows.find((r) => r.model === m && r.condition === c)!.verdict;
    // Sim-Sol's grounded conditions: regional logit +2.2/+3 vs local −7, format noise sd 0.3 → robust.
    expect(v('Sim-Sol', 'descriptive-grounding')).toBe('selectively robust');
    expect(v('Sim-Sol', 'normative-grounding')).toBe('selectively robust');
    // Sim-Terra's local paraphrased-prose cell drifts (+2.8 / +7.7 logits): never robust.
    expect(rows.filter((r) => r.model === 'Sim-Terra').every((r) => r.verdict !== 'selectively robust')).toBe(true);
  });

  it('reports the imputation sensitivity: imputed calls, bounds and the largest change', () => {
    const j = JSON.parse(readFileSync(join(out, 'reports/selective.json'), 'utf8'));
    expect(j.synthetic_models).toEqual(['Sim-Sol', 'Sim-Terra']);
    expect(j.imputation.scored_calls).toBe(800);
    expect(j.imputation.imputed_calls).toBeGreaterThan(0); // truncate_below drops unlikely candidates, as top-p did
    const rows = csv(join(out, 'reports/selective-imputation.csv'));
    expect(rows.reduce((s, r) => s + Number(r.imputed_calls), 0)).toBe(j.imputation.imputed_calls);
    expect(Math.max(...rows.map((r) => Number(r.max_abs_change)))).toBe(j.imputation.max_abs_change);
    const md = readFileSync(join(out, 'reports/selective.md'), 'utf8');
    expect(md).toContain('**Synthetic data**');
    expect(md).toContain(`${j.imputation.imputed_calls} of 800 scored calls lacked one action`);
    expect(md).toMatch(/Jensen–Shannon \*\*divergence\*\*/);
  });

  it('draws the plane with the published metrics on the same axes', () => {
    for (const ext of ['vl.json', 'svg', 'png']) expect(existsSync(join(out, `figures/selective-plane.${ext}`)), ext).toBe(true);
    const spec = JSON.parse(readFileSync(join(out, 'figures/selective-plane.vl.json'), 'utf8'));
    const values = spec.data.values as Row[];
    expect(values).toHaveLength(20);
    const published = values.filter((v) => String(v.source).startsWith('Published'));
    expect(published.map((v) => `${v.model}/${v.condition}`)).toContain('Sol/descriptive-grounding');
    expect(published.find((v) => v.model === 'Sol' && v.condition === 'minimal')).toMatchObject({ ss: 0.341, ssLo: 0.303, ssHi: 0.403, wr: 0.339, wrLo: 0.28, wrHi: 0.402 });
    expect(spec.facet.column.field).toBe('source'); // one panel per source, shared x and y scales
    const svg = readFileSync(join(out, 'figures/selective-plane.svg'), 'utf8');
    expect(svg).toContain('Published: Greiche et al. 2026');
    expect(svg).toContain('This run: hospital-transfer-sim (synthetic)');
    expect(readFileSync(join(out, 'figures/selective-plane.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('writes reports/report.html with the table (in points) and the plane figure', () => {
    const html = readFileSync(join(out, 'reports/report.html'), 'utf8');
    expect(html).toContain('Selective robustness (percentage points)');
    expect(html).toContain('data-figure="selective-plane"');
    const rows = readFileSync(join(out, 'reports/selective.csv'), 'utf8').trim().split('\n').slice(1);
    const first = rows[0].split(',');
    // The table shows the CSV's fractions as points: 100 · surface sensitivity, one decimal.
    expect(html).toContain(`>${(100 * Number(first[2])).toFixed(1)}<`);
  });

  it('report.html: synthetic banner, provenance (store, SHA-256, run), settings with the regenerate command, file links', () => {
    const html = readFileSync(join(out, 'reports/report.html'), 'utf8');
    const json = JSON.parse(readFileSync(join(out, 'reports/selective.json'), 'utf8')) as { command: string; input: { path: string; sha256: string } };
    expect(html).toContain('<p class="banner" role="note">Synthetic data: Sim-Sol, Sim-Terra answered through the simulated provider');
    expect(json.input.path).toBe(store);
    expect(html).toContain(`<dt>Store</dt><dd>${store}</dd><dt>SHA-256</dt><dd>${json.input.sha256}</dd>`);
    expect(json.command).toBe(`samegame analyze ${store} --run 1 --seed 20240818 --reps 10000 --max-surface-sensitivity 0.05 --min-world-responsiveness 0`);
    expect(html).toContain('<section id="settings">');
    expect(html).toContain(`<pre><code>samegame analyze ${store} \\\n  --run 1 \\\n  --seed 20240818`);
    for (const f of ['selective.csv', 'selective.json', '../figures/selective-plane.png']) expect(html).toContain(`<a href="${f}">`);
  });

  it('plan refuses a context-enrichment store clearly instead of planning the wrong statistics', async () => {
    const r = await runCli(['plan', store, '--target-halfwidth', '0.05']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('plan covers the two-framing statistics R and shift only');
  });

  it('the export carries condition, world, format and the transfer probability per call', async () => {
    const ex = await runCli(['export', store, '--format', 'csv']);
    const head = ex.stdout.split('\n')[0].split(',');
    for (const c of ['condition', 'world', 'format', 'p_cooperate', 'synthetic']) expect(head, c).toContain(c);
    expect(ex.stdout.split('\n').filter(Boolean)).toHaveLength(801);
  });

  it('threshold flags change the verdicts, and a bad flag value is refused', async () => {
    const out2 = join(dir, 'out2');
    const r = await runCli(['analyze', store, '--out', out2, '--reps', '500', '--max-surface-sensitivity', '0.5', '-q']);
    expect(r.code, r.stderr).toBe(0);
    const rows = csv(join(out2, 'reports/selective.csv'));
    for (const x of rows) expect(x.verdict).toBe(Number(x.wr_lo) > 0 ? 'selectively robust' : 'not world-responsive');
    // The plane's caption (in the report) states the threshold the verdicts used, not the default's.
    const html = readFileSync(join(out2, 'reports/report.html'), 'utf8');
    expect(html).toContain('at most ε = 50.0 points, an equivalence decision');
    expect(html).not.toContain('ε = 5.0 points');
    const bad = await runCli(['analyze', store, '--out', out2, '--min-world-responsiveness', 'high']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--min-world-responsiveness: "high" is not a number in [0, 1]');
  });
});

describe('the analysis is given what the store reader read (it opens no store)', () => {
  it('the imputation bounds come with the cell table of a context-enrichment run; a table without them is refused', () => {
    const s = TrialStore.openExisting(store);
    let source: StoreTable;
    try { source = storeTable(s, s.runs()[0]); } finally { s.close(); }
    const j = JSON.parse(readFileSync(join(out, 'reports/selective.json'), 'utf8'));
    expect([source.imputation?.imputed, source.imputation?.scored]).toEqual([j.imputation.imputed_calls, 800]);
    expect(source.imputation?.zero.cells).toHaveLength(source.table.cells.length);
    const a = selectiveAnalysis(source, { store, out: join(dir, 'given'), reps: 50 });
    expect([a.imputation.imputed, a.imputation.scored]).toEqual([j.imputation.imputed_calls, 800]);
    const { imputation: _, ...bare } = source;
    expect(() => selectiveAnalysis(bare, { store, out: join(dir, 'bare') })).toThrow(/is not a context-enrichment design/);
  });
});

describe('analyze on stores that are not complete context-enrichment runs', () => {
  it('a store with condition/world/format factors but no enrichment design is refused clearly', () => {
    const path = join(dir, 'bare.sqlite');
    writeStore(path, { name: 'bare' }, [{ model: 'm', game: 'g', framing: 'a/b/c', probs: [0.5], factors: { condition: 'a', world: 'b', format: 'c' } }]);
    expect(() => analyzeTables({ store: path })).toThrow(/is not a context-enrichment design \(it registers no worlds, direction or formats\)/);
  });
  it('a model × condition missing a cell is left out and listed, the rest analyzed', () => {
    const path = join(dir, 'partial.sqlite');
    const enrichment = { direction: { higher: 'r', lower: 'l' }, formats: [{ id: 'a' }, { id: 'b' }], conditions: [{ id: 'x' }, { id: 'y' }] };
    const cells = ['x', 'y'].flatMap((c) => ['r', 'l'].flatMap((w) => ['a', 'b'].map((f) => ({ model: 'm', game: 'g', framing: `${c}/${w}/${f}`, probs: [w === 'r' ? 0.8 : 0.2, 0.5], factors: { condition: c, world: w, format: f } }))))
      .filter((c) => c.framing !== 'y/l/b');
    writeStore(path, { name: 'partial', enrichment }, cells);
    const res = analyzeTables({ store: path, reps: 200 });
    expect(res.kind).toBe('selective');
    if (res.kind !== 'selective') return;
    expect(res.rows.map((r) => r.condition)).toEqual(['x']);
    expect(res.layout.missing).toEqual(['m / y / l / b']);
    // x: every cell mean is 0.65 (r) or 0.35 (l) → SS 0, WR 0.3.
    expect(res.rows[0].ss).toBeCloseTo(0, 12);
    expect(res.rows[0].wr).toBeCloseTo(0.3, 12);
  });
});
