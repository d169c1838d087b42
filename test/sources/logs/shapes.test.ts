/**
 * Hand-written logs in each shape (per decision, per round, per match with list columns, several
 * files), each with its decisions written out by hand; decoding by payoffs with letters that
 * change per file; rows that fit no rule refused with file:line:field.
 */
import { mkdtempSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { parseLogFormat, parseRoundRange, readLogDecisions, resolveLogFormat, BUILTIN_LOG_FORMATS, type LogFormat } from '../../../src/sources/logs/index.js';
import { ROOT, runCli } from '../../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-logs-'));
const file = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };
const message = (f: () => unknown) => { try { f(); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; } throw new Error('no error'); };
/** Decisions without provenance, as tuples: [model, opponent, game, framing, match, round, seat, action, opponentAction]. */
const tuples = (files: string[], format: string | LogFormat, names = files) =>
  readLogDecisions(files, format, { displayPaths: names, shortMatches: 'keep' }).decisions
    .map((d) => [d.model, d.opponent, d.game, d.framing, d.match, d.round, d.seat, d.action, d.opponentAction]);

const perDecision = parseLogFormat(`
name: per-decision
shape: decision
columns: [id, player, against, round, seat, move, world]
match: { column: id }
round: { column: round }
game: { constant: stag-hunt }
framing: { column: world }
seats:
  - { model: { column: player }, opponent: { column: against }, action: move, seat: { column: seat } }
actions:
  labels: { stag-hunt: { stag: C, hare: D, none: invalid } }
`, 'per-decision.yaml');

describe('one row per decision', () => {
  it('pairs the two seats of a round for the other move; an invalid label keeps the round without an action', () => {
    const p = file('dec.csv', 'id,player,against,round,seat,move,world\n'
      + 'm1,A,B,1,1,stag,w\nm1,B,A,1,2,hare,w\nm1,A,B,2,1,hare,w\nm1,B,A,2,2,none,w\nm2,A,X,1,1,stag,v\n');
    expect(tuples([p], perDecision, ['dec.csv'])).toEqual([
      ['A', 'B', 'stag-hunt', 'w', 'dec.csv#m1', 1, 1, 'C', 'D'],
      ['B', 'A', 'stag-hunt', 'w', 'dec.csv#m1', 1, 2, 'D', 'C'],
      ['A', 'B', 'stag-hunt', 'w', 'dec.csv#m1', 2, 1, 'D', null],
      ['B', 'A', 'stag-hunt', 'w', 'dec.csv#m1', 2, 2, null, 'D'],
      ['A', 'X', 'stag-hunt', 'v', 'dec.csv#m2', 1, 1, 'C', null],
    ]);
    const d = readLogDecisions([p], perDecision, { displayPaths: ['dec.csv'], shortMatches: 'keep' }).decisions[1];
    expect(d.provenance).toEqual({ file: 'dec.csv', line: 3, label: 'hare' });
  });
  it('a label outside the map, a repeated (match, round, seat) and a match value reused by another pair are refused', () => {
    const bad = file('dec-bad.csv', 'id,player,against,round,seat,move,world\nm1,A,B,1,1,deer,w\n');
    expect(message(() => tuples([bad], perDecision, ['d.csv']))).toBe('d.csv:2: field "move": label "deer" is not an action of "stag-hunt" (known: "stag", "hare", "none")');
    const dup = file('dec-dup.csv', 'id,player,against,round,seat,move,world\nm1,A,B,1,1,stag,w\nm1,A,B,1,1,hare,w\n');
    expect(message(() => tuples([dup], perDecision, ['d.csv']))).toBe('d.csv:3: field "round": match "m1", round 1, seat 1 is already given on line 2');
    const reused = file('dec-reuse.csv', 'id,player,against,round,seat,move,world\nm1,A,B,1,1,stag,w\nm1,A,C,2,1,hare,w\n');
    expect(message(() => tuples([reused], perDecision, ['d.csv'])))
      .toBe('d.csv:3: field "match": match "m1" was A against B, stag-hunt, w on line 2 and is A against C, stag-hunt, w here: the match value repeats across configurations');
  });
});

const perRound = parseLogFormat(`
name: per-round
shape: round
columns: [round, p1, p2, a1, a2, x1, x2]
match: consecutive
round: { column: round }
game: { constant: prisoners-dilemma }
framing: { file_stem: true }
seats:
  - { model: { column: p1 }, opponent: { column: p2 }, action: a1, payoff: x1 }
  - { model: { column: p2 }, opponent: { column: p1 }, action: a2, payoff: x2 }
actions:
  payoffs: { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } }
`, 'per-round.yaml');

