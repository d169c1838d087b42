/**
 * Published logs held to the contract the other readers keep: the name rule (README "Names") for
 * every model, opponent, game, framing and factor level a format makes — reserved names, control
 * characters, the length limit, empty names, invalid UTF-8 —, the constants of a description
 * likewise; a log that contradicts itself refused naming the line (a repeated row, running totals
 * that are not the sum of the points, FAIRGAME lists against played_rounds/max_rounds, an empty
 * list, a label map without D), a short match warned and left out unless kept; and every error
 * one line whatever a quoted value holds.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { BUILTIN_LOG_FORMATS, parseLogFormat, readLogDecisions, type LogFormat } from '../../../src/sources/logs/index.js';
import { ROOT, runCli } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-logs-hardening-'));
const file = (name: string, text: string | Buffer) => { const p = join(dir, name); writeFileSync(p, text); return p; };
const message = (f: () => unknown): string => {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('accepted');
};
const read = (p: string, format: string | LogFormat, opts: { shortMatches?: 'drop' | 'keep' } = {}) =>
  readLogDecisions([p], format, { displayPaths: [p.slice(dir.length + 1)], ...opts });

const AKATA = readFileSync(join(ROOT, 'data/akata-2023/experiment_pd.csv'), 'utf8');
const HEADER = 'round,player1,player2,answer1,answer2,points1,points2,total1,total2\n';
/** A 2-round match of two players, each round J/J (8 points each), with its running totals. */
const match2 = (a: string, b: string) => `1,${a},${b},J,J,8,8,8,8\n2,${a},${b},J,J,8,8,16,16\n`;

describe('the name rule for every value a log format makes', () => {
  it('the shipped Akata log with a player renamed Pooled is refused (file, line, field)', () => {
    const p = file('pooled.csv', AKATA.replace(/act_gpt4/g, 'Pooled'));
    expect(message(() => read(p, 'akata'))).toBe('pooled.csv:2: field "player1": "Pooled" is reserved for the tables\' own pooled rows; rename it');
  });
  it('a 300-character name, a control character (ESC, U+2028, U+FFFE, a newline) and an empty template value are refused', () => {
    const self = file('self.csv', HEADER + match2('a', 'self'));
    expect(message(() => read(self, 'akata'))).toBe('self.csv:2: field "player2": "self" is the tables\' name of a model\'s matches against itself (its opponent level); a player of that name would join them: rename it');
    const long = file('long.csv', HEADER + match2('m'.repeat(300), 'b'));
    expect(message(() => read(long, 'akata'))).toBe('long.csv:2: field "player1": is 300 characters long (names may be at most 256)');
    for (const [c, code] of [['\u001b', '001B'], ['\u2028', '2028'], ['\ufffe', 'FFFE'], ['\n', '000A']]) {
      const p = file(`ctl-${code}.csv`, HEADER + match2('a', `"b${c}x"`));
      expect(message(() => read(p, 'akata'))).toBe(`ctl-${code}.csv:2: field "player2": contains the control character U+${code} (names may hold any printable character, no control characters)`);
    }
    const cols = BUILTIN_LOG_FORMATS.fairgame.columns.join(';');
    const row = `0;en;True;1;1;False;A;m;c;1.0;['OptionA'];[];[];B;m;s;1.0;['OptionA'];[];[];stag-hunt;True;conventional`;
    const empty = parseLogFormat(`name: e\nshape: match\ndelimiter: ";"\ncolumns: [${BUILTIN_LOG_FORMATS.fairgame.columns.join(', ')}]\nmatch: row
game: { template: "{payoff_type}", values: { payoff_type: { conventional: "" } } }\nframing: { column: language }
seats:\n  - { model: { column: agent1_llm }, opponent: { column: agent2_llm }, action: agent1_strategies }
  - { model: { column: agent2_llm }, opponent: { column: agent1_llm }, action: agent2_strategies }
actions: { labels: { "": { OptionA: C, OptionB: D } } }\n`, 'e.yaml');
    const p = file('empty.csv', `${cols}\n${row}\n`);
    expect(message(() => read(p, empty))).toBe('empty.csv:2: field "payoff_type": value is missing');
  });
  it('invalid UTF-8 is refused naming its line, not read as U+FFFD', () => {
    const p = file('latin1.csv', Buffer.concat([Buffer.from(HEADER + match2('a', 'b')), Buffer.from('1,M\xfcller,b,J,J,8,8,8,8\n', 'latin1')]));
    expect(message(() => read(p, 'akata'))).toBe('latin1.csv:4: the text is not valid UTF-8 (save the file as UTF-8)');
  });
  it('a description whose constant is a reserved name or holds a control character is refused when it is read', () => {
    const base = (game: string, model: string) => `name: c\nshape: round\ncolumns: [round, a1, a2, x1, x2]\nmatch: consecutive\nround: { column: round }
game: { constant: ${game} }\nframing: { constant: f }
seats:\n  - { model: { constant: ${model} }, opponent: { constant: o }, action: a1, payoff: x1 }
  - { model: { constant: o }, opponent: { constant: ${model} }, action: a2, payoff: x2 }
actions: { payoffs: { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } } }\n`;
    expect(message(() => parseLogFormat(base('All', 'm'), 'c.yaml'))).toBe('c.yaml:6: field "game.constant": "All" is reserved for the tables\' own per-model rows; rename it');
    expect(message(() => parseLogFormat(base('g', 'Pooled'), 'c.yaml'))).toMatch(/^c\.yaml:9: field "seats\[0\]\.model\.constant": "Pooled" is reserved/);
    expect(message(() => parseLogFormat(base('"g\\e"', 'm'), 'c.yaml'))).toMatch(/^c\.yaml:6: field "game\.constant": contains the control character U\+001B/);
  });
});

