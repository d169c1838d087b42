import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { counts, writeStore } from '../helpers/store.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-meta-'));
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
const RATES = join(ROOT, 'data/lore-heydari-2024/rates.csv');
const TRIALS = join(ROOT, 'data/meta/same-game-sim-trials.csv');
const AKATA = join(ROOT, 'data/akata-2023/experiment_pd.csv');

describe('samegame meta on the shipped example', () => {
  it('writes every table, both figures and the report; meta.json holds the manifest\'s and every source\'s SHA-256', async () => {
    const out = mkdtempSync(join(dir, 'out-'));
    const r = await runCli(['meta', 'data/meta/lore-heydari.yaml', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^scope +k +shift +95% CI +95% PI +tau2 +I2$/);
    expect(r.stdout).toMatch(/\noverall, three-level +36 +0\.325 +\[0\.173, 0\.477\]/);
    expect(readdirSync(join(out, 'reports')).sort()).toEqual(['effects.csv', 'meta-influence.csv', 'meta-influence.tex', 'meta-leave-one-out.csv',
      'meta-multilevel.csv', 'meta-regression-multilevel.csv', 'meta-regression.csv', 'meta-regression.tex', 'meta-small-study.csv', 'meta.csv', 'meta.json',
      'meta.tex', 'report.html']);
    expect(readdirSync(join(out, 'figures')).sort()).toEqual(['meta-baujat.png', 'meta-baujat.svg', 'meta-baujat.vl.json', 'meta-forest.png',
      'meta-forest.svg', 'meta-forest.vl.json', 'meta-funnel.png', 'meta-funnel.svg', 'meta-funnel.vl.json']);
    const j = JSON.parse(readFileSync(join(out, 'reports', 'meta.json'), 'utf8'));
    expect(j.input).toEqual({ path: 'data/meta/lore-heydari.yaml', sha256: sha(join(ROOT, 'data/meta/lore-heydari.yaml')), kind: 'manifest', synthetic: 'pooled with real data' }); // the manifest's pool_synthetic
    const files = j.sources.flatMap((s: { files: { path: string; sha256: string }[] }) => s.files);
    expect(files.map((f: { path: string }) => f.path)).toEqual(['../lore-heydari-2024/rates.csv', 'same-game-sim-trials.csv', 'same-game-sim-b-trials.csv']);
    for (const f of files) expect(f.sha256).toBe(sha(join(ROOT, 'data/meta', f.path)));
    expect(j.sources.map((s: { synthetic: boolean }) => s.synthetic)).toEqual([false, true, true]);
    const meta = readFileSync(join(out, 'reports', 'meta.csv'), 'utf8').split('\n');
    expect(meta[0]).toBe('scope,k,estimate,se,ci_lo,ci_hi,pi_lo,pi_hi,tau2,I2,H2,Q,Q_df,Q_p,tau2_lo,tau2_hi,I2_lo,I2_hi,H2_lo,H2_hi');
    expect(meta.slice(1, -1).map((l) => l.split(',')[0])).toEqual(['model: GPT-3.5', 'model: GPT-4', 'model: LLaMa-2', 'study: lore-heydari-2024',
      'study: same-game-sim', 'study: same-game-sim-b', 'overall']);
    const html = readFileSync(join(out, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('the cells (games, models and studies) disagree far more than sampling error explains');
    expect(html).toContain('Synthetic data: the studies same-game-sim, same-game-sim-b are simulated');
  });

  it('keys a game by its canonical name whatever the source calls it: --moderator game has the four games, and the regression writes noise as 0', async () => {
    const out = mkdtempSync(join(dir, 'out-'));
    const r = await runCli(['meta', 'data/meta/lore-heydari.yaml', '--moderator', 'game', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const games = readFileSync(join(out, 'reports', 'effects.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.match(/^[^,]*,[^,]*,("[^"]*"|[^,]*)/)![1]);
    expect([...new Set(games)].sort()).toEqual(["Prisoner's Delight / Harmony", "Prisoner's Dilemma", 'Snowdrift / Chicken', 'Stag Hunt']);
    const terms = readFileSync(join(out, 'reports', 'meta-regression.csv'), 'utf8').split('\n').map((l) => l.split(',')[0]);
    expect(terms.filter((t) => t.startsWith('game='))).toHaveLength(3);
    // One study's counts read twice (as two studies with their own source): its coefficient is float noise, written 0, and a note says so.
    const rates = (x: string) => `  - id: rates-${x}\n    data: RATES\n    base: business\n    alt: friend-sharing\n    moderators: { source: ${x} }\n`;
    const twice = manifest(`moderators: [source]\nstudies:\n${rates('a')}${rates('b')}`
      + '  - id: sim\n    trials: TRIALS\n    base: business\n    alt: friend-sharing\n    moderators: { source: sim }\n');
    expect((await runCli(['meta', twice.path, '--out', twice.out])).code).toBe(0);
    const again = readFileSync(join(twice.out, 'reports', 'meta-regression.csv'), 'utf8').split('\n').find((l) => l.startsWith('source=b,'))!.split(',');
    expect([again[1], again[3]]).toEqual(['0', '0']);
    expect(Number(again[2])).toBeGreaterThan(0);
    const note = 'studies &quot;rates-a&quot; and &quot;rates-b&quot; give identical effects in all 12 of their cells';
    expect(readFileSync(join(twice.out, 'reports', 'report.html'), 'utf8')).toContain(note);
  });

  it('the same outputs on a second run (byte for byte, figures aside)', async () => {
    const [a, b] = [mkdtempSync(join(dir, 'a-')), mkdtempSync(join(dir, 'b-'))];
    for (const out of [a, b]) {
      const r = await runCli(['meta', 'data/meta/lore-heydari.yaml', '--out', out, '-q']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('overall shift: 0.325 [0.173, 0.477] (three-level), k = 36\n');
    }
    for (const f of readdirSync(join(a, 'reports'))) expect(readFileSync(join(b, 'reports', f), 'utf8')).toBe(readFileSync(join(a, 'reports', f), 'utf8'));
  });
});

/** A manifest written into a fresh folder; the study's source is the shipped rates unless the text says otherwise. */
function manifest(text: string): { path: string; out: string } {
  const d = mkdtempSync(join(dir, 'bad-'));
  const path = join(d, 'bad.yaml');
  writeFileSync(path, text.replaceAll('RATES', RATES).replaceAll('TRIALS', TRIALS).replaceAll('AKATA', AKATA));
  return { path, out: join(d, 'out') };
}

const study = (lines: string) => `studies:\n  - id: s\n${lines}`;

describe('bad manifests: one line naming manifest, line and field; exit 2; nothing written', () => {
  it.each([
    ['an unknown source kind', study('    csv: RATES\n    base: business\n    alt: friend-sharing\n'), 3, 'studies[0].csv', 'not a source kind'],
    ['a study without a source', study('    base: business\n    alt: friend-sharing\n'), 2, 'studies[0]', 'a study needs one source'],
    ['a study without a contrast', study('    data: RATES\n    alt: friend-sharing\n'), 2, 'studies[0].base', 'required field is missing'],
    ['a moderator naming no column', `moderators: [kind]\n${study('    data: RATES\n    base: business\n    alt: friend-sharing\n    moderators: { source: x }\n')}`, 1, 'moderators[0]', 'names no column'],
    ['a base framing the rates do not hold', study('    data: RATES\n    base: abstract\n    alt: friend-sharing\n'), 4, 'studies[0].base', 'does not hold the framing "abstract"'],
    ['an alt framing the trials do not hold', study('    trials: TRIALS\n    base: business\n    alt: neutral\n'), 5, 'studies[0].alt', 'does not hold the framing "neutral"'],
    ['a published log (format: akata) without the contrast\'s framings', study('    trials: AKATA\n    format: akata\n    base: business\n    alt: friend-sharing\n'), 5, 'studies[0].base', 'does not hold the framing "business"'],
    ['two sources', study('    data: RATES\n    trials: TRIALS\n    base: business\n    alt: friend-sharing\n'), 4, 'studies[0].trials', 'has both'],
    ['an option of another kind', study('    data: RATES\n    layout: x.csv\n    base: business\n    alt: friend-sharing\n'), 4, 'studies[0].layout', 'belongs to a "digitized" source'],
    ['a duplicate study id', `${study('    data: RATES\n    base: business\n    alt: friend-sharing\n')}  - id: s\n    data: RATES\n    base: business\n    alt: friend-sharing\n`, 6, 'studies[1].id', 'already used (line 2)'],
    ['a missing source file', study('    data: nowhere.csv\n    base: business\n    alt: friend-sharing\n'), 3, 'studies[0].data', 'cannot read'],
    ['an unknown τ² method', `tau2: HS\n${study('    data: RATES\n    base: business\n    alt: friend-sharing\n')}`, 1, 'tau2', ''],
  ])('%s', async (_name, text, line, field, what) => {
    const m = manifest(text);
    const r = await runCli(['meta', m.path, '--out', m.out]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${m.path}:${line}: field ${JSON.stringify(field)}: `);
    expect(r.stderr).toContain(what);
    expect(existsSync(m.out)).toBe(false);
  });

  it('--moderator naming no column of an effect table', async () => {
    const d = mkdtempSync(join(dir, 'eff-'));
    writeFileSync(join(d, 'e.csv'), 'study,model,game,yi,vi,kind\na,m,g1,0.1,0.01,x\na,m,g2,0.2,0.02,y\n');
    const r = await runCli(['meta', '--effects', join(d, 'e.csv'), '--moderator', 'source', '--out', join(d, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(d, 'e.csv')}:1: field "source": moderator "source" names no column`);
    expect(existsSync(join(d, 'out'))).toBe(false);
  });
});

describe('--pooling random in reproduce and analyze', () => {
  it('reproduce writes reports/table3-random.csv and prints it; without the flag nothing changes', async () => {
    const [a, b] = [mkdtempSync(join(dir, 'pr-')), mkdtempSync(join(dir, 'pf-'))];
    const r = await runCli(['reproduce', '--reps', '200', '--out', a, '--pooling', 'random', '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Table 3, random effects over games');
    const csv = readFileSync(join(a, 'reports', 'table3-random.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('model,k,shift,shift_lo,shift_hi,shift_pi_lo,shift_pi_hi,shift_tau2,shift_I2,R,R_lo,R_hi,R_tau2,R_I2,R_test_p,clipped');
    expect(csv.slice(1, -1).map((l) => l.split(',')[0])).toEqual(['GPT-3.5', 'GPT-4', 'LLaMa-2', 'Pooled']);
    expect(JSON.parse(readFileSync(join(a, 'reports', 'metrics.json'), 'utf8')).command).toContain('--pooling random');
    const html = readFileSync(join(a, 'reports', 'report.html'), 'utf8');
    expect(html).toContain('--pooling random');
    expect(html).toContain('Table 3 with random effects over games (--pooling random)');
    const f = await runCli(['reproduce', '--reps', '200', '--out', b, '-q']);
    expect(f.code).toBe(0);
    expect(existsSync(join(b, 'reports', 'table3-random.csv'))).toBe(false);
    expect(readFileSync(join(b, 'reports', 'report.html'), 'utf8')).not.toContain('Table 3 with random effects over games');
    expect(readFileSync(join(b, 'reports', 'table3.csv'), 'utf8')).toBe(readFileSync(join(a, 'reports', 'table3.csv'), 'utf8'));
  });

  it('analyze of a store writes the same table from its cells', async () => {
    const d = mkdtempSync(join(dir, 'an-'));
    writeStore(join(d, 's.sqlite'), { name: 'x' }, ['g1', 'g2', 'g3'].flatMap((game, i) => [
      { model: 'M', game, framing: 'business', actions: counts(5 + i, 30) },
      { model: 'M', game, framing: 'friend-sharing', actions: counts(12 + 4 * i, 30) },
    ]));
    const r = await runCli(['analyze', join(d, 's.sqlite'), '--reps', '200', '--out', join(d, 'out'), '--pooling', 'random', '-q']);
    expect(r.code, r.stderr).toBe(0);
    const rows = readFileSync(join(d, 'out', 'reports', 'table3-random.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows.map((x) => [x[0], x[1]])).toEqual([['M', '3'], ['Pooled', '3']]);
    // Shifts 7/30, 10/30, 13/30 with binomial variances: the pooled shift lies between them.
    expect(Number(rows[0][2])).toBeGreaterThan(7 / 30);
    expect(Number(rows[0][2])).toBeLessThan(13 / 30);
    expect(JSON.parse(readFileSync(join(d, 'out', 'reports', 'metrics.json'), 'utf8')).command).toContain('--pooling random');
    expect(readFileSync(join(d, 'out', 'reports', 'report.html'), 'utf8')).toContain('Table 3 with random effects over games (--pooling random)');
    // One model: its row and the pooled row pool the same three games.
    expect(rows[1].slice(1)).toEqual(rows[0].slice(1));
  });

  it('refuses an unknown pooling with one line, exit 2', async () => {
    const r = await runCli(['reproduce', '--pooling', 'mixed', '--out', join(dir, 'never')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--pooling');
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });
});

describe('meta flags', () => {
  it.each([
    [['meta'], /needs a manifest \(MANIFEST\.yaml\) or --effects FILE\.csv/],
    [['meta', 'data/meta/lore-heydari.yaml', '--effects', 'x.csv'], /either a manifest or --effects/],
    [['meta', 'data/meta/lore-heydari.yaml', '--tau2', 'HS'], /--tau2: "HS" is not REML, DL, PM, ML/],
    [['meta', 'nowhere.yaml'], /nowhere\.yaml: cannot read the file \(ENOENT\)/],
    [['meta', 'data/meta/lore-heydari.yaml', '--moderator', 'kind'], /--moderator kind: moderator "kind" names no column/],
  ])('%j: one line, exit 2, nothing written', async (argv, pattern) => {
    const out = join(dir, `never-${Math.random().toString(36).slice(2)}`);
    const r = await runCli([...argv, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
    expect(existsSync(out)).toBe(false);
  });

  it('the flags override the manifest: DL, z, fixed pooling, logor', async () => {
    const out = mkdtempSync(join(dir, 'flags-'));
    const r = await runCli(['meta', 'data/meta/lore-heydari.yaml', '--tau2', 'DL', '--test', 'z', '--pooling', 'fixed', '--effect', 'logor', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(readFileSync(join(out, 'reports', 'meta.json'), 'utf8'));
    expect(j.settings).toMatchObject({ tau2: 'DL', test: 'z', pooling: 'fixed', effect: 'logor' });
    expect(j.multilevel).toBeNull();
    expect(j.notes).toContain('pooling: fixed — no three-level model (its study and cell variances are random effects)');
    expect(j.pooled.every((p: { tau2: number }) => p.tau2 === 0)).toBe(true);
    expect(j.command).toBe('samegame meta data/meta/lore-heydari.yaml --effect logor --tau2 DL --test z --pooling fixed');
  });
});