describe('one row per round, one column set per seat, actions decoded from the payoffs', () => {
  const header = 'round,p1,p2,a1,a2,x1,x2\n';
  it('consecutive rows of one pair counting up from 1 are one match; the letters change per file, the payoffs say which is which', () => {
    // In one.csv J is cooperation; in two.csv the letters are swapped (F is cooperation).
    const one = file('one.csv', `${header}1,A,B,J,F,0,5\n2,A,B,F,F,1,1\n1,A,B,J,J,3,3\n`);
    const two = file('two.csv', `${header}1,B,A,F,J,0,5\n2,B,A,J,J,1,1\n`);
    expect(tuples([one, two], perRound, ['one.csv', 'two.csv'])).toEqual([
      ['A', 'B', 'prisoners-dilemma', 'one', 'one.csv:2', 1, 1, 'C', 'D'],
      ['B', 'A', 'prisoners-dilemma', 'one', 'one.csv:2', 1, 2, 'D', 'C'],
      ['A', 'B', 'prisoners-dilemma', 'one', 'one.csv:2', 2, 1, 'D', 'D'],
      ['B', 'A', 'prisoners-dilemma', 'one', 'one.csv:2', 2, 2, 'D', 'D'],
      ['A', 'B', 'prisoners-dilemma', 'one', 'one.csv:4', 1, 1, 'C', 'C'],
      ['B', 'A', 'prisoners-dilemma', 'one', 'one.csv:4', 1, 2, 'C', 'C'],
      ['B', 'A', 'prisoners-dilemma', 'two', 'two.csv:2', 1, 1, 'C', 'D'],
      ['A', 'B', 'prisoners-dilemma', 'two', 'two.csv:2', 1, 2, 'D', 'C'],
      ['B', 'A', 'prisoners-dilemma', 'two', 'two.csv:2', 2, 1, 'D', 'D'],
      ['A', 'B', 'prisoners-dilemma', 'two', 'two.csv:2', 2, 2, 'D', 'D'],
    ]);
    const labels = readLogDecisions([one, two], perRound, { displayPaths: ['one.csv', 'two.csv'], shortMatches: 'keep' }).decisions
      .map((d) => `${d.provenance!.file}:${d.provenance!.label}=${d.action}`);
    expect([...new Set(labels)]).toEqual(['one.csv:J=C', 'one.csv:F=D', 'two.csv:F=C', 'two.csv:J=D']);
  });
  it('a row whose payoffs fit no cell of the matrix is refused with file:line:field', () => {
    const p = file('nofit.csv', `${header}1,A,B,J,J,3,3\n2,A,B,J,F,3,5\n`);
    expect(message(() => tuples([p], perRound, ['nofit.csv'])))
      .toBe('nofit.csv:3: field "x1": payoffs (3, 5) fit no cell of the declared payoff matrix (CC 3/3, CD 0/5, DC 5/0, DD 1/1): the log contradicts its game');
  });
  it('a letter whose meaning changes within one file is refused', () => {
    const p = file('flip.csv', `${header}1,A,B,J,J,3,3\n2,A,B,J,F,1,1\n`);
    expect(message(() => tuples([p], perRound, ['flip.csv'])))
      .toBe('flip.csv:3: field "a1": label "J" decodes as D here but as C on line 2 (labels must keep their meaning within a file)');
  });
  it('a round that does not continue its pair\'s match is refused', () => {
    const p = file('gap.csv', `${header}1,A,B,J,J,3,3\n3,A,B,J,J,3,3\n`);
    expect(message(() => tuples([p], perRound, ['gap.csv']))).toMatch(/^gap\.csv:3: field "round": round 3 does not continue a match \(expected round 1, or round 2 of A against B, prisoners-dilemma, gap begun on line 2\)/);
    const other = file('pair.csv', `${header}1,A,B,J,J,3,3\n2,A,C,J,J,3,3\n`);
    expect(message(() => tuples([other], perRound, ['pair.csv']))).toMatch(/^pair\.csv:3: field "round": round 2 does not continue a match/);
  });
  it('a payoff that is not a number, a missing column', () => {
    const p = file('nan.csv', `${header}1,A,B,J,J,three,3\n`);
    expect(message(() => tuples([p], perRound, ['nan.csv']))).toBe('nan.csv:2: field "x1": "three" is not a number');
    const q = file('nocol.csv', 'round,p1,p2,a1,a2,x1\n1,A,B,J,J,3\n');
    expect(message(() => tuples([q], perRound, ['nocol.csv']))).toBe('nocol.csv:1: field "x2": the header has no such column (format per-round needs "x2"); the header has "round", "p1", "p2", "a1", "a2", "x1"');
  });
});

