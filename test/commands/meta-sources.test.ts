import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { runMeta } from '../../src/commands/meta.js';
import { writeStore, counts } from '../helpers/store.js';
import { ROOT } from '../helpers/cli.js';
import { close, reference } from '../stats/meta/reference.js';
import { writeOutputs } from '../../src/commands/pipeline/write.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-meta-src-'));
const csvRows = (path: string) => Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').trim(), { header: true }).data;

describe('meta --effects: an effect table computed elsewhere', () => {
  it('the BCG trials with moderators ablat and alloc: meta-regression.csv equals metafor (REML, knha)', () => {
    const out = mkdtempSync(join(dir, 'bcg-'));
    const res = runMeta({ effects: join(ROOT, 'test/reference/meta/tables/bcg.csv'), moderators: ['ablat', 'alloc'], out });
    writeOutputs(res.files);
    const ref = reference.univariate.bcg_ablat_alloc.REML_knha;
    const rows = csvRows(join(out, 'reports', 'meta-regression.csv'));
    expect(rows.map((r) => r.term)).toEqual(['intercept', 'ablat', 'alloc=alternate', 'alloc=systematic', 'test of moderators (F)', 'residual heterogeneity (Q_E)']);
    rows.slice(0, 4).forEach((r, j) => {
      expect(close(Number(r.estimate), ref.b[j], 1e-4)).toBe(true);
      expect(close(Number(r.ci_lo), ref.b_ci_lo[j], 1e-4)).toBe(true);
      expect(close(Number(r.ci_hi), ref.b_ci_hi[j], 1e-4)).toBe(true);
    });
    expect(close(Number(rows[4].stat), ref.QM, 1e-4)).toBe(true);
    expect([Number(rows[4].df1), Number(rows[4].df2)]).toEqual([ref.QM_df1, ref.QM_df2]);
    expect(close(Number(rows[4].p), ref.QM_p, 1e-4)).toBe(true);
    expect(close(Number(rows[5].tau2), ref.tau2, 1e-4)).toBe(true);
    // One study: no three-level model and nothing to leave out, said by the files' absence.
    expect(res.files.map((f) => f.path.split('/').pop())).toEqual(['effects.csv', 'meta.csv', 'meta-regression.csv',
      'meta-influence.csv', 'meta-small-study.csv', 'meta.tex', 'meta-regression.tex', 'meta-influence.tex', 'meta.json']);
    const overall = res.analysis.pooled.find((p) => p.scope === 'overall')!;
    expect(close(overall.estimate, reference.univariate.bcg.REML_knha.estimate, 1e-4)).toBe(true);
  });
});

describe('meta reads a trial store and clustered per-decision files', () => {
  it('a store study and a clustered trials study pool with the rates', () => {
    const d = mkdtempSync(join(dir, 'mix-'));
    const cells = ['g1', 'g2', 'g3'].flatMap((game, i) => [
      { model: 'M', game, framing: 'business', actions: counts(10 + i, 40) },
      { model: 'M', game, framing: 'friend-sharing', actions: counts(25 + 3 * i, 40) },
    ]);
    writeStore(join(d, 'run.sqlite'), { name: 'mix' }, cells);
    // Clustered decisions: 6 clusters of 5 per cell.
    const lines = ['model,game,framing,cluster,cooperate'];
    for (const game of ['g1', 'g2', 'g3']) for (const framing of ['business', 'friend-sharing']) for (let c = 0; c < 6; c++) for (let t = 0; t < 5; t++) {
      lines.push(`M,${game},${framing},${framing}-${c},${(c + t + (framing === 'business' ? 0 : 2)) % 3 === 0 ? 0 : 1}`);
    }
    writeFileSync(join(d, 'trials.csv'), `${lines.join('\n')}\n`);
    writeFileSync(join(d, 'm.yaml'), [
      'studies:',
      '  - { id: stored, store: run.sqlite, base: business, alt: friend-sharing }',
      '  - { id: clustered, trials: trials.csv, base: business, alt: friend-sharing }',
      `  - { id: rates, data: ${join(ROOT, 'data/lore-heydari-2024/rates.csv')}, base: business, alt: friend-sharing, attenuation: 1 }`,
    ].join('\n'));
    const res = runMeta({ manifest: join(d, 'm.yaml') });
    const stored = res.analysis.effects.filter((r) => r.study === 'stored');
    stored.forEach((r, i) => expect(r.yi).toBeCloseTo((15 + 2 * i) / 40, 15));
    const p = (x: number) => x / 40;
    stored.forEach((r, i) => expect(r.vi).toBeCloseTo(p(25 + 3 * i) * (1 - p(25 + 3 * i)) / 40 + p(10 + i) * (1 - p(10 + i)) / 40, 15));
    expect(res.sources.map((s) => [s.study, s.kind, s.attenuation])).toEqual([['stored', 'store', 1], ['clustered', 'trials', 1], ['rates', 'data', 1]]);
    expect(res.analysis.effects.filter((r) => r.study === 'clustered').every((r) => r.n_base === 30 && r.vi > 0)).toBe(true);
    expect(res.analysis.multilevel?.studies).toBe(3);
    expect(res.analysis.leaveOneOut.map((r) => r.left_out)).toEqual(['stored', 'clustered', 'rates']);
  });
});

describe('reports/effects.csv read back with --effects', () => {
  it('gives the same effect table, byte for byte, and the same pooled estimates (the files\' 12 digits aside)', () => {
    const [a, b] = [mkdtempSync(join(dir, 'rt-a-')), mkdtempSync(join(dir, 'rt-b-'))];
    writeOutputs(runMeta({ manifest: join(ROOT, 'data/meta/lore-heydari.yaml'), out: a }).files);
    writeOutputs(runMeta({ effects: join(a, 'reports', 'effects.csv'), moderators: ['source'], out: b, poolSynthetic: true }).files); // as the manifest's pool_synthetic
    expect(readFileSync(join(b, 'reports', 'effects.csv'), 'utf8')).toBe(readFileSync(join(a, 'reports', 'effects.csv'), 'utf8'));
    for (const f of ['meta.csv', 'meta-multilevel.csv', 'meta-regression.csv', 'meta-leave-one-out.csv']) {
      const [x, y] = [csvRows(join(a, 'reports', f)), csvRows(join(b, 'reports', f))];
      expect(y.length, f).toBe(x.length);
      x.forEach((row, i) => {
        for (const [k, v] of Object.entries(row)) {
          const [p, q] = [Number(v), Number(y[i][k])];
          if (v === '' || Number.isNaN(p)) expect(y[i][k], `${f} ${k}`).toBe(v);
          else expect(Math.abs(p - q), `${f} row ${i} ${k}`).toBeLessThanOrEqual(1e-8 * Math.max(1, Math.abs(p)));
        }
      });
    }
  });
});
