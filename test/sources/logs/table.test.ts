/**
 * Logs as the input of the two-framing commands: the cell table of the decisions, clustered by
 * match; the opponent kept only when a model meets several; --factor folds a format's factor into
 * the game; --rounds 1 with the seats in different cells gives independent counts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInput } from '../../../src/sources/input.js';
import { BUILTIN_LOG_FORMATS } from '../../../src/sources/logs/index.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-logs-table-'));
const cols = BUILTIN_LOG_FORMATS.fairgame.columns.join(';');
const row = (lang: string, p1: string, s1: string, p2: string, s2: string) =>
  `0;${lang};True;2;2;False;A;m;${p1};1.0;${s1};[];[];B;m;${p2};1.0;${s2};[];[];stag-hunt;True;conventional`;
// Hand-written: en has one match (coop against selfish), fr two; OptionA is C in stag-hunt.
const path = join(dir, 'all_results.csv');
writeFileSync(path, [cols,
  row('en', 'cooperative', "['OptionA', 'OptionA']", 'selfish', "['OptionB', 'OptionA']"),
  row('fr', 'cooperative', "['OptionA', 'OptionB']", 'selfish', "['OptionB', 'OptionB']"),
  row('fr', 'cooperative', "['OptionA', 'OptionA']", 'selfish', "['OptionA', 'OptionB']"),
].join('\n') + '\n');
const obs = (t: ReturnType<typeof readInput>['table']) => t.cells.map((c) => [c.key.game, c.key.framing, c.obs]);

describe('readInput with --format', () => {
  it('one opponent per model: no opponent factor; both agents of a match in one cluster', () => {
    const input = readInput({ trials: path, format: 'fairgame' }, 'en', 'fr');
    expect(input.kind).toBe('FAIRGAME results, clustered by match');
    expect(input.table.factors).toEqual(['model', 'game', 'framing']);
    expect(obs(input.table)).toEqual([
      ['stag-hunt', 'en', { kind: 'clustered', sizes: Float64Array.from([4]), sums: Float64Array.from([3]) }],
      ['stag-hunt', 'fr', { kind: 'clustered', sizes: Float64Array.from([4, 4]), sums: Float64Array.from([1, 3]) }],
    ]);
  });
  it('--factor personality --rounds 1: the seats in different cells, one decision per match and cell, counts', () => {
    const input = readInput({ trials: [path], format: 'fairgame', factors: ['personality'], rounds: '1' }, 'en', 'fr');
    expect(input.kind).toBe('FAIRGAME results, rounds 1, one decision per match and cell (independent)');
    expect(obs(input.table)).toEqual([
      ['stag-hunt [personality=cooperative-selfish]', 'en', { kind: 'binary', n: 1, x: 1 }],
      ['stag-hunt [personality=selfish-cooperative]', 'en', { kind: 'binary', n: 1, x: 0 }],
      ['stag-hunt [personality=cooperative-selfish]', 'fr', { kind: 'binary', n: 2, x: 2 }],
      ['stag-hunt [personality=selfish-cooperative]', 'fr', { kind: 'binary', n: 2, x: 1 }],
    ]);
    expect(() => readInput({ trials: [path], format: 'fairgame', factors: ['mood'] }, 'en', 'fr'))
      .toThrow('--factor: the log format "fairgame" gives no factor "mood" (available: "n_rounds_is_known", "personality")');
  });
});
