import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runMeta } from '../../src/commands/meta.js';
import { meta, type EffectRow } from '../../src/analyses/meta/index.js';
import { metaDesign } from '../../src/analyses/meta/design.js';
import { META_DEFAULTS, fitUnivariate } from '../../src/stats/meta/univariate.js';
import { forestDomain } from '../../src/render/charts/meta.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import { UserError } from '../../src/core/errors.js';
import { close, column, heldOut, intervalsReference as ref } from '../stats/meta/reference.js';
import { writeOutputs } from '../../src/commands/pipeline/write.js';

/**
 * The meta-analysis on inputs that used to pass silently or give wrong numbers: identical effects,
 * a three-level model that cannot be identified, effects far out of scale, moderator names that are
 * properties of Object's prototype, moderators that do not vary, collinear moderators, very large
 * tables, confidence levels outside (0, 1). Expected values: metafor 3.8 (test/reference/meta/
 * make-reference-intervals.R).
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-meta-hard-'));
const settings = { ...META_DEFAULTS, effect: 'shift' as const, moderators: [] as string[] };

function effectsFile(rows: (string | number)[][], header = 'study,model,game,yi,vi'): string {
  const d = mkdtempSync(join(dir, 'e-'));
  const path = join(d, 'effects.csv');
  writeFileSync(path, `${header}\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  return path;
}
const overall = (out: string) => {
  const lines = readFileSync(join(out, 'reports', 'meta.csv'), 'utf8').trim().split('\n');
  const head = lines[0].split(',');
  const row = lines.find((l) => l.startsWith('overall,'))!.split(',');
  return Object.fromEntries(head.map((h, i) => [h, Number(row[i])]));
};

describe('meta --effects: numbers on the edge', () => {
  it('three identical effects: a CI of positive width equal to metafor\'s rma(test = "adhoc"), and the conventional-SE PI with a note', () => {
    const file = effectsFile([['s', 'm1', 'g', 0.2, 0.01], ['s', 'm2', 'g', 0.2, 0.01], ['s', 'm3', 'g', 0.2, 0.01]]);
    const out = mkdtempSync(join(dir, 'o-'));
    const res = runMeta({ effects: file, out });
    writeOutputs(res.files);
    const o = overall(out);
    const r = ref.univariate.identical.REML_adhoc;
    for (const f of ['estimate', 'se', 'ci_lo', 'ci_hi', 'pi_lo', 'pi_hi']) expect(close(o[f], r[f], 1e-6), `${f}: ${o[f]} vs ${r[f]}`).toBe(true);
    expect(o.ci_hi - o.ci_lo).toBeGreaterThan(0.49);
    expect(res.analysis.notes.some((n) => n.startsWith('prediction interval from fewer than 5 cells (or studies) — ') && n.includes('overall'))).toBe(true);
  });

  it('every variance 1e-20: the three-level model equals metafor\'s (scaled problem), to 1e-6', () => {
    const rows = heldOut('tiny');
    const out = mkdtempSync(join(dir, 'o-'));
    const res = runMeta({ effects: effectsFile(rows.map((r) => [r.study, r.model, r.game, r.yi, r.vi])), out });
    writeOutputs(res.files);
    const m = res.analysis.multilevel!;
    const r = ref.multilevel.tiny;
    for (const f of ['estimate', 'se', 'ci_lo', 'ci_hi', 'pi_lo', 'pi_hi'] as const) expect(close(m[f], r[f], 1e-6), `${f}: ${m[f]} vs ${r[f]}`).toBe(true);
  });

  it('yi = 1e308 beside effects of 0.2: refused naming the row, exit 2, nothing written', async () => {
    const file = effectsFile([['s', 'm1', 'g', 0.2, 0.01], ['s', 'm2', 'g', 1e308, 0.01], ['s', 'm3', 'g', 0.3, 0.01]]);
    const out = join(dir, 'never');
    const r = await runCli(['meta', '--effects', file, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${file}:3`);
    expect(r.stderr).toContain('yi');
    expect(existsSync(out)).toBe(false);
  });

  it('no study holds two cells: no three-level row, said', () => {
    const res = runMeta({ effects: effectsFile(['a', 'b', 'c', 'd'].map((s, i) => [s, 'm', 'g', 0.1 * i, 0.01])) });
    expect(res.analysis.multilevel).toBeUndefined();
    expect(res.analysis.notes).toContain('three-level model: no study holds two cells, so the study and cell variances cannot be told apart; '
      + 'no three-level row (the overall row pools the cells)');
  });

  it('two studies: the three-level estimate without an interval, said', () => {
    const rows = heldOut('ml2');
    const res = runMeta({ effects: effectsFile(rows.map((r) => [r.study, r.model, r.game, r.yi, r.vi])) });
    expect(res.analysis.multilevel!.ci_lo).toBeNaN();
    expect(close(res.analysis.multilevel!.estimate, ref.multilevel.ml2.estimate, 1e-6)).toBe(true);
    expect(res.analysis.notes.some((n) => n.startsWith('three-level model: 2 studies'))).toBe(true);
  });

  it('the overall row carries the Q-profile interval of τ² and I² (meta.json), equal to metafor\'s confint to 1e-6', () => {
    const rows = heldOut('spread');
    const res = runMeta({ effects: effectsFile(rows.map((r) => [r.study, r.model, r.game, r.yi, r.vi])) });
    const o = res.analysis.pooled.find((p) => p.scope === 'overall')!;
    const r = ref.qprofile.spread;
    for (const f of ['tau2_lo', 'tau2_hi', 'I2_lo', 'I2_hi'] as const) expect(close(o[f], r[f], 1e-6), `${f}: ${o[f]} vs ${r[f]}`).toBe(true);
    const json = JSON.parse(String(res.files.find((f) => f.path.endsWith('meta.json'))!.content));
    expect(json.pooled.find((p: { scope: string }) => p.scope === 'overall').tau2_hi).toBeCloseTo(r.tau2_hi, 8);
  });

  it('a prediction interval past [−1, 1] is cut there for the shift, and said', () => {
    const res = runMeta({ effects: effectsFile([['s', 'a', 'g', -0.8, 0.01], ['s', 'b', 'g', 0.9, 0.01], ['s', 'c', 'g', 0.1, 0.01]]) });
    const o = res.analysis.pooled.find((p) => p.scope === 'overall')!;
    expect([o.pi_lo, o.pi_hi]).toEqual([-1, 1]);
    expect(res.analysis.notes).toContain('prediction interval cut at the effect\'s range [-1, 1] — study: s; overall: '
      + 'the normal approximation reached past what the effect can be');
  });
});

describe('moderators', () => {
  const rows = [
    ['s', 'm1', 'g', 0.1, 0.01, 'x', '1'], ['s', 'm2', 'g', 0.3, 0.02, 'x', '1.0'],
    ['s', 'm3', 'g', 0.2, 0.01, 'x', '1'], ['s', 'm4', 'g', 0.5, 0.01, 'x', '1'],
  ];
  const file = effectsFile(rows, 'study,model,game,yi,vi,kind,dose');

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('--moderator %s names no column: exit 2, one line', async (name) => {
    const r = await runCli(['meta', '--effects', file, '--moderator', name, '--out', join(dir, 'never')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`moderator "${name}" names no column`);
  });

  it.each([['kind', '"x"'], ['dose', '"1"']])('a constant moderator (%s) does not vary: exit 2', (name, value) => {
    expect(() => runMeta({ effects: file, moderators: [name] })).toThrow(`moderator "${name}" does not vary: every cell has ${value}`);
  });

  it('an all-empty moderator column does not vary', () => {
    const empty = effectsFile(rows.map((r) => [...r.slice(0, 5), '']), 'study,model,game,yi,vi,note');
    expect(() => runMeta({ effects: empty, moderators: ['note'] })).toThrow('moderator "note" does not vary');
  });

  it('through the library and the manifest too', () => {
    const effects: EffectRow[] = [0.1, 0.2, 0.4].map((yi, i) => ({ study: 's', model: `m${i}`, game: 'g', yi, vi: 0.01, moderators: {} }));
    for (const m of ['constructor', 'toString', '__proto__']) {
      expect(() => meta.analyze(effects, { ...settings, moderators: [m] })).toThrow(UserError);
      expect(() => meta.analyze(effects, { ...settings, moderators: [m] })).toThrow('names no column');
    }
    const d = mkdtempSync(join(dir, 'man-'));
    const rates = join(process.cwd(), 'data/lore-heydari-2024/rates.csv');
    writeFileSync(join(d, 'm.yaml'), `moderators: [constructor]\nstudies:\n  - id: a\n    data: ${rates}\n    base: business\n    alt: friend-sharing\n`);
    expect(() => runMeta({ manifest: join(d, 'm.yaml') })).toThrow('moderator "constructor" names no column');
  });

  it('a manifest moderator every study gives the same value does not vary: one line naming the field, nothing written', async () => {
    const d = mkdtempSync(join(dir, 'man-'));
    const rates = join(process.cwd(), 'data/lore-heydari-2024/rates.csv');
    const study = (id: string) => `  - id: ${id}\n    data: ${rates}\n    base: business\n    alt: friend-sharing\n    moderators: { kind: same }\n`;
    writeFileSync(join(d, 'm.yaml'), `moderators: [kind]\nstudies:\n${study('a')}${study('b')}`);
    const r = await runCli(['meta', join(d, 'm.yaml'), '--out', join(d, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('moderators[0]');
    expect(r.stderr).toContain('moderator "kind" does not vary: every cell has "same"');
    expect(existsSync(join(d, 'out'))).toBe(false);
  });

  it('collinear moderators: the redundant columns are dropped as metafor drops them, said, and the fit equals metafor\'s to 1e-6', () => {
    const rows = heldOut('collinear');
    const effects: EffectRow[] = rows.map((r) => ({ study: r.study, model: r.model, game: r.game, yi: Number(r.yi), vi: Number(r.vi),
      moderators: { x1: r.x1, x2: r.x2, arm: r.arm, arm2: r.arm2 } }));
    const design = metaDesign(effects, ['x1', 'x2', 'arm', 'arm2']);
    expect(design.terms).toEqual(['intercept', 'x1', 'arm=b']);
    expect(design.dropped).toEqual(['x2', 'arm2=yes']);
    const fit = fitUnivariate(column(rows, 'yi'), column(rows, 'vi'), { ...META_DEFAULTS, test: 'adhoc' }, design.X)!;
    const r = ref.collinear;
    fit.coefficients.forEach((c, j) => {
      for (const [mine, theirs] of [[c.estimate, r.b[j]], [c.se, r.b_se[j]], [c.ci_lo, r.b_ci_lo[j]], [c.ci_hi, r.b_ci_hi[j]]]) {
        expect(close(mine, theirs, 1e-6), `${j}: ${mine} vs ${theirs}`).toBe(true);
      }
    });
    expect(close(fit.tau2, r.tau2, 1e-6)).toBe(true);
    expect(close(fit.QM_p, r.QM_p, 1e-6)).toBe(true);
    const a = meta.analyze(effects, { ...settings, moderators: ['x1', 'x2', 'arm', 'arm2'] });
    expect(a.notes.some((n) => n.startsWith('meta-regression: "x2", "arm2=yes" are exact linear combinations'))).toBe(true);
    expect(meta.files('/r', a, { input: { path: 'x', sha256: '', kind: 'effects' }, sources: [], tool: { name: 's', version: '0' }, command: '' })
      .find((f) => f.path.endsWith('meta-regression.csv'))!.content).toContain('test of moderators (F)');
  });
});

describe('large tables and levels', () => {
  it('150,000 cells: the forest axis without a stack overflow (no spread of the cells into Math.min/Math.max)', () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => ({ label: `c${i}`, kind: 'Cell' as const, estimate: Math.sin(i), lo: Math.sin(i) - 0.1,
      hi: Math.sin(i) + 0.1 }));
    expect(forestDomain(rows)).toEqual([-1.5, 1.5]);
  });

  it.each([1.5, NaN, -0.1, 0])('wilsonInterval at level %s is a RangeError', (level) => {
    expect(() => wilsonInterval(3, 10, level)).toThrow(RangeError);
  });
});
