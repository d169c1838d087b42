/**
 * One two-framing table for a log, whichever command reads it: `reproduce --trials … --format` and
 * `analyze --trials … --format` build it with the same code (framingCells), so the same log, seed
 * and reps give the same Table 2 and Table 3 rows — self-play named `self` in both.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-one-table-'));
const HEADER = 'round,player1,player2,answer1,answer2,points1,points2,total1,total2\n';
const write = (name: string, text: string) => { const p = join(mkdtempSync(join(dir, 'log-')), name); writeFileSync(p, text); return p; };
const match = (p1: string, p2: string, rounds: Array<[string, string, number, number]>) =>
  { let t1 = 0, t2 = 0; return rounds.map(([a, b, x, y], i) => `${i + 1},${p1},${p2},${a},${b},${x},${y},${t1 += x},${t2 += y}\n`).join(''); };
const cc: [string, string, number, number] = ['J', 'J', 8, 8], cd: [string, string, number, number] = ['J', 'F', 0, 10];
const dc: [string, string, number, number] = ['F', 'J', 10, 0], dd: [string, string, number, number] = ['F', 'F', 5, 5];

/** Data rows of a CSV (comment lines dropped). */
const rows = (out: string, name: string) => readFileSync(join(out, 'reports', name), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));

async function both(files: string[], extra: string[] = []): Promise<{ rep: string; ana: string }> {
  const args = [...files.flatMap((f) => ['--trials', f]), '--format', 'akata', '--base', 'a', '--alt', 'b', '--seed', '7', '--reps', '200', ...extra, '-q'];
  const rep = mkdtempSync(join(dir, 'rep-')), ana = mkdtempSync(join(dir, 'ana-'));
  const r1 = await runCli(['reproduce', ...args, '--out', rep]);
  expect(r1.code, r1.stderr).toBe(0);
  const r2 = await runCli(['analyze', ...args, '--out', ana]);
  expect(r2.code, r2.stderr).toBe(0);
  return { rep, ana };
}

describe('reproduce and analyze read a log through one table', () => {
  it('self-play and model-against-model matches (the opponent a factor): identical Table 2 and Table 3, self-play as [opponent=self]', async () => {
    const a = write('a.csv', HEADER + match('X', 'X', [cc, cc, cd]) + match('X', 'X', [cc, dd, dd]) + match('X', 'Y', [cd, dd, cc]) + match('Y', 'X', [cc, dc, cc])
      + match('Y', 'Y', [dc, cc, cc]) + match('Y', 'Y', [dd, dd, cc]));
    const b = write('b.csv', HEADER + match('X', 'X', [cd, dd, cc]) + match('X', 'X', [dd, dd, cd]) + match('X', 'Y', [cc, cc, cc]) + match('Y', 'X', [dd, cd, dc])
      + match('Y', 'Y', [cc, cc, dd]) + match('Y', 'Y', [cc, cd, cc]));
    const { rep, ana } = await both([a, b]);
    expect(rows(ana, 'table3.csv')).toEqual(rows(rep, 'table3.csv'));
    expect(rows(ana, 'table2.csv')).toEqual(rows(rep, 'table2.csv'));
    const games = rows(rep, 'table2.csv').slice(1).map((l) => l.split(',').slice(0, 2).join(' / '));
    expect(games).toEqual(['X / prisoners-dilemma [opponent=self]', 'X / prisoners-dilemma [opponent=Y]', 'Y / prisoners-dilemma [opponent=X]', 'Y / prisoners-dilemma [opponent=self]']);
  });

  it('self-play only (as FAIRGAME): the opponent names no distinction and is dropped by both; identical Table 3', async () => {
    const a = write('a.csv', HEADER + match('X', 'X', [cc, cd, dd]) + match('X', 'X', [cc, cc, cc]) + match('Y', 'Y', [dd, dc, cc]) + match('Y', 'Y', [cc, dd, dd]));
    const b = write('b.csv', HEADER + match('X', 'X', [dd, dd, cc]) + match('X', 'X', [cd, cc, dd]) + match('Y', 'Y', [cc, cc, cc]) + match('Y', 'Y', [cd, cc, dc]));
    const { rep, ana } = await both([a, b]);
    expect(rows(ana, 'table3.csv')).toEqual(rows(rep, 'table3.csv'));
    expect(rows(rep, 'table2.csv').slice(1).map((l) => l.split(',')[1])).toEqual(['prisoners-dilemma', 'prisoners-dilemma']);
  });
});
