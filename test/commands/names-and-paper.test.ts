/**
 * A design's `names:` block reaches the repeated report and figures (the CSVs keep the ids and add
 * the names; `--names` wins over the block), and `--figure-style paper` draws the figures for a
 * paper: no title (it goes to figures/captions.md), the width in points, the chosen font, the
 * paper palette; without the flag the figures are as before.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { ROOT } from '../helpers/cli.js';
import { PAPER_PALETTE } from '../../src/render/paper-style.js';
import { pngSize } from '../helpers/akata-report.js';
import { writeStore } from '../helpers/store.js';

/** A CSV without quoted fields as rows of cells. */
const csvRows = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => l.split(','));

const tmp = mkdtempSync(join(tmpdir(), 'samegame-names-paper-'));
const store = join(tmp, 'run.sqlite');

beforeAll(async () => {
  const design = readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8')
    .replace(/^trials: 10$/m, 'trials: 2').replace(/rounds: 10/, 'rounds: 3')
    .replace(/^synthetic: true$/m, 'synthetic: true\nnames: { Sim-A: "Agent Alpha", always-defect: "All-D" }');
  writeFileSync(join(tmp, 'd.yaml'), design);
  const r = await runInProcess(['run', join(tmp, 'd.yaml'), '--store', store, '-q'], 120_000);
  if (r.code !== 0) throw new Error(r.stderr);
}, 180_000);

describe('display names from a design', () => {
  it('the report and the figures show the names; the CSVs keep the ids and add the names', async () => {
    const out = join(tmp, 'a');
    const r = await runInProcess(['analyze', store, '--out', out, '--reps', '100'], 60_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Agent Alpha');
    const html = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('<td>Agent Alpha</td>');
    expect(html).toContain('<td>All-D</td>');
    expect(readFileSync(join(out, 'figures', 'repeated-rounds.svg'), 'utf8')).toContain('Agent Alpha');
    const cells = readFileSync(join(out, 'reports', 'cells.csv'), 'utf8').split('\n');
    expect(cells[0].endsWith(',model_name,opponent_name')).toBe(true);
    expect(cells.find((l) => l.startsWith('Sim-A,') && l.includes(',always-defect,'))).toMatch(/,Agent Alpha,All-D$/);
    expect(JSON.parse(readFileSync(join(out, 'reports', 'repeated.json'), 'utf8')).names).toEqual({ 'Sim-A': 'Agent Alpha', 'always-defect': 'All-D' });
  });

  it('--names wins over the design\'s block', async () => {
    const names = join(tmp, 'names.csv');
    writeFileSync(names, 'id,name\nSim-A,Model A\n');
    const out = join(tmp, 'b');
    const r = await runInProcess(['analyze', store, '--out', out, '--reps', '100', '--names', names, '-q'], 60_000);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('<td>Model A</td>');
    expect(html).not.toContain('Agent Alpha');
    expect(html).toContain('<td>All-D</td>');
  });
});

describe('display names in the two-framing tables of repeated play', () => {
  it('table2.csv and table3.csv add model_name after their columns, metrics.json the names; ids as without names', async () => {
    const design = readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8')
      .replace(/^trials: 10$/m, 'trials: 2').replace(/rounds: 10/, 'rounds: 3')
      .replace(/^( {2}- \{ id: akata-jf, .*)$/m, '$1\n  - { id: akata-xy, family: label-perturbation, labels: [X, Y] }');
    writeFileSync(join(tmp, 'd2.yaml'), design);
    const store2 = join(tmp, 'two.sqlite');
    const run = await runInProcess(['run', join(tmp, 'd2.yaml'), '--store', store2, '-q'], 120_000);
    expect(run.code, run.stderr).toBe(0);
    const names = join(tmp, 'two-names.csv');
    writeFileSync(names, 'id,name\nSim-A,Agent Alpha\n');
    const [plain, named] = [join(tmp, 'two-plain'), join(tmp, 'two-named')];
    for (const [out, extra] of [[plain, []], [named, ['--names', names]]] as const) {
      const r = await runInProcess(['analyze', store2, '--out', out, '--reps', '100', '-q', ...extra], 60_000);
      expect(r.code, r.stderr).toBe(0);
    }
    for (const file of ['table2.csv', 'table3.csv']) {
      // a synthetic run: both files end with the synthetic column; the names go before it, as on every route
      const [p, n] = [plain, named].map((d) => csvRows(join(d, 'reports', file)));
      expect(p[0].at(-1)).toBe('synthetic');
      expect(n[0].slice(-2)).toEqual(['model_name', 'synthetic']);
      const drop = (rows: string[][], i: number) => rows.map((r) => [...r.slice(0, i), ...r.slice(i + 1)]);
      const [pp, nn] = [drop(p, p[0].length - 1), drop(n, n[0].length - 1)];
      expect(pp.every((r) => r.length === p[0].length - 1) && n.slice(1).every((r) => r.at(-1) === 'true')).toBe(true);
      expect(nn.map((r) => r.slice(0, -1))).toEqual(pp);
      expect(nn.slice(1).map((r) => r.at(-1))).toEqual(pp.slice(1).map((r) => (r[0] === 'Sim-A' ? 'Agent Alpha' : r[0])));
      expect(nn.some((r) => r.at(-1) === 'Agent Alpha')).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(named, 'reports', 'metrics.json'), 'utf8')).names).toEqual({ 'Sim-A': 'Agent Alpha' });
  }, 240_000);
});