describe('a log that contradicts itself', () => {
  it('a round-1 row given twice is refused naming both lines (not an extra one-round match)', () => {
    const lines = AKATA.split('\n');
    const p = file('dup.csv', [lines[0], lines[1], ...lines.slice(1)].join('\n'));
    expect(message(() => read(p, 'akata'))).toBe('dup.csv:3: the row repeats line 2 exactly (a row given twice)');
  });
  it('a match cut off after round 5 of 10: a warning naming it, left out by default, kept with shortMatches keep', () => {
    const lines = AKATA.split('\n');
    const cut = [lines[0], ...lines.slice(1, 6), ...lines.slice(11)].join('\n'); // the first match keeps rounds 1–5
    const p = file('cut.csv', cut);
    const dropped = read(p, 'akata');
    expect(dropped.notes).toContain('cut.csv:2: the match begun here has 5 rounds, the longest match of its game in the file has 10: a short match, left out (--short-matches keep keeps it)');
    expect(new Set(dropped.decisions.map((d) => d.match)).size).toBe(63);
    const kept = read(p, 'akata', { shortMatches: 'keep' });
    expect(new Set(kept.decisions.map((d) => d.match)).size).toBe(64);
    expect(kept.notes.some((n) => n.includes('kept (--short-matches keep)'))).toBe(true);
  });
  it('Akata totals that contradict the points are refused naming line and field', () => {
    const p = file('total.csv', AKATA.replace('3,act_gpt4,act_gpt4,J,J,8,8,24,24', '3,act_gpt4,act_gpt4,J,J,8,8,24,25'));
    expect(message(() => read(p, 'akata'))).toBe('total.csv:4: field "total2": total 25, but the payoffs of rounds 1–3 sum to 24: the log contradicts itself');
  });
  const cols = BUILTIN_LOG_FORMATS.fairgame.columns.join(';');
  const row = (max: string, played: string, s1: string, s2: string) =>
    `0;en;True;${max};${played};False;A;m;c;1.0;${s1};[];[];B;m;s;1.0;${s2};[];[];stag-hunt;True;conventional`;
  it('FAIRGAME: an empty strategy list, played_rounds other than the list length, more rounds than max_rounds are refused', () => {
    expect(message(() => read(file('fg-empty.csv', `${cols}\n${row('0', '0', '[]', '[]')}\n`), 'fairgame')))
      .toBe('fg-empty.csv:2: field "agent1_strategies": an empty list: a match of no rounds');
    expect(message(() => read(file('fg-played.csv', `${cols}\n${row('3', '3', "['OptionA', 'OptionB']", "['OptionA', 'OptionA']")}\n`), 'fairgame')))
      .toBe('fg-played.csv:2: field "played_rounds": the match says it played 3 rounds but the log holds 2');
    expect(message(() => read(file('fg-max.csv', `${cols}\n${row('1', '2', "['OptionA', 'OptionB']", "['OptionA', 'OptionA']")}\n`), 'fairgame')))
      .toBe('fg-max.csv:2: field "max_rounds": the match was to last at most 1 round but the log holds 2');
    // A match that stopped before max_rounds and says so (played_rounds) is complete: kept, no note.
    const early = read(file('fg-early.csv', `${cols}\n${row('3', '2', "['OptionA', 'OptionB']", "['OptionA', 'OptionA']")}\n${row('3', '3', "['OptionA', 'OptionB', 'OptionB']", "['OptionA', 'OptionA', 'OptionB']")}\n`), 'fairgame');
    expect(early.notes).toEqual([]);
    expect(early.decisions).toHaveLength(10);
  });
  it('a label map with no label for D (or for C) is refused when the description is read', () => {
    const text = `name: j\nshape: round\ncolumns: [round, p1, p2, a1, a2]\nmatch: consecutive\nround: { column: round }\ngame: { constant: g }\nframing: { constant: f }
seats:\n  - { model: { column: p1 }, opponent: { column: p2 }, action: a1 }\n  - { model: { column: p2 }, opponent: { column: p1 }, action: a2 }
actions:\n  labels: { g: { J: C, F: C } }\n`;
    expect(message(() => parseLogFormat(text, 'j.yaml'))).toBe('j.yaml:12: field "actions.labels.g": a label map needs a label for C and one for D (none is D): without it every decision would be the other action');
  });
});

