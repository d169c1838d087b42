/**
 * `--names FILE` with an id that names nothing in the input (a typo, or an id of another study):
 * the binary warns on stderr with the file, line, nearest id and the ids of the input, and exits 0
 * with the outputs written — `reproduce` on a rates file and `analyze` on a published log; a
 * design's `names:` block is checked by `run` (here its dry run), naming the design line.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'samegame-cli-names-'));
const warningsOf = (stderr: string) => stderr.split('\n').filter((l) => l.includes('display name for'));

describe('a design\'s names: block with an id that names nothing', () => {
  it('run --dry-run: a warning naming the design line and the nearest id, exit 0', async () => {
    const design = join(tmp, 'd.yaml');
    writeFileSync(design, readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8')
      .replace(/^synthetic: true$/m, 'synthetic: true\nnames:\n  Sim-A: Agent Alpha\n  Sim_B: Agent Beta'));
    const line = readFileSync(design, 'utf8').split('\n').indexOf('  Sim_B: Agent Beta') + 1;
    const r = await runCli(['run', design, '--dry-run', '--store', join(tmp, 's.sqlite')]);
    expect(r.code, r.stderr).toBe(0);
    const w = warningsOf(r.stderr);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(new RegExp(`^warning: ${design.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}: display name for "Sim_B" ignored: .*; did you mean "Sim-B"\\?`));
    expect(w[0]).toContain('a warning only');
  }, 60_000);
});

describe('--names with an id that names nothing', () => {
  it('reproduce: a warning naming the line and the nearest id, exit 0, the outputs written', async () => {
    const names = join(tmp, 'names.csv');
    writeFileSync(names, 'id,name\nGPT-4,GPT-4 (0613)\nGPT35,GPT-3.5 Turbo\n');
    const out = join(tmp, 'r');
    const r = await runCli(['reproduce', '--names', names, '--reps', '100', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const w = warningsOf(r.stderr);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(new RegExp(`^warning: ${names.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: display name for "GPT35" ignored: `));
    expect(w[0]).toContain('did you mean "GPT-3.5"?');
    expect(w[0]).toContain('models "GPT-3.5", "GPT-4", "LLaMa-2"');
    expect(w[0]).toContain('a warning only');
    expect(existsSync(join(out, 'reports', 'table3.csv'))).toBe(true);
  }, 60_000);

  it('analyze of a published log: the same warning, exit 0', async () => {
    const names = join(tmp, 'log-names.csv');
    writeFileSync(names, 'id,name\nact_gpt4,GPT-4\nact-gpt35,GPT-3.5\nact_gemini,Gemini\n');
    const r = await runCli(['analyze', '--trials', 'data/akata-2023/experiment_pd.csv', '--format', 'akata', '--names', names, '--reps', '50', '--out', join(tmp, 'a'), '-q']);
    expect(r.code, r.stderr).toBe(0);
    const w = warningsOf(r.stderr);
    expect(w.map((l) => l.slice(0, l.indexOf(' ignored')))).toEqual([`warning: ${names}:3: display name for "act-gpt35"`, `warning: ${names}:4: display name for "act_gemini"`]);
    expect(w[0]).toContain('did you mean "act_gpt35"?');
    expect(w[1]).not.toContain('did you mean');
  }, 60_000);
});
