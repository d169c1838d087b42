import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, ROOT } from '../helpers/cli.js';
import { nearestName } from '../../src/core/suggest.js';

/**
 * Messages that name the fix: a rate written as a percent says which rate it means; a missing
 * column names the columns the file has; an --expect row naming a model, game or statistic the
 * computation lacks suggests the nearest one; and -q still prints the published numbers that differ.
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-messages-'));
const SHIPPED_RATES = readFileSync(join(ROOT, 'data/lore-heydari-2024/rates.csv'), 'utf8');
const SHIPPED_PUBLISHED = readFileSync(join(ROOT, 'data/lore-heydari-2024/published.csv'), 'utf8');

describe('a rates file with a rate written as a percent or a column missing', () => {
  it('32.3: "looks like a percent: write 0.323", one line, exit 2, nothing written', async () => {
    const dir = tmp();
    const f = join(dir, 'percent.csv');
    writeFileSync(f, SHIPPED_RATES.replace(',300,0.323,', ',300,32.3,'));
    const out = join(dir, 'out');
    const r = await runCli(['reproduce', '--data', f, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`samegame: ${f}:3: field "rate": "32.3" is outside [0, 1]; it looks like a percent: write 0.323\n`);
    expect(existsSync(out)).toBe(false);
  });

  it('no rate column: the message names the columns the file has', async () => {
    const dir = tmp();
    const f = join(dir, 'renamed.csv');
    writeFileSync(f, SHIPPED_RATES.replace('model,game,framing,n,rate,', 'model,game,framing,n,coop_rate,'));
    const r = await runCli(['audit', '--data', f, '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`samegame: ${f}:1: field "rate": the header needs a "rate" or a "cooperate" column; the header has "model", "game", "framing", "n", "coop_rate", "source", "method", "note"\n`);
  });
});

describe('--expect names the computation lacks: did you mean', () => {
  it('GPT4 and Stag hunt: missing, each with the nearest model or game, in the message and the check', async () => {
    const dir = tmp();
    const f = join(dir, 'paper.csv');
    writeFileSync(f, 'table,model,game,statistic,published\ntable3,GPT4,,R,0.651\ntable2,GPT-3.5,Stag hunt,base_rate,0.167\ntable3,Claude,,R,0.5\n');
    const r = await runCli(['reproduce', '--expect', f, '--reps', '200', '--out', dir, '-q']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('3 missing (Table 3 GPT4 R, did you mean model "GPT-4"?; Table 2 GPT-3.5 / Stag hunt base_rate, did you mean game "Stag Hunt"?; Table 3 Claude R).');
    const v = readFileSync(join(dir, 'reports', 'verification.md'), 'utf8');
    expect(v).toContain('Table 3 GPT4 R: published 0.651, missing from the computation (no such model, game or statistic, did you mean model "GPT-4"?)');
  });

  it('a statistic that is not a column: the nearest column, one line, exit 2', async () => {
    const dir = tmp();
    const f = join(dir, 'paper.csv');
    writeFileSync(f, 'table,model,game,statistic,published\ntable3,GPT-4,,shift_low,0.369\n');
    const r = await runCli(['reproduce', '--expect', f, '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`samegame: ${f}:2: field "statistic": "shift_low" is not a column of table3 (one of R, R_lo, R_hi, shift, shift_lo, shift_hi); did you mean "shift_lo"?\n`);
  });
});

describe('-q and published numbers that differ', () => {
  it('prints the sentence naming each differing number (a warning), then the failed check', async () => {
    const dir = tmp();
    const f = join(dir, 'planted.csv');
    writeFileSync(f, SHIPPED_PUBLISHED.replace('table3,GPT-4,,shift,0.377,', 'table3,GPT-4,,shift,0.387,'));
    const r = await runCli(['reproduce', '--expect', f, '--out', dir, '-q']);
    expect(r.code).toBe(3);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^warning: 84 published numbers: \d+ exact, .*1 differ \(Table 3 GPT-4 shift: 0\.387 published, 0\.37742 computed\)\.$/);
    expect(lines.at(-1)).toBe('samegame: verification failed: published_values_reproduced');
  });

  it('with nothing differing, -q prints no sentence', async () => {
    const dir = tmp();
    const r = await runCli(['reproduce', '--out', dir, '--reps', '2000', '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('published numbers');
  });
});

describe('nearestName', () => {
  const MODELS = ['GPT-3.5', 'GPT-4', 'LLaMa-2', 'Pooled'];
  it.each([
    ['GPT4', MODELS, 'GPT-4'], ['gpt 3.5', MODELS, 'GPT-3.5'], ['Llama2', MODELS, 'LLaMa-2'], ['GPT-5', MODELS, undefined],
    ['Claude', MODELS, undefined], ['Stag hunt', ['Stag Hunt', 'Snowdrift / Chicken'], 'Stag Hunt'],
    ['Prisoners Dilemma', ["Prisoner's Dilemma", 'Stag Hunt'], "Prisoner's Dilemma"], ['Snowdrift', ['Snowdrift / Chicken', 'Stag Hunt'], undefined],
    ['shift_low', ['shift', 'shift_lo', 'shift_hi'], 'shift_lo'], ['table9', ['table2', 'table3', 'family'], undefined], ['', MODELS, undefined],
  ] as const)('%j among %j → %j', (value, known, want) => {
    expect(nearestName(value, known)).toBe(want);
  });
});
