import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import { GUIDE_TIMEOUT, guideTestFile, outputMismatch, runGuide, runnableBlocks, warmCli } from '../helpers/guides.js';

/**
 * Every runnable block of every guide (docs/guides/*.md) and of the README runs, in order, in a
 * fresh temporary folder, offline (test/helpers/guides.ts); a command that exits non-zero or an
 * output a block names that is not written fails the guide, naming its file and line. Each guide
 * runs in a test file of its own (test/docs/guides/, so that the workers share them); this file
 * checks that every guide has one. The two fixture guides show that the test can fail.
 */
const GUIDES = join(ROOT, 'docs', 'guides');
// The guides' index (docs/guides/README.md) has no steps of its own; the landing README has one per use.
const guides = readdirSync(GUIDES).filter((f) => f.endsWith('.md') && f !== 'README.md').sort();
const LONG = GUIDE_TIMEOUT;

describe('the guides run', () => {
  it('a guide for each of the four uses', () => {
    expect(guides).toEqual(expect.arrayContaining(['reproduce-a-paper.md', 'audit-secondary-data.md', 'run-your-own-study.md', 'reanalyse-a-published-log.md']));
  });
  it.each([...guides.map((g) => `docs/guides/${g}`), 'README.md'])('%s has its test file, which runs it', (rel) => {
    const file = join(ROOT, guideTestFile(rel));
    expect(existsSync(file), guideTestFile(rel)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain(`guideRuns('${rel}');`);
  });
  it('every guide test file runs a guide that exists', () => {
    const files = readdirSync(join(ROOT, 'test', 'docs', 'guides')).sort();
    expect(files).toEqual([...guides.map((g) => `docs/guides/${g}`), 'README.md'].map((rel) => guideTestFile(rel).split('/').at(-1)).sort());
  });
});

describe('a guide that does not work fails the test', () => {
  it('a broken command: the guide fails at its line with the exit code and the message; the steps after it do not run', async () => {
    const r = await runGuide(join(ROOT, 'test/fixtures/guides/broken.md'));
    expect(r.blocks).toBe(3);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0].where).toBe('test/fixtures/guides/broken.md:11');
    expect(r.failures[0].problem).toMatch(/^exit 2: samegame: .*--reps: "fifty" is not an integer from 1 to 1000000/);
  }, LONG);

  it('an output the guide names that the command does not write; a printed number that differs from the guide\'s output block', async () => {
    const r = await runGuide(join(ROOT, 'test/fixtures/guides/missing-output.md'));
    expect(r.blocks).toBe(3);
    expect(r.failures).toEqual([
      { where: 'test/fixtures/guides/missing-output.md:3', problem: 'reports/no-such-table.csv was not written' },
      { where: 'test/fixtures/guides/missing-output.md:34', problem: 'the printed output differs: line 1 of the block, ' +
        '"84 published numbers: 78 exact, 6 within Monte Carlo error", is printed as "84 published numbers: 77 exact, 7 within Monte Carlo error"' },
    ]);
  }, LONG);

  it('an output block: … within a line is any text, a line of … any lines; the folder\'s path and trailing spaces do not count', () => {
    expect(outputMismatch('a …\n…\nz', 'a 1.5 s  \nb\nc\nz\n')).toBeUndefined();
    expect(outputMismatch('a\n…\nz', 'a\nz')).toBeUndefined();
    expect(outputMismatch('a\nz', 'a\nb\nz')).toBe('line 2 of the block, "z", is printed as "b"');
    expect(outputMismatch('a\nb', 'a\nb\nc')).toBe('the block ends at its line 2; the command prints more: "c"');
    expect(outputMismatch('x (1.0)', 'x (1a0)')).toBe('line 1 of the block, "x (1.0)", is printed as "x (1a0)"');
  });

  it('only `sh runnable` fences are steps; writes= names the outputs', () => {
    const md = ['```sh runnable writes=a.csv,b/c.svg', 'echo 1', '```', '', '```sh', 'echo 2', '```', '````sh runnable', '```', 'inner', '````'].join('\n');
    expect(runnableBlocks(md)).toEqual([{ line: 1, code: 'echo 1', writes: ['a.csv', 'b/c.svg'] }, { line: 8, code: '```\ninner', writes: [] }]);
    const shown = ['```sh runnable', 'echo 1', '```', '```text', 'not output', '```', '```text output', '1', '```', '```text output', '2', '```'].join('\n');
    expect(runnableBlocks(shown)).toEqual([{ line: 1, code: 'echo 1', writes: [], output: { line: 7, text: '1' } }]);
  });
});

describe("the guides' warm CLI prints and exits as the binary", () => {
  const CLIENT = fileURLToPath(new URL('../helpers/guide-cli/client.mjs', import.meta.url));
  it.each([
    [['--version']],
    [['prompts', 'data/designs/quickstart.yaml', '--model', 'Sim-A', '--game', 'stag-hunt']],
    [['reproduce', '--reps', 'fifty', '-q']],
    [['analyze', 'no-such-store.sqlite']],
  ])('samegame %j: the same exit code, standard output and standard error', async (argv) => {
    const env = cleanEnv({ SAMEGAME_GUIDE_CLI: await warmCli() });
    const run = (cmd: string) => spawnSync(process.execPath, [cmd, ...argv], { cwd: ROOT, env, encoding: 'utf8' });
    const [warm, binary] = [run(CLIENT), run(BIN)];
    expect({ code: warm.status, stdout: warm.stdout, stderr: warm.stderr }).toEqual({ code: binary.status, stdout: binary.stdout, stderr: binary.stderr });
    expect(`${binary.stdout}${binary.stderr}`).not.toBe('');
  }, LONG);
});
