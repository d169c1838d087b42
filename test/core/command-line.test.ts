import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { regenerateCommand, shellWord, wrappedCommand } from '../../src/core/command-line.js';

/** What a POSIX shell makes of a command line: its words, as printed by printf one per line. */
function shellSplit(line: string): string[] {
  const r = spawnSync('sh', ['-c', `printf '%s\\n' ${line}`], { encoding: 'utf8' });
  return r.stdout.split('\n').slice(0, -1);
}

describe('regenerateCommand', () => {
  it('names every given flag in order, repeats list and map flags, leaves absent ones out', () => {
    expect(regenerateCommand('analyze', ['runs/q.sqlite'], {
      run: 1, base: 'business', alt: 'friend-sharing', attenuation: 1, seed: 7, reps: 200,
      compare: 'data/x.csv', mapModel: { 'Sim-A': 'GPT-4', 'Sim-B': 'LLaMa-2' }, maxSurfaceSensitivity: undefined, quiet: false, dryRun: true,
    })).toBe('samegame analyze runs/q.sqlite --run 1 --base business --alt friend-sharing --attenuation 1 --seed 7 --reps 200 '
      + '--compare data/x.csv --map-model Sim-A=GPT-4 --map-model Sim-B=LLaMa-2 --dry-run');
    expect(regenerateCommand('audit', [], { searchReps: 5, readingError: 2, tags: ['a', 'b'] })).toBe('samegame audit --search-reps 5 --reading-error 2 --tags a --tags b');
  });

  it('quotes words a shell would split or expand', () => {
    expect(shellWord('plain/path-1.csv')).toBe('plain/path-1.csv');
    expect(shellWord("it's here")).toBe(`'it'\\''s here'`);
    expect(regenerateCommand('reproduce', [], { data: 'my data/$HOME.csv' })).toBe(`samegame reproduce --data 'my data/$HOME.csv'`);
  });

  it('a POSIX shell reads back exactly the words (any printable value)', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: 'grapheme', minLength: 1 }).filter((s) => !/[\0\n]/.test(s) && !s.startsWith('-')), { minLength: 1, maxLength: 4 }), (values) => {
      const line = regenerateCommand('x', values, {});
      expect(shellSplit(line.replace(/^samegame x ?/, ''))).toEqual(values);
    }), { numRuns: 40 });
  });

  it('wrappedCommand puts one flag per line and a shell still reads the same words; quoted values stay whole', () => {
    const line = regenerateCommand('analyze', ['my store.sqlite'], { run: 1, compare: "x --y 'z'.csv", mapModel: { A: 'B' } });
    const wrapped = wrappedCommand(line);
    expect(wrapped).toBe(`samegame analyze 'my store.sqlite' \\\n  --run 1 \\\n  --compare 'x --y '\\''z'\\''.csv' \\\n  --map-model A=B`);
    expect(shellSplit(wrapped)).toEqual(shellSplit(line));
  });
});
