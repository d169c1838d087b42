import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-meta-names-'));
const EFFECTS = 'study,model,game,yi,vi\ns1,m1,PD,0.10,0.010\ns1,m1,SH,0.20,0.020\ns1,m2,PD,0.05,0.015\ns2,m1,PD,0.15,0.010\ns2,m2,SH,0.30,0.020\ns2,m2,PD,0.12,0.012\n';

function effectsTable(): { path: string; out: string; d: string } {
  const d = mkdtempSync(join(dir, 'eff-'));
  writeFileSync(join(d, 'e.csv'), EFFECTS);
  return { path: join(d, 'e.csv'), out: join(d, 'out'), d };
}
const read = (...p: string[]) => readFileSync(join(...p), 'utf8');

describe('samegame meta --names FILE', () => {
  it('shows a model by its name in the forest plot, the report and the terminal; the CSVs keep the id and add model_name; an unused id warns', async () => {
    const e = effectsTable();
    writeFileSync(join(e.d, 'names.csv'), 'id,name\nm1,Model One\nm3x,Nobody\n');
    const r = await runCli(['meta', '--effects', e.path, '--names', join(e.d, 'names.csv'), '--out', e.out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\nmodel: Model One +3 /);
    expect(r.stdout).not.toContain('model: m1');
    expect(r.stderr).toContain(`${join(e.d, 'names.csv')}:3: display name for "m3x" ignored`);
    expect(r.stderr).not.toContain('"m1" ignored');
    const forest = JSON.parse(read(e.out, 'figures', 'meta-forest.vl.json'));
    const labels: string[] = forest.data.values.map((v: { label: string }) => v.label);
    expect(labels).toContain('s1 · Model One · PD');
    expect(labels).toContain('model: Model One (pooled, k = 3)');
    expect(labels.some((l) => /\bm1\b/.test(l))).toBe(false);
    expect(labels).toContain('s2 · m2 · SH'); // an id without a name stays as it is
    const html = read(e.out, 'reports', 'report.html');
    expect(html).toContain('model: Model One');
    expect(html).not.toContain('model: m1<');
    const effects = read(e.out, 'reports', 'effects.csv').trim().split('\n');
    expect(effects[0]).toBe('study,model,game,yi,vi,n_base,n_alt,model_name');
    expect(effects[1]).toMatch(/^s1,m1,PD,.*,Model One$/);
    expect(effects[3]).toMatch(/^s1,m2,PD,.*,m2$/);
    const pooled = read(e.out, 'reports', 'meta.csv').trim().split('\n');
    expect(pooled[0]).toBe('scope,k,estimate,se,ci_lo,ci_hi,pi_lo,pi_hi,tau2,I2,H2,Q,Q_df,Q_p,tau2_lo,tau2_hi,I2_lo,I2_hi,H2_lo,H2_hi,scope_name');
    expect(pooled.find((l) => l.startsWith('model: m1,'))).toMatch(/,model: Model One$/);
    expect(pooled.find((l) => l.startsWith('overall,'))).toMatch(/,overall$/);
    expect(JSON.parse(read(e.out, 'reports', 'meta.json')).names).toEqual({ m1: 'Model One', m3x: 'Nobody' });
    expect(JSON.parse(read(e.out, 'reports', 'meta.json')).command).toContain(`--names ${join(e.d, 'names.csv')}`);
  });

  it('without names the CSVs have no name column and meta.json no names', async () => {
    const e = effectsTable();
    const r = await runCli(['meta', '--effects', e.path, '--out', e.out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(read(e.out, 'reports', 'effects.csv').split('\n')[0]).toBe('study,model,game,yi,vi,n_base,n_alt');
    expect(read(e.out, 'reports', 'meta.csv').split('\n')[0]).not.toContain('_name');
    expect(JSON.parse(read(e.out, 'reports', 'meta.json')).names).toBeUndefined();
  });

  it('a bad names file is one line, exit 2, nothing written', async () => {
    const e = effectsTable();
    writeFileSync(join(e.d, 'names.csv'), 'id,label\nm1,Model One\n');
    const r = await runCli(['meta', '--effects', e.path, '--names', join(e.d, 'names.csv'), '--out', e.out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(join(e.d, 'names.csv'));
    expect(existsSync(e.out)).toBe(false);
  });

  it('a manifest\'s names: block with a control character: refused naming the file, line, field and the character', async () => {
    const d = mkdtempSync(join(dir, 'man-'));
    const rates = join(ROOT, 'data/lore-heydari-2024/rates.csv');
    writeFileSync(join(d, 'm.yaml'), `names:\n  lh: "Lor\\e & Heydari"\nstudies:\n  - id: lh\n    data: ${rates}\n    base: business\n    alt: friend-sharing\n`);
    const r = await runCli(['meta', join(d, 'm.yaml'), '--out', join(d, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${join(d, 'm.yaml')}:2: field "names.lh"`);
    expect(r.stderr).toContain('U+001B');
    expect(existsSync(join(d, 'out'))).toBe(false);
  });

  it('a manifest\'s names: block names a study; --names overrides it; an unused id of the block warns', async () => {
    const d = mkdtempSync(join(dir, 'man-'));
    const rates = join(ROOT, 'data/lore-heydari-2024/rates.csv');
    writeFileSync(join(d, 'm.yaml'), `names:\n  lh: Lorè & Heydari\n  GPT4: typo\nstudies:\n  - id: lh\n    data: ${rates}\n    base: business\n    alt: friend-sharing\n`);
    writeFileSync(join(d, 'names.csv'), 'id,name\nGPT-4,G4\n');
    const r = await runCli(['meta', join(d, 'm.yaml'), '--names', join(d, 'names.csv'), '--out', join(d, 'out')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${join(d, 'm.yaml')}: names: block: display name for "GPT4" ignored`);
    expect(r.stderr).toContain('did you mean "GPT-4"?');
    expect(r.stdout).toContain('study: Lorè & Heydari');
    expect(r.stdout).toContain('model: G4');
    const effects = read(d, 'out', 'reports', 'effects.csv').split('\n');
    expect(effects[0]).toBe('study,model,game,yi,vi,n_base,n_alt,study_name,model_name');
  });
});

describe('samegame meta --figure-style paper', () => {
  it('draws no title and writes figures/captions.md with each figure\'s title and caption', async () => {
    const e = effectsTable();
    const r = await runCli(['meta', '--effects', e.path, '--figure-style', 'paper', '--figure-width', '400', '--out', e.out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const captions = read(e.out, 'figures', 'captions.md');
    expect(captions).toMatch(/## meta-forest\n\n\*\*[^\n]+\.\*\* .*prediction interval/);
    expect(captions).toContain('## meta-funnel');
    const forest = JSON.parse(read(e.out, 'figures', 'meta-forest.vl.json'));
    expect(forest.title).toBeUndefined();
    expect(forest.usermeta.paper.widthPt).toBe(400);
    expect(read(e.out, 'figures', 'meta-forest.svg')).toMatch(/^<svg[^>]* width="400pt"/);
  });

  it('--figure-width without --figure-style paper is refused in one line, exit 2', async () => {
    const e = effectsTable();
    const r = await runCli(['meta', '--effects', e.path, '--figure-width', '400', '--out', e.out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--figure-width and --figure-font apply to --figure-style paper');
    expect(existsSync(e.out)).toBe(false);
  });
});
