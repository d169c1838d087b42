import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/**
 * A per-trial file where both framings were asked in the same conversations (the cluster column
 * names them): `reproduce --trials … --cluster conversation` analyses the shift paired and says
 * so (docs/methods.md §8.4, "Paired designs"); the same decisions with conversation ids of each
 * framing's own are analysed as independent cells, with a wider shift interval.
 */
function file(shared: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-paired-'));
  const lines = ['model,game,framing,conversation,action'];
  // conversation j: a propensity shared by both framings (j + j mod 3 of 10 decisions), the alternative 1 or 2 decisions more
  for (let j = 0; j < 8; j++) for (const framing of ['business', 'friend-sharing']) {
    const c = Math.min(10, j + (j % 3) + (framing === 'business' ? 0 : 1 + (j % 2)));
    for (let i = 0; i < 10; i++) lines.push(`M,Stag Hunt,${framing},${shared ? '' : `${framing}-`}conv-${j},${i < c ? 'C' : 'D'}`);
  }
  const path = join(dir, 'trials.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('paired designs from a per-trial file', () => {
  it('shared conversation ids: the shift is analysed paired, and the warning says so', async () => {
    const runs = [];
    for (const shared of [true, false]) {
      const out = mkdtempSync(join(tmpdir(), 'samegame-paired-out-'));
      const r = await runCli(['reproduce', '--trials', file(shared), '--cluster', 'conversation', '--reps', '200', '--attenuation', '1', '-q', '--out', out]);
      expect(r.code).toBe(0);
      const m = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
      runs.push({ stderr: r.stderr, notes: (m.table3?.interval_notes ?? m.interval_notes ?? JSON.stringify(m)) as unknown,
        csv: readFileSync(join(out, 'reports', 'table3.csv'), 'utf8') });
    }
    const [paired, independent] = runs;
    expect(paired.stderr).toMatch(/paired: .*shift\["M"\].*analysed paired, on match-level differences/);
    expect(independent.stderr).not.toMatch(/paired/);
    expect(JSON.stringify(paired.notes)).toMatch(/analysed paired/);
    const width = (csv: string) => {
      const [head, row] = csv.trim().split('\n').map((l) => l.split(','));
      return Number(row[head.indexOf('shift_hi')]) - Number(row[head.indexOf('shift_lo')]);
    };
    // every conversation's difference is 1 or 2 decisions of 10: the paired interval is far narrower
    expect(width(paired.csv)).toBeLessThan(0.5 * width(independent.csv));
  });
});