describe('one row per match with list columns (the fairgame format)', () => {
  const cols = 'game_id;language;n_rounds_is_known;max_rounds;played_rounds;agents_communicate;agent1_name;agent1_llm;agent1_personality;agent1_knows_opponent_with_prob;agent1_strategies;agent1_scores;agent1_messages;agent2_name;agent2_llm;agent2_personality;agent2_knows_opponent_with_prob;agent2_strategies;agent2_scores;agent2_messages;game;known;payoff_type';
  const row = (id: string, lang: string, p1: string, s1: string, p2: string, s2: string, game: string, payoff: string) =>
    `${id};${lang};True;${s1.split(",").length};${s1.split(",").length};False;Alice;gpt-4o;${p1};1.0;${s1};[1, 2, 3];[];Bob;gpt-4o;${p2};1.0;${s2};[3, 2, 1];[];${game};True;${payoff}`;
  it('the row is the match (game_id repeats), OptionB is C in the Prisoner\'s Dilemma, OptionA elsewhere; battle-sexes is left out with a note', () => {
    const p = file('all_results.csv', [cols,
      row('0', 'en', 'cooperative', "['OptionB', 'OptionA', 'OptionB']", 'selfish', "['OptionA', 'OptionA', 'OptionB']", 'prisoner-dilemma', 'harsh'),
      row('0', 'fr', 'selfish', '["OptionA", "OptionB"]', 'selfish', "['OptionA', 'OptionA']", 'stag-hunt', 'conventional'),
      row('0', 'en', 'selfish', "['OptionA']", 'selfish', "['OptionA']", 'battle-sexes', 'mild'),
    ].join('\n') + '\n');
    const r = readLogDecisions([p], 'fairgame', { displayPaths: ['all_results.csv'] });
    expect(r.decisions.map((d) => [d.model, d.game, d.framing, d.match, d.round, d.seat, d.action, d.opponentAction, d.factors?.personality, d.factors?.n_rounds_is_known])).toEqual([
      ['gpt-4o', 'prisoner-dilemma (harsh)', 'en', 'all_results.csv:2', 1, 1, 'C', 'D', 'cooperative-selfish', 'True'],
      ['gpt-4o', 'prisoner-dilemma (harsh)', 'en', 'all_results.csv:2', 1, 2, 'D', 'C', 'selfish-cooperative', 'True'],
      ['gpt-4o', 'prisoner-dilemma (harsh)', 'en', 'all_results.csv:2', 2, 1, 'D', 'D', 'cooperative-selfish', 'True'],
      ['gpt-4o', 'prisoner-dilemma (harsh)', 'en', 'all_results.csv:2', 2, 2, 'D', 'D', 'selfish-cooperative', 'True'],
      ['gpt-4o', 'prisoner-dilemma (harsh)', 'en', 'all_results.csv:2', 3, 1, 'C', 'C', 'cooperative-selfish', 'True'],
      ['gpt-4o', 'prisoner-dilemma (harsh)', 'en', 'all_results.csv:2', 3, 2, 'C', 'C', 'selfish-cooperative', 'True'],
      ['gpt-4o', 'stag-hunt', 'fr', 'all_results.csv:3', 1, 1, 'C', 'C', 'selfish-selfish', 'True'],
      ['gpt-4o', 'stag-hunt', 'fr', 'all_results.csv:3', 1, 2, 'C', 'C', 'selfish-selfish', 'True'],
      ['gpt-4o', 'stag-hunt', 'fr', 'all_results.csv:3', 2, 1, 'D', 'C', 'selfish-selfish', 'True'],
      ['gpt-4o', 'stag-hunt', 'fr', 'all_results.csv:3', 2, 2, 'C', 'D', 'selfish-selfish', 'True'],
    ]);
    expect(r.notes).toEqual(['all_results.csv: battle-sexes: 1 row left out (Battle of the Sexes has no cooperative action)']);
    expect(r.decisions[2].provenance).toEqual({ file: 'all_results.csv', line: 2, label: 'OptionA' });
  });
  it('lists of different lengths, an unknown payoff type and a game without a label map are refused', () => {
    const p = file('len.csv', `${cols}\n${row('0', 'en', 'a', "['OptionA']", 'b', "['OptionA', 'OptionB']", 'stag-hunt', 'mild')}\n`);
    expect(message(() => readLogDecisions([p], 'fairgame', { displayPaths: ['len.csv'] })))
      .toBe('len.csv:2: field "agent2_strategies": 2 entries, but "agent1_strategies" has 1 (one entry per round)');
    const q = file('pt.csv', `${cols}\n${row('0', 'en', 'a', "['OptionA']", 'b', "['OptionA']", 'stag-hunt', 'extreme')}\n`);
    expect(message(() => readLogDecisions([q], 'fairgame', { displayPaths: ['pt.csv'] })))
      .toBe('pt.csv:2: field "payoff_type": "extreme" is not one of "conventional", "harsh", "mild"');
    const g = file('g.csv', `${cols}\n${row('0', 'en', 'a', "['OptionA']", 'b', "['OptionA']", 'chicken', 'mild')}\n`);
    expect(message(() => readLogDecisions([g], 'fairgame', { displayPaths: ['g.csv'] })))
      .toMatch(/^g\.csv:2: field "game": "chicken" has no label map in the format/);
  });
});