describe('one line whatever a quoted value holds', () => {
  it('a newline in any field of an Akata row ends in a one-line error, the newline escaped or not echoed', () => {
    // The first row carries the newline; the second (round 3) breaks its match, so a message names the first.
    const fields = '1,a,b,J,J,8,8,8,8'.split(',');
    for (let i = 0; i < fields.length; i++) {
      const bad = fields.map((f, j) => (j === i ? `"${f}\nx"` : f)).join(',');
      const p = file(`nl-${i}.csv`, `${HEADER}${bad}\n3,a,b,J,J,8,8,8,8\n`);
      const m = message(() => read(p, 'akata'));
      expect(m.split('\n'), m).toHaveLength(1);
    }
  });
});

describe('through the CLI', () => {
  it('an ESC in a log player name: one line, exit 2, nothing written (it never reaches the figures)', async () => {
    const p = file('esc.csv', HEADER + match2('a\u001b[31m', 'b') + match2('c', 'b'));
    const out = join(dir, 'esc-out');
    const r = await runCli(['analyze', '--trials', p, '--format', 'akata', '--out', out, '--reps', '20']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/esc\.csv:2: field "player1": contains the control character U\+001B/);
    expect(existsSync(out)).toBe(false);
  });
  it('--short-matches is drop or keep', async () => {
    const p = file('ok.csv', HEADER + match2('a', 'b'));
    const r = await runCli(['analyze', '--trials', p, '--format', 'akata', '--short-matches', 'maybe', '--out', join(dir, 'sm')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--short-matches: "maybe" is not drop or keep/);
  });
});
