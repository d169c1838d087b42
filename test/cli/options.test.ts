/**
 * The CLI's flag parsing (cli/options.ts): one numeric parser over a range, whose presets keep
 * their messages; a bad flag is one line, exit 2, with the usage hint on the same line.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess as run, STACK } from '../helpers/in-process.js';
import { InvalidArgumentError } from 'commander';
import { parseIntFlag, parseLevelFlag, parseNumberFlag, parsePixelErrorFlag, parsePositiveFlag, parseRangeFlag, parseUnitFlag } from '../../src/cli/options.js';
import { writeFileSync } from 'node:fs';
import { startCli, ROOT } from '../helpers/cli.js';
import { refusalKit, refusedInOneLine } from '../helpers/refusals.js';

const oneLine = refusedInOneLine;

describe('parseNumberFlag: a finite number in its range, else the flag\'s one message', () => {
  const bad = (f: (v: string) => number, v: string): string => {
    try { f(v); } catch (e) { if (e instanceof InvalidArgumentError) return e.message; throw e; }
    throw new Error(`${v} was accepted`);
  };
  it('closed and open ends, integers only when asked', () => {
    const p = parseNumberFlag('--x', { min: 0, max: 1, minOpen: true }, 'a number in (0, 1]');
    expect(p('1')).toBe(1);
    expect(p(' 0.5 ')).toBe(0.5);
    for (const v of ['0', '1.0001', '', ' ', 'abc', 'Infinity', 'NaN']) expect(bad(p, v)).toBe(`--x: ${JSON.stringify(v)} is not a number in (0, 1]`);
    const i = parseNumberFlag('--n', { min: 1, max: 10, integer: true }, 'an integer from 1 to 10');
    expect(i('+7')).toBe(7);
    for (const v of ['1.5', '1e1', '0x5', '11', '0']) expect(bad(i, v)).toMatch(/^--n: .* is not an integer from 1 to 10$/);
  });
  it('its presets keep their ranges and messages', () => {
    expect(bad(parseIntFlag('--seed'), '-1')).toBe('--seed: "-1" is not a non-negative integer');
    expect(bad(parseIntFlag('--reps', 1), '0')).toBe('--reps: "0" is not an integer ≥ 1');
    expect(bad(parseUnitFlag('--attenuation'), '1.5')).toBe('--attenuation: "1.5" is not a number in [0, 1]');
    expect(parseUnitFlag('--attenuation')('0')).toBe(0);
    expect(bad(parsePositiveFlag('--poll'), '0')).toBe('--poll: "0" is not a positive number');
    expect(bad(parseRangeFlag('--rpm', 0.001, 10), '0')).toBe('--rpm: "0" is not a number from 0.001 to 10');
    expect(bad(parseRangeFlag('--price', 0, 5, true), '0')).toBe('--price: "0" is not a number in (0, 5]');
    expect(parseRangeFlag('--price', 0, 5, true)('5')).toBe(5);
    expect(bad(parseLevelFlag('--verdict-alpha'), '1')).toBe('--verdict-alpha: "1" is not a number in (0, 1)');
    expect(bad(parsePixelErrorFlag, '101')).toBe('--pixel-error: "101" is not a number of pixels from 0 to 100');
  });
});

describe('flag errors', () => {
  it.each([
    [['audit', '--reading-error', '-1', '--out', join(tmpdir(), 'samegame-never-written')], /--reading-error: "-1" is not an integer from 0 to 1000000/],
    [['audit', '--reading-error', '1000001', '--out', join(tmpdir(), 'samegame-never-written')], /--reading-error: "1000001" is not an integer from 0 to 1000000/],
    [['run', 'x.yaml', '--timeout-ms', 'abc'], /--timeout-ms: "abc" is not an integer/],
    [['run', 'x.yaml', '--timeout-ms', '99999999999'], /--timeout-ms: "99999999999" is not an integer from 1 to 86400000/],
    [['reproduce', '--bogus'], /unknown option '--bogus'/],
    [['run'], /missing required argument 'design'/],
  ])('%j: one line, exit 2, the hint on the same line', async (argv, pattern) => {
    const r = await run(argv);
    oneLine(r, pattern);
    expect(r.stderr).toMatch(/^samegame: .*\(run with --help for usage\)\n$/);
  });
});

/** A YAML alias bomb, numeric flags out of range and a closed pipe: one line or a quiet end, never a hang or a crash. */
describe('designs and flags out of range', () => {
  const { tmp, DESIGN, oneLine } = refusalKit;

  describe('designs and flags', () => {
    it('a YAML alias bomb is the one-line design error', async () => {
      const d = tmp();
      const f = join(d, 'bomb.yaml');
      const levels = Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`);
      writeFileSync(f, ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...levels].join('\n') + '\n');
      const r = await run(['run', f, '--dry-run']);
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toMatch(new RegExp(`^samegame: ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid YAML \\(.*alias`, 'i'));
    });

    it.each([
      ['--rpm', '1e-300'], ['--rpm', '0'], ['--tpm', '1e400'], ['--tpm', 'NaN'], ['--concurrency', '100000'], ['--timeout-ms', '99999999999'],
      ['--max-retries', '1000'], ['--price-in', '1e308'], ['--price-out', '-1'], ['--provider', 'nosuch'], ['--base-url', 'not a url'],
      ['--base-url', 'ftp://example.com'],
    ])('run %s %s: refused, naming the flag', async (flag, value) => {
      const r = await run(['run', DESIGN, '--dry-run', flag, value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${flag}: ${JSON.stringify(value)} is not`);
      expect(r.stderr).not.toMatch(STACK);
      expect(r.stdout).toBe('');
    });

    it.each([
      [['reproduce', '--reps', '2000000']], [['audit', '--search-reps', '0']], [['audit', '--reading-error', '1e9']],
      [['audit', '--threads', '0']], [['audit', '--threads', '2.5']], [['audit', '--threads', '65']],
      [['plan', '--data', join(ROOT, 'data/lore-heydari-2024/rates.csv'), '--target-halfwidth', '2']],
      [['plan', '--data', join(ROOT, 'data/lore-heydari-2024/rates.csv'), '--target-halfwidth', '0.1', '--max-n', '1000000000']],
      [['plan', '--data', join(ROOT, 'data/lore-heydari-2024/rates.csv'), '--target-halfwidth', '0.1', '--price', '1e308']],
    ])('%j: refused before any work', async (argv) => {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--[a-z-]+: ".*" is not/);
    });

    it('a closed pipe ends the command quietly with exit 0', async () => {
      const { child, done } = startCli(['prompts', DESIGN]);
      child.stdout!.destroy(); // the reader is gone before the first write, as with `| head -0`
      const r = await done;
      expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(r.code).toBe(0);
    }, 60_000);
  });
});