describe('several files and --models', () => {
  it('files are read in order, the same file twice is refused, --models keeps the named players', () => {
    const header = 'round,p1,p2,a1,a2,x1,x2\n';
    const a = file('a.csv', `${header}1,A,B,J,J,3,3\n`);
    const b = file('b.csv', `${header}1,C,A,J,J,3,3\n`);
    expect(tuples([b, a], perRound, ['b.csv', 'a.csv']).map((t) => `${t[3]}:${t[0]}`)).toEqual(['b:C', 'b:A', 'a:A', 'a:B']);
    expect(message(() => readLogDecisions([a, a], perRound, { displayPaths: ['a.csv', 'a.csv'] }))).toBe('--trials "a.csv" is given twice');
    expect(readLogDecisions([a, b], perRound, { models: ['A'] }).decisions.map((d) => d.model)).toEqual(['A', 'A']);
    expect(message(() => readLogDecisions([a], perRound, { models: ['Z'] }))).toBe('--models: "Z" is not a player of the log (players: "A", "B")');
  });
});

describe('--format and --rounds', () => {
  it('a built-in name, a description file, or a message listing the built-ins', () => {
    expect(resolveLogFormat('akata')).toBe(BUILTIN_LOG_FORMATS.akata);
    const p = file('mine.yaml', 'name: mine\nshape: round\ncolumns: [r, a, b, x, y]\nmatch: consecutive\nround: { column: r }\ngame: { constant: g }\n'
      + 'framing: { file_stem: true }\nseats:\n  - { model: { column: a }, opponent: { column: b }, action: x }\n  - { model: { column: b }, opponent: { column: a }, action: y }\n'
      + 'actions: { labels: { g: { c: C, d: D } } }\n');
    const f = resolveLogFormat(p);
    expect(f.name).toBe('mine');
    const log = file('log.csv', 'r,a,b,x,y\n1,P,Q,c,d\n2,P,Q,d,d\n');
    expect(tuples([log], f, ['log.csv'])).toEqual([
      ['P', 'Q', 'g', 'log', 'log.csv:2', 1, 1, 'C', 'D'], ['Q', 'P', 'g', 'log', 'log.csv:2', 1, 2, 'D', 'C'],
      ['P', 'Q', 'g', 'log', 'log.csv:2', 2, 1, 'D', 'D'], ['Q', 'P', 'g', 'log', 'log.csv:2', 2, 2, 'D', 'D'],
    ]);
    expect(message(() => resolveLogFormat('fairgam'))).toBe('--format: "fairgam" is neither a built-in log format (akata, fairgame) nor a description file (.yaml, .yml)');
  });
  it('rounds: one round or a range', () => {
    expect(parseRoundRange('1')).toEqual({ from: 1, to: 1 });
    expect(parseRoundRange('2-5')).toEqual({ from: 2, to: 5 });
    for (const bad of ['0', '3-1', 'x', '1-', '']) expect(message(() => parseRoundRange(bad))).toBe(`--rounds: ${JSON.stringify(bad)} is not a round or a range of rounds (1, 1-3)`);
  });
});

/**
 * Published logs held to the contract the other readers keep: the name rule (README "Names") for
 * every model, opponent, game, framing and factor level a format makes — reserved names, control
 * characters, the length limit, empty names, invalid UTF-8 —, the constants of a description
 * likewise; a log that contradicts itself refused naming the line (a repeated row, running totals
 * that are not the sum of the points, FAIRGAME lists against played_rounds/max_rounds, an empty
 * list, a label map without D), a short match warned and left out unless kept; and every error
 * one line whatever a quoted value holds.
 */
describe('published logs held to the contract of the readers', () => {
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
      expect(kept.notes!.some((n) => n.includes('kept (--short-matches keep)'))).toBe(true);
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
});
