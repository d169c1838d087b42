import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, exportTrials, meta, report, reproduce } from '../../src/index.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';

/**
 * One route for every input: the same simulated trials entering as a store (`analyze`), as
 * `export` → `reproduce --trials`, as `analyze --compare` and as a `meta` manifest study give the
 * same table3.csv (byte for byte, same settings) and the same per-cell effects, and every file
 * those routes write says the data are synthetic. The framings are not the paper's pair, so every
 * route picks the pair from the data (neighbours vs strangers), and the design's `names:` block
 * reaches the per-trial route through the export's sidecar.
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-route-'));
const store = join(dir, 'sim.sqlite');
const design = {
  name: 'sim', synthetic: true, names: { Sim: 'Simulated One' },
  models: [{ id: 'Sim', provider: 'simulated' }, { id: 'Sim2', provider: 'simulated' }],
  games: ['prisoners-dilemma', 'stag-hunt'],
  framings: [{ id: 'neighbours', labels: ['Help', 'Keep'], template: 'Neighbours: {payoffs} {C} or {D}?' },
    { id: 'strangers', labels: ['Help', 'Keep'], template: 'Strangers: {payoffs} {C} or {D}?' }],
};
// x cooperations of 24 per cell: hand-picked, two models × two games × two framings.
const X: Record<string, [number, number]> = {
  'Sim/prisoners-dilemma': [9, 4], 'Sim/stag-hunt': [18, 11], 'Sim2/prisoners-dilemma': [6, 7], 'Sim2/stag-hunt': [20, 14],
};
const N = 24;
const cells: CellSpec[] = Object.entries(X).flatMap(([k, [b, a]]) => {
  const [model, game] = k.split('/');
  return [{ model, game, framing: 'neighbours', actions: counts(b, N) }, { model, game, framing: 'strangers', actions: counts(a, N) }];
});
const settings = { reps: 300, seed: 7, interval: 'percentile' as const };
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');
const filesUnder = (d: string) => readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(d, f)).isFile()).sort();

beforeAll(async () => {
  writeStore(store, design, cells);
  // The reconstructed rates analyze --compare reads: the same counts.
  writeFileSync(join(dir, 'rates.csv'), ['model,game,framing,n,cooperate', ...cells.map((c) => `${c.model},${c.game},${c.framing},${N},${c.actions!.filter((x) => x === 'C').length}`)].join('\n'));
  const logger = new MemoryLogger();
  await analyze({ store, out: join(dir, 'a'), ...settings, logger, figureStyle: { style: 'paper' } });
  await analyze({ store, out: join(dir, 'c'), ...settings, compare: join(dir, 'rates.csv'), figures: false, logger });
  await exportTrials({ store, format: 'csv', out: join(dir, 'trials.csv') });
  await reproduce({ trials: join(dir, 'trials.csv'), out: join(dir, 'r'), ...settings, logger, figures: false });
  report({ trials: join(dir, 'trials.csv'), out: join(dir, 'r'), ...settings, logger }); // the report (its figures drawn in the browser)
  writeFileSync(join(dir, 'm.yaml'), ['studies:', '  - { id: s, store: sim.sqlite, base: neighbours, alt: strangers }',
    '  - { id: t, trials: trials.csv, base: neighbours, alt: strangers }', ''].join('\n'));
  await meta({ manifest: join(dir, 'm.yaml'), out: join(dir, 'm'), figures: false, logger });
}, 120_000);

describe('the same trials on every route', () => {
  it('give byte-identical table3.csv: analyze, analyze --compare, export → reproduce --trials', () => {
    const a = read('a', 'reports', 'table3.csv');
    expect(a.split('\n')[0]).toBe('model,R,R_lo,R_hi,shift,shift_lo,shift_hi,R_corrected,R_corrected_lo,R_corrected_hi,shift_wilson_lo,shift_wilson_hi,model_name,synthetic');
    expect(read('c', 'reports', 'table3.csv')).toBe(a);
    expect(read('r', 'reports', 'table3.csv')).toBe(a);
    // Hand: Pooled shift = mean over the four pairs of (a − b)/24 = ((4−9) + (11−18) + (7−6) + (14−20))/4/24 = −17/96.
    const pooled = Papa.parse<Record<string, string>>(a.trim(), { header: true }).data.find((r) => r.model === 'Pooled')!;
    expect(Number(pooled.shift)).toBeCloseTo(-17 / 96, 11);
    expect(read('r', 'reports', 'table2.csv')).toBe(read('a', 'reports', 'table2.csv'));
  });

  it('a meta manifest study (the store, and the exported file) has each cell\'s shift of table2.csv as its effect', () => {
    const t2 = Papa.parse<Record<string, string>>(read('a', 'reports', 'table2.csv').trim(), { header: true }).data;
    const eff = Papa.parse<Record<string, string>>(read('m', 'reports', 'effects.csv').trim(), { header: true }).data;
    const GAME: Record<string, string> = { 'prisoners-dilemma': 'Prisoner\'s Dilemma', 'stag-hunt': 'Stag Hunt' };
    for (const study of ['s', 't']) {
      for (const r of t2) {
        const e = eff.find((x) => x.study === study && x.model === r.model && x.game === GAME[r.game])!;
        expect(Number(e.yi)).toBeCloseTo(Number(r.difference), 11);
        expect(e.synthetic).toBe('true');
      }
    }
  });
});

describe('synthetic data are labelled in every file the routes write', () => {
  it('tables, LaTeX, captions, metrics.json and the report banner (analyze; export → reproduce --trials)', () => {
    for (const route of ['a', 'c', 'r']) {
      const files = filesUnder(join(dir, route));
      for (const f of files.filter((x) => x.endsWith('table2.csv') || x.endsWith('table3.csv'))) {
        expect(read(route, f).split('\n')[0].endsWith(',synthetic'), `${route}/${f}`).toBe(true);
      }
      for (const f of files.filter((x) => x.endsWith('.tex'))) expect(read(route, f), `${route}/${f}`).toMatch(/\\caption\{\\textbf\{Synthetic data/);
      const m = JSON.parse(read(route, 'reports', 'metrics.json')) as { origin: { synthetic: boolean; run: { design_hash: string }; framings: { id: string; template: string }[] } };
      expect(m.origin.synthetic).toBe(true);
      expect(m.origin.run.design_hash).toBe(JSON.stringify(design)); // the test store's hash (test/helpers/store.ts)
      expect(m.origin.framings.map((f) => f.template)).toEqual(design.framings.map((f) => f.template));
    }
    expect(read('a', 'figures', 'captions.md')).toContain('**Synthetic data');
    for (const route of ['a', 'r']) {
      const html = read(route, 'reports', 'report.html');
      expect(html).toMatch(/<p class="banner" role="note">Synthetic data/);
      expect(html).toContain('Neighbours: {payoffs} {C} or {D}?'); // each framing's template is shown
    }
    // the export's sidecar: what reproduce --trials restored the flag, the names and the design hash from
    const side = JSON.parse(read('trials.csv.provenance.json')) as { origin: { synthetic: boolean; names: Record<string, string> } };
    expect(side.origin.synthetic).toBe(true);
    expect(side.origin.names).toEqual(design.names);
  });

  it('meta: effects.csv, meta.json and the report of the pooled studies', () => {
    const j = JSON.parse(read('m', 'reports', 'meta.json')) as { input: { synthetic: string }; sources: { synthetic: boolean }[] };
    expect(j.input.synthetic).toBe('all');
    expect(j.sources.map((s) => s.synthetic)).toEqual([true, true]);
  });
});