describe('display names on reproduce', () => {
  it('the report, the figures, Table 3 in the terminal and the LaTeX show the name; the CSVs keep the id and add the name', async () => {
    const names = join(tmp, 'shipped-names.csv');
    writeFileSync(names, 'id,name\nGPT-4,"R&D_50%_{x}"\nStag Hunt,Stag hunt (SH)\n');
    const out = join(tmp, 'rep');
    const r = await runInProcess(['reproduce', '--out', out, '--reps', '200', '--names', names], 120_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^R&D_50%_\{x\}\s+0\.65\d/m);
    const html = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('<td>R&amp;D_50%_{x}</td>');
    expect(html).toContain('Stag hunt (SH)');
    expect(html).toContain('--names'); // the regenerate command
    expect(readFileSync(join(out, 'figures', 'table3-forest.svg'), 'utf8')).toContain('R&amp;D_50%_{x}');
    expect(readFileSync(join(out, 'reports', 'table3.tex'), 'utf8')).toContain('R\\&D\\_50\\%\\_\\{x\\} & 0.65');
    expect(readFileSync(join(out, 'reports', 'table3.csv'), 'utf8')).toMatch(/^GPT-4,0\.65/m);
    expect(readFileSync(join(out, 'reports', 'table2.csv'), 'utf8')).toContain('GPT-4,Stag Hunt,');
    // the CSVs add the names after their columns (ids and numbers as without --names); metrics.json adds the map
    const plain = join(tmp, 'rep-plain');
    expect((await runInProcess(['reproduce', '--out', plain, '--reps', '200', '-q'], 120_000)).code).toBe(0);
    const t3 = csvRows(join(out, 'reports', 'table3.csv')), t3plain = csvRows(join(plain, 'reports', 'table3.csv'));
    expect(t3[0]).toEqual([...t3plain[0], 'model_name']);
    expect(t3.map((r) => r.slice(0, -1))).toEqual(t3plain);
    expect(t3.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([['GPT-3.5', 'GPT-3.5'], ['GPT-4', 'R&D_50%_{x}'], ['LLaMa-2', 'LLaMa-2'], ['Pooled', 'Pooled']]);
    const t2 = csvRows(join(out, 'reports', 'table2.csv')), t2plain = csvRows(join(plain, 'reports', 'table2.csv'));
    expect(t2[0]).toEqual([...t2plain[0], 'model_name', 'game_name']);
    expect(t2.map((r) => r.slice(0, -2))).toEqual(t2plain);
    const sh = t2.find((r) => r[0] === 'GPT-4' && r[1] === 'Stag Hunt')!;
    expect(sh.slice(-2)).toEqual(['R&D_50%_{x}', 'Stag hunt (SH)']);
    expect(t2.find((r) => r[0] === 'GPT-3.5' && r[1] === 'Prisoner\'s Dilemma')!.slice(-2)).toEqual(['GPT-3.5', 'Prisoner\'s Dilemma']);
    const metrics = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
    expect(metrics.names).toEqual({ 'GPT-4': 'R&D_50%_{x}', 'Stag Hunt': 'Stag hunt (SH)' });
    expect(JSON.parse(readFileSync(join(plain, 'reports', 'metrics.json'), 'utf8')).names).toBeUndefined();
  }, 240_000);

  it.each([
    ['two models shown alike', 'id,name\nGPT-3.5,A\nGPT-4,A\n', /model "GPT-3\.5" \(named in .*:2\) and model "GPT-4" \(named in .*:3\) would both be shown as "A"/],
    ['a model shown as another', 'id,name\nGPT-3.5,GPT-4\n', /model "GPT-3\.5" \(named in .*:2\) and model "GPT-4" \(its id\) would both be shown as "GPT-4"/],
    ['a model shown as Pooled', 'id,name\nLLaMa-2,Pooled\n', '"LLaMa-2" would be shown as "Pooled"'],
    ['an id named twice', 'id,name\nGPT-4,A\nGPT-4,B\n', ':3: field "id": "GPT-4" is named twice'],
  ])('names that would merge levels (%s): one line, exit 2, nothing written', async (what, text, message) => {
    const names = join(tmp, `clash-${what.replace(/\W+/g, '-')}.csv`);
    writeFileSync(names, text);
    const out = join(tmp, `clash-${what.replace(/\W+/g, '-')}`);
    const r = await runInProcess(['reproduce', '--out', out, '--reps', '50', '--names', names], 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([typeof message === 'string' ? expect.stringContaining(message) : expect.stringMatching(message)]);
    expect(existsSync(out)).toBe(false);
  });

  it('analyze of a one-shot store takes --names over its design\'s names: block: the CSVs add the names, the terminal shows them', async () => {
    const store1 = join(tmp, 'one.sqlite');
    const cells = [{ model: 'A', game: 'G', framing: 'business', actions: ['C', 'D'] as ('C' | 'D')[] }, { model: 'A', game: 'G', framing: 'friend-sharing', actions: ['C', 'C'] as ('C' | 'D')[] },
      { model: 'B', game: 'G', framing: 'business', actions: ['D', 'D'] as ('C' | 'D')[] }, { model: 'B', game: 'G', framing: 'friend-sharing', actions: ['C', 'D'] as ('C' | 'D')[] }];
    writeStore(store1, { name: 'one', names: { A: 'Alpha', B: 'Beta' } }, cells);
    const names = join(tmp, 'n1.csv');
    writeFileSync(names, 'id,name\nA,Aleph\n');
    const r = await runInProcess(['analyze', store1, '--names', names, '--out', join(tmp, 'one'), '--reps', '50'], 60_000);
    expect(r.code, r.stderr).toBe(0);
    const t3 = readFileSync(join(tmp, 'one', 'reports', 'table3.csv'), 'utf8').trim().split('\n');
    expect(t3[0]).toBe('model,R,R_lo,R_hi,shift,shift_lo,shift_hi,R_corrected,R_corrected_lo,R_corrected_hi,shift_wilson_lo,shift_wilson_hi,model_name');
    // the file wins for A, the design's block names B
    expect(t3.slice(1).map((l) => l.split(',').at(-1))).toEqual(['Aleph', 'Beta', 'Pooled']);
    expect(r.stdout).toMatch(/^Aleph /m);
    const m = JSON.parse(readFileSync(join(tmp, 'one', 'reports', 'metrics.json'), 'utf8')) as { command: string; names: Record<string, string> };
    expect(m.names).toEqual({ A: 'Aleph', B: 'Beta' });
    expect(m.command).toContain('--names');
  });
});

describe('--figure-style paper', () => {
  it('no drawn title (the captions file has it), the width in points, the font and palette asked for', async () => {
    const out = join(tmp, 'p');
    const r = await runInProcess(['analyze', store, '--out', out, '--reps', '100', '-q', '--figure-style', 'paper', '--figure-width', '240', '--figure-font', 'sans'], 60_000);
    expect(r.code, r.stderr).toBe(0);
    const spec = JSON.parse(readFileSync(join(out, 'figures', 'repeated-rounds.vl.json'), 'utf8'));
    expect(spec.title).toBeUndefined();
    expect(spec.config.font).toMatch(/^DejaVu Sans/);
    // every colour but the house greys (view stroke, text) is from the paper palette
    const colours = JSON.stringify(spec).match(/#[0-9a-f]{6}/g)!.filter((c) => !['#dddddd', '#222222', '#444444'].includes(c));
    expect(colours.length).toBeGreaterThan(0);
    expect(colours.filter((c) => !PAPER_PALETTE.includes(c))).toEqual([]);
    const svg = readFileSync(join(out, 'figures', 'repeated-rounds.svg'), 'utf8');
    const m = /^<svg[^>]* width="([\d.]+)pt" height="([\d.]+)pt" viewBox="0 0 (\d+) (\d+)"/.exec(svg)!;
    expect(Number(m[1])).toBe(240);
    expect(Number(m[2])).toBeCloseTo(240 * Number(m[4]) / Number(m[3]), 1);
    expect(pngSize(join(out, 'figures', 'repeated-rounds.png')).width).toBe(Math.round(240 / 72 * 300)); // 300 dpi
    expect(svg).not.toContain('>Cooperation by round<');
    const captions = readFileSync(join(out, 'figures', 'captions.md'), 'utf8');
    expect(captions).toContain('## repeated-rounds');
    expect(captions).toMatch(/\*\*Cooperation by round — akata-pd, framing akata-jf: 95 % cluster-robust [^*]+\.\*\* Share of cooperative decisions/); // the subtitle after a dash
  });

  it('serif by default; the flags without --figure-style paper are refused in one line', async () => {
    const out = join(tmp, 's');
    expect((await runInProcess(['analyze', store, '--out', out, '--reps', '100', '-q', '--figure-style', 'paper'], 60_000)).code).toBe(0);
    expect(readFileSync(join(out, 'figures', 'repeated-rounds.svg'), 'utf8')).toContain('font-family="DejaVu Serif');
    const r = await runInProcess(['analyze', store, '--out', join(tmp, 'x'), '--figure-width', '300', '-q'], 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--figure-style paper');
  });
});
