/**
 * The process ends when the command does. The figure pool's worker thread starts before the
 * computation (so that it loads Vega meanwhile), and the audit's search worker before the
 * bootstrap; a command that fails on its input must still exit at once with its message, not wait
 * for the idle or busy worker. Real processes: the in-process
 * runner cannot see whether a process exits.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-exit-'));
const bad = join(dir, 'bad.csv');
writeFileSync(bad, 'model,game,framing,n,rate\nA,G,business,10,1.7\nA,G,friend-sharing,10,0.5\n');

describe('the process exits when a command fails before drawing', () => {
  it.each([
    ['reproduce', ['reproduce', '--data', bad, '--out', join(dir, 'r')], /bad\.csv:2: field "rate": "1\.7" is outside \[0, 1\]/],
    ['audit', ['audit', '--data', 'test/fixtures/audit/rates-240-cells.csv', '--max-cells', '100', '--out', join(dir, 'a')], /240 cells: the audit takes at most 100/],
    // The search worker starts before the bootstrap, which then refuses: the worker must be stopped.
    ['audit with a search worker', ['audit', '--data', 'test/fixtures/audit/rates-240-cells.csv', '--reps', '1000000', '--threads', '2', '--out', join(dir, 'w')], /604 statistics × 1,000,000 replicates/],
  ])('%s: exit 2 with the one-line message', async (_name, args, message) => {
    const r = await startCli(args as string[]).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
  });
});
