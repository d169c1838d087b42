/**
 * A store is held to the naming rule of every reader (docs/reference/specifications.md, "Names"): a model named `Pooled`
 * or a game named `All` (the tables' own rows), a line or paragraph separator, a name over the
 * length limit — refused by analyze, coverage, plan and export alike, one line, exit 2, nothing written.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { counts, writeStore } from '../helpers/store.js';
import { runCli } from '../helpers/cli.js';
import { MAX_NAME_LENGTH } from '../../src/sources/reader-rules.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-store-names-'));
let seq = 0;

function storeWith(model: string, game: string): string {
  const path = join(dir, `s${seq++}.sqlite`);
  writeStore(path, { name: 'x' }, [
    { model, game, framing: 'business', actions: counts(3, 10) },
    { model, game, framing: 'friend-sharing', actions: counts(6, 10) },
  ]);
  return path;
}

const readers = (store: string, out: string): [string, string[]][] => [
  ['analyze', ['analyze', store, '--out', out, '--reps', '100', '-q']],
  ['coverage', ['coverage', store, '--out', out, '--sims', '2', '--reps', '50', '-q']],
  ['plan', ['plan', '--store', store, '--target-halfwidth', '0.1', '--reps', '100']],
  ['export', ['export', store, '--format', 'csv', '--out', `${out}.csv`]],
];

describe('every store reader refuses the names no reader takes', () => {
  it.each([
    ['model "Pooled"', 'Pooled', 'G', 'model "Pooled" is reserved for the tables\' own pooled rows; rename it'],
    ['game "All"', 'A', 'All', 'game "All" is reserved for the tables\' own per-model rows; rename it'],
    ['a line separator', 'A\u2028B', 'G', 'model contains the control character U+2028'],
    ['a paragraph separator in a game', 'A', 'G\u2029H', 'game contains the control character U+2029'],
    ['a name over the limit', 'M'.repeat(MAX_NAME_LENGTH + 1), 'G', `model is ${MAX_NAME_LENGTH + 1} characters long (names may be at most ${MAX_NAME_LENGTH})`],
  ])('%s', async (_n, model, game, want) => {
    const store = storeWith(model, game);
    for (const [name, args] of readers(store, join(dir, `out${seq++}`))) {
      const r = await runCli(args);
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr, name).toContain(want);
      expect(r.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(r.stdout, name).toBe('');
      expect(existsSync(args[args.indexOf('--out') + 1] ?? '/nonexistent'), name).toBe(false);
    }
  }, 60_000);
});
