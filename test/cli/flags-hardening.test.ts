/**
 * Flags checked before any work: coverage --out before the simulations; plan refusing what the
 * other commands refuse; --reading-error within what the table allows; flag errors on one line.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess as run, STACK } from '../helpers/in-process.js';
import { counts, writeStore } from '../helpers/store.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-flags-'));

function oneLine(r: { code: unknown; stderr: string }, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

describe('coverage --out', () => {
  it('is checked before the input is read and before any simulation (no title or progress line)', async () => {
    const d = tmp();
    writeFileSync(join(d, 'file'), 'x');
    oneLine(await run(['coverage', '--out', join(d, 'file', 'sub'), '--sims', '2', '--reps', '20']), /^samegame: --out .*exists and is not a directory/);
    mkdirSync(join(d, 'o'));
    writeFileSync(join(d, 'o', 'reports'), 'x');
    oneLine(await run(['coverage', '--out', join(d, 'o'), '--sims', '2', '--reps', '20']), /^samegame: --out .*reports" exists and is not a directory/);
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

describe('plan refuses what the other commands refuse', () => {
  const RATES = 'data/lore-heydari-2024/rates.csv';
  const PLAN = ['--target-halfwidth', '0.05', '--reps', '100'];

  it('--base equal to --alt, for --data and --store', async () => {
    const d = tmp();
    const store = join(d, 's.sqlite');
    writeStore(store, { name: 'x' }, [
      { model: 'M', game: 'G', framing: 'business', actions: counts(2, 6) },
      { model: 'M', game: 'G', framing: 'friend-sharing', actions: counts(4, 6) },
    ]);
    oneLine(await run(['plan', '--data', RATES, '--base', 'business', '--alt', 'business', ...PLAN]), /--base and --alt must differ/);
    oneLine(await run(['plan', '--store', store, '--base', 'business', '--alt', 'business', ...PLAN]), /--base and --alt must differ/);
    // A store with both framings plans (the refusals above are not of the store).
    const ok = await run(['plan', '--store', store, ...PLAN]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a run with no valid trial', async () => {
    const d = tmp();
    const store = join(d, 's.sqlite');
    writeStore(store, { name: 'x' }, [
      { model: 'M', game: 'G', framing: 'business', actions: [null, null] },
      { model: 'M', game: 'G', framing: 'friend-sharing', actions: [null, null] },
    ]);
    oneLine(await run(['plan', '--store', store, ...PLAN]), /has no valid trials/);
  });

  it('a model–game without one of the planned framings, or a --base the run does not have', async () => {
    const d = tmp();
    const store = join(d, 's.sqlite');
    writeStore(store, { name: 'x' }, [
      { model: 'M', game: 'G', framing: 'business', actions: counts(2, 6) },
      { model: 'M', game: 'G', framing: 'friend-sharing', actions: counts(4, 6) },
      { model: 'M', game: 'H', framing: 'business', actions: counts(1, 6) },
    ]);
    oneLine(await run(['plan', '--store', store, ...PLAN]), /model "M", game "H" has no valid "friend-sharing" trials/);
    oneLine(await run(['plan', '--store', store, '--base', 'nope', ...PLAN]), /has no valid "nope" trials/);
  });
});
