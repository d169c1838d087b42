/**
 * Flags checked before any work: coverage --out before the simulations; plan refusing what the
 * other commands refuse; --reading-error within what the table allows; flag errors on one line.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess as run, STACK } from '../helpers/in-process.js';

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
