import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-cli-'));

describe('samegame reproduce', () => {
  it('prints Table 3 as in the paper and regenerates the committed reports/ byte for byte', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/GPT-3\.5\s+0\.967\s+\[0\.95\d, 0\.97\d\]\s+0\.150/);
    expect(r.stdout).toMatch(/Pooled\s+0\.783\s+\[0\.77\d, 0\.79\d\]\s+0\.307/);
    const written = readdirSync(join(out, 'reports'));
    expect(written).toEqual(expect.arrayContaining(['table2.csv', 'table3.csv', 'metrics.json', 'verification.md', 'verification.json']));
    for (const f of written) {
      expect(readFileSync(join(out, 'reports', f)), `reports/${f}`).toEqual(readFileSync(join(ROOT, 'reports', f)));
    }
    expect(readFileSync(join(out, 'reports', 'table3.csv'), 'utf8').split('\n')[0]).toBe('model,R,R_lo,R_hi,shift,shift_lo,shift_hi');
    expect(readFileSync(join(out, 'reports', 'table2.csv'), 'utf8').split('\n')[0]).toBe('model,game,base_rate,base_count,alt_rate,alt_count,difference');
  });

  it('metrics.json records the settings and the input path and SHA-256', async () => {
    const m = JSON.parse(readFileSync(join(ROOT, 'reports', 'metrics.json'), 'utf8'));
    expect(m.settings).toMatchObject({ reps: 10000, attenuation: 0.7, base: 'business', alt: 'friend-sharing' });
    expect(m.input.path).toBe('data/lore-heydari-2024/rates.csv');
    expect(m.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.input).toMatchObject({ cells: 24, decisions: 7200 });
    expect(m.cells).toHaveLength(12);
  });

  it('malformed input: one message with file, line and field, exit 2, nothing written', async () => {
    const out = tmp();
    const bad = join(out, 'bad.csv');
    writeFileSync(bad, 'model,game,framing,n,rate\nA,G,business,300,0.1\nA,G,friend-sharing,300,seven\n');
    const r = await runCli(['reproduce', '--data', bad, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`samegame: ${bad}:3: field "rate": "seven" is not a number`);
    expect(existsSync(join(out, 'reports'))).toBe(false);
  });

  it('a bad flag is refused with a message naming it', async () => {
    const r = await runCli(['reproduce', '--reps', 'ten', '--out', tmp()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--reps: "ten" is not an integer from 1 to 1000000');
    const s = await runCli(['reproduce', '--attenuation', '1.5', '--out', tmp()]);
    expect(s.code).not.toBe(0);
    expect(s.stderr).toContain('--attenuation: "1.5" is not a number in [0, 1]');
  });

  it('exits 3 when a verification check fails (a given count that does not reproduce its rate)', async () => {
    const out = tmp();
    const f = join(out, 'contradict.csv');
    writeFileSync(f, 'model,game,framing,n,rate,cooperate\nA,G,business,300,0.100,31\nA,G,friend-sharing,300,0.200,60\n');
    const r = await runCli(['reproduce', '--data', f, '--out', out, '--reps', '200']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('verification failed: counts_reproduce_rates');
    const v = JSON.parse(readFileSync(join(out, 'reports', 'verification.json'), 'utf8'));
    expect(v.passed).toBe(false);
    expect(v.checks.find((c: { name: string }) => c.name === 'counts_reproduce_rates').failures).toEqual(['A / G / business: 31/300 does not round to 0.100']);
  });

  it('with more than two framings writes family-robustness.csv (rows per model–game, per model, pooled)', async () => {
    const out = tmp();
    const r = await runCli(['reproduce', '--data', join(ROOT, 'test/fixtures/rates/other.csv'), '--base', 'plain', '--alt', 'story', '--out', out, '--reps', '500']);
    expect(r.code).toBe(0);
    const lines = readFileSync(join(out, 'reports', 'family-robustness.csv'), 'utf8').trim().split('\n');
    expect(lines[0]).toBe('model,game,R,R_lo,R_hi');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(','))).toEqual([
      'Alpha,Coordination', 'Alpha,Trust', 'Alpha,Public Goods', 'Beta,Coordination', 'Beta,Trust', 'Beta,Public Goods',
      'Alpha,All', 'Beta,All', 'Pooled,All',
    ]);
  });

  it('an explicit --data path is read as typed, even when it spells the shipped file', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'data/lore-heydari-2024'), { recursive: true });
    writeFileSync(join(dir, 'data/lore-heydari-2024/rates.csv'), 'model,game,framing,n,cooperate\nMine,G,business,10,1\nMine,G,friend-sharing,10,9\n');
    const r = await runCli(['reproduce', '--data', 'data/lore-heydari-2024/rates.csv', '--reps', '100', '-q'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Mine\s/m);
    expect(r.stdout).not.toContain('GPT-4');
  });

  it('--help lists the flags', async () => {
    const r = await runCli(['reproduce', '--help']);
    expect(r.code).toBe(0);
    for (const f of ['--data', '--out', '--seed', '--reps', '--attenuation', '--base', '--alt']) expect(r.stdout).toContain(f);
  });
});
