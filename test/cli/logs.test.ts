/**
 * `--trials FILE --format NAME` at the command line: two published logs as two framings through
 * reproduce; a row whose payoffs fit no cell refused (exit 2, nothing written); a log given
 * without --format named by its format; the audit where its independence assumption holds
 * (--rounds 1, one decision per match and cell); analyze --trials reading the log.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

interface HandRow { readonly model: string; readonly opponent: string; readonly n: number; readonly rate: number; readonly matches?: number; readonly round?: number; readonly previous?: string }
interface HandCounts { readonly cells: readonly (HandRow & { matches: number })[]; readonly rounds: readonly HandRow[]; readonly reactions: readonly HandRow[] }

const dir = mkdtempSync(join(tmpdir(), 'samegame-cli-logs-'));
const HEADER = 'round,player1,player2,answer1,answer2,points1,points2,total1,total2\n';
const write = (name: string, text: string) => { const p = join(dir, name); writeFileSync(p, text); return p; };
/** Rows of one 2-round match: [letter1, letter2, points1, points2] per round, with the running totals. */
const match = (p1: string, p2: string, rounds: Array<[string, string, number, number]>) =>
  { let t1 = 0, t2 = 0; return rounds.map(([a, b, x, y], i) => `${i + 1},${p1},${p2},${a},${b},${x},${y},${t1 += x},${t2 += y}\n`).join(''); };

// In one.csv J is cooperation; in two.csv the letters are swapped (F is cooperation), and X defects more.
const one = write('one.csv', HEADER
  + match('X', 'X', [['J', 'J', 8, 8], ['J', 'J', 8, 8]]) + match('X', 'Y', [['J', 'F', 0, 10], ['F', 'F', 5, 5]])
  + match('Y', 'X', [['J', 'J', 8, 8], ['J', 'F', 0, 10]]) + match('Y', 'Y', [['F', 'J', 10, 0], ['J', 'J', 8, 8]]));
const two = write('two.csv', HEADER
  + match('X', 'X', [['J', 'F', 10, 0], ['F', 'F', 8, 8]]) + match('X', 'Y', [['J', 'J', 5, 5], ['J', 'F', 10, 0]])
  + match('Y', 'X', [['F', 'F', 8, 8], ['F', 'J', 0, 10]]) + match('Y', 'Y', [['F', 'F', 8, 8], ['F', 'F', 8, 8]]));

describe('--trials FILE --format akata', () => {
  it('two logs are two framings (the files\' stems); the letters of each file are decoded from its points', async () => {
    const out = mkdtempSync(join(dir, 'out-'));
    const r = await runCli(['reproduce', '--trials', one, '--trials', two, '--format', 'akata', '--base', 'one', '--alt', 'two', '--reps', '100', '--out', out, '-q']);
    // one match per cell: Table 3 has no interval, and says so (docs/methods.md §8.4); nothing else on stderr
    expect(r.stderr).toMatch(/^warning: no interval: R\["X"\], shift\["X"\], .* rest on a cell of fewer than 3 matches\n$/);
    expect(r.code).toBe(0);
    const rows = readFileSync(join(out, 'reports', 'table2.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    // Hand count from the points (8/8 CC, 0/10 CD, 10/0 DC, 5/5 DD), both seats of every match: X against Y
    // 2 of 4 in one.csv and 1 of 4 in two.csv; X against itself 4 of 4 and 3 of 4; Y against itself 3 of 4 and 4 of 4.
    const cell = (model: string, opp: string) => rows.find((x) => x[0] === model && x[1] === `prisoners-dilemma [opponent=${opp}]`)!.slice(2, 6);
    expect(cell('X', 'Y')).toEqual(['0.5', '2', '0.25', '1']);
    expect(cell('X', 'self')).toEqual(['1', '4', '0.75', '3']);
    expect(cell('Y', 'self')).toEqual(['0.75', '3', '1', '4']);
    const metrics = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8'));
    expect(metrics.input).toMatchObject({ kind: 'Akata et al. round log, clustered by match', cells: 8, decisions: 32 });
    expect(metrics.command).toContain(`--trials ${one} --trials ${two} --format akata`);
  });

  it('a row whose points fit no cell of the matrix: file:line:field, exit 2, nothing written', async () => {
    const bad = write('bad.csv', HEADER + match('X', 'Y', [['J', 'J', 8, 8], ['J', 'F', 8, 10]]));
    const out = mkdtempSync(join(dir, 'out-'));
    const r = await runCli(['reproduce', '--trials', one, '--trials', bad, '--format', 'akata', '--base', 'one', '--alt', 'bad', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`samegame: ${bad}:3: field "points1": payoffs (8, 10) fit no cell of the declared payoff matrix (CC 8/8, CD 0/10, DC 10/0, DD 5/5): the log contradicts its game`);
    expect(existsSync(join(out, 'reports'))).toBe(false);
    expect(existsSync(join(out, 'figures'))).toBe(false);
  });

  it('a log given without --format is named by its format; --rounds needs --format', async () => {
    const r = await runCli(['reproduce', '--trials', 'data/akata-2023/experiment_pd.csv', '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('samegame: data/akata-2023/experiment_pd.csv: this looks like an Akata et al. round log: add --format akata');
    const s = await runCli(['reproduce', '--trials', one, '--rounds', '1', '--out', dir]);
    expect(s.stderr.trim()).toBe('samegame: --rounds applies to a log read through a log format: add --format NAME|DESCRIPTION.yaml');
    const t = await runCli(['reproduce', '--format', 'akata', '--out', dir]);
    expect(t.stderr.trim()).toBe('samegame: --format and --rounds apply to --trials FILE: give the log with --trials');
  });

  it('audit and coverage --rounds 1: one decision per match and cell, independent counts', async () => {
    // Only X against Y: one opponent per model (no opponent factor), and round 1 of each seat in its own cell.
    const a = write('pa.csv', HEADER + match('X', 'Y', [['J', 'F', 0, 10], ['F', 'F', 5, 5]]) + match('Y', 'X', [['J', 'J', 8, 8], ['F', 'J', 10, 0]])
      + match('X', 'Y', [['F', 'J', 10, 0], ['J', 'J', 8, 8]]));
    const b = write('pb.csv', HEADER + match('X', 'Y', [['J', 'J', 8, 8], ['J', 'J', 8, 8]]) + match('Y', 'X', [['F', 'J', 10, 0], ['J', 'J', 8, 8]]));
    const out = mkdtempSync(join(dir, 'out-'));
    const r = await runCli(['audit', '--trials', a, '--trials', b, '--format', 'akata', '--rounds', '1', '--base', 'pa', '--alt', 'pb',
      '--reps', '200', '--search-reps', '100', '--threads', '1', '--out', out, '-q']);
    expect(r.code).toBe(0);
    const audit = JSON.parse(readFileSync(join(out, 'reports', 'audit.json'), 'utf8'));
    expect(audit.input.kind).toBe('Akata et al. round log, rounds 1, one decision per match and cell (independent)');
    const without = await runCli(['audit', '--trials', a, '--trials', b, '--format', 'akata', '--base', 'pa', '--alt', 'pb', '--out', out]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('the audit needs counts of independent binary decisions');
    const cov = await runCli(['coverage', '--trials', a, '--trials', b, '--format', 'akata', '--rounds', '1', '--base', 'pa', '--alt', 'pb',
      '--sims', '3', '--reps', '50', '--out', out, '-q']);
    expect(cov.code).toBe(0);
    expect(readFileSync(join(out, 'reports', 'coverage.csv'), 'utf8')).toMatch(/^statistic,method,nominal,coverage/);
  });

  it('analyze --trials of the shipped log: cells, rounds and reactions equal the hand count (hand_counts.py)', async () => {
    const out = mkdtempSync(join(dir, 'akata-'));
    const r = await runCli(['analyze', '--trials', 'data/akata-2023/experiment_pd.csv', '--format', 'akata', '--out', out, '--reps', '200', '--players', 'all']); // every player, the fixed strategies too, as hand_counts.py counts them
    expect(r.code, r.stderr).toBe(0);
    const hand = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'akata-2023', 'hand_counts.json'), 'utf8')) as HandCounts;
    const csv = (name: string) => {
      const [head, ...rows] = readFileSync(join(out, 'reports', name), 'utf8').trim().split('\n').map((l) => l.split(','));
      return rows.map((row) => Object.fromEntries(head.map((h, i) => [h, row[i]])));
    };
    const expectRows = (got: Record<string, string>[], want: HandRow[], key: (x: Record<string, unknown>) => string, rate: string, n: string) => {
      const seen = new Map(got.filter((g) => Number(g[n]) > 0).map((g) => [key(g), g]));
      expect(seen.size).toBe(want.length);
      for (const w of want) {
        const g = seen.get(key(w as unknown as Record<string, unknown>));
        expect(g, key(w as unknown as Record<string, unknown>)).toBeDefined();
        expect(Number(g![n])).toBe(w.n);
        expect(Number(g![rate])).toBeCloseTo(w.rate, 12);
      }
    };
    // hand_counts.py names self-play by the model's own id; every table writes it `self` (docs/methods.md §21)
    const opp = (x: { model: string; opponent: string }) => (x.opponent === x.model ? 'self' : x.opponent);
    expectRows(csv('cells.csv'), hand.cells.map((x) => ({ ...x, opponent: opp(x) })), (x) => `${x.model}|${x.opponent}`, 'cooperation', 'decisions');
    for (const c of hand.cells) expect(Number(csv('cells.csv').find((g) => g.model === c.model && g.opponent === opp(c))!.matches)).toBe(c.matches);
    expectRows(csv('rounds.csv'), hand.rounds.map((x) => ({ ...x, opponent: opp(x) })), (x) => `${x.model}|${x.opponent}|${x.round}`, 'cooperation', 'n');
    expectRows(csv('reactions.csv'), hand.reactions.map((x) => ({ ...x, opponent: opp(x) })), (x) => `${x.model}|${x.opponent}|${x.previous}`, 'p_cooperate', 'n');
    expect(readFileSync(join(out, 'reports', 'report.html'), 'utf8')).toContain('<td>GPT-4</td>'); // the format's names: block
    // No interval from fewer than 3 matches (every cell of this log has 1 or 2), and no zero-width
    // interval for a rate strictly between 0 and 1 in any table (docs/methods.md §21)
    const cells = csv('cells.csv');
    for (const c of cells.filter((x) => Number(x.matches) < 3)) {
      expect([c.lo, c.hi], `${c.model} ${c.opponent}`).toEqual(['', '']);
      expect(c.note).toMatch(/^[12] match(es)?: no interval \(fewer than 3\); match values /);
    }
    expect(r.stdout).toContain('— (2 matches: 0.200, 0.200)');
    for (const [name, rate] of [['cells.csv', 'cooperation'], ['rounds.csv', 'cooperation'], ['reactions.csv', 'p_cooperate']] as const) {
      for (const row of csv(name)) {
        const p = Number(row[rate]);
        if (row.lo !== '' && p > 0 && p < 1) expect(Number(row.hi) - Number(row.lo), `${name} ${JSON.stringify(row)}`).toBeGreaterThan(0);
      }
    }
  });

  it('two framings where X meets X and Y but Y meets only X: the cells as played pass cell_count (6 of 6; the full cross would want 8)', async () => {
    const a = write('grid-a.csv', HEADER + match('X', 'X', [['J', 'J', 8, 8], ['J', 'F', 0, 10]]) + match('X', 'Y', [['J', 'F', 0, 10], ['F', 'F', 5, 5]]));
    const b = write('grid-b.csv', HEADER + match('X', 'X', [['F', 'F', 5, 5], ['J', 'J', 8, 8]]) + match('X', 'Y', [['J', 'J', 8, 8], ['F', 'J', 10, 0]]));
    const out = mkdtempSync(join(dir, 'grid-'));
    const r = await runCli(['reproduce', '--trials', a, '--trials', b, '--format', 'akata', '--base', 'grid-a', '--alt', 'grid-b', '--out', out, '--reps', '100']);
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(readFileSync(join(out, 'reports', 'verification.json'), 'utf8')) as { checks: { name: string; passed: boolean; value: string }[] };
    // Cells by hand: X against X, X against Y, Y against X, each in both framings.
    expect(v.checks.find((c) => c.name === 'cell_count')).toMatchObject({ passed: true, value: '6 cells, expected 6' });
  });

  it('analyze --trials --format fairgame --factor personality --factor n_rounds_is_known: the factors are columns after opponent', async () => {
    const cols = 'game_id;language;n_rounds_is_known;max_rounds;played_rounds;agents_communicate;agent1_name;agent1_llm;agent1_personality;agent1_knows_opponent_with_prob;agent1_strategies;agent1_scores;agent1_messages;agent2_name;agent2_llm;agent2_personality;agent2_knows_opponent_with_prob;agent2_strategies;agent2_scores;agent2_messages;game;known;payoff_type';
    const row = (p1: string, s1: string, p2: string, s2: string) =>
      `0;en;True;3;3;False;Alice;gpt-4o;${p1};1.0;${s1};[1, 2, 3];[];Bob;gpt-4o;${p2};1.0;${s2};[3, 2, 1];[];prisoner-dilemma;True;harsh`;
    // OptionB is C in the Prisoner's Dilemma.
    const log = write('all_results.csv', `${[cols,
      row('cooperative', "['OptionB', 'OptionA', 'OptionB']", 'selfish', "['OptionA', 'OptionA', 'OptionB']"),
      row('selfish', "['OptionA', 'OptionA', 'OptionA']", 'selfish', "['OptionB', 'OptionA', 'OptionA']"),
    ].join('\n')}\n`);
    const out = mkdtempSync(join(dir, 'fairgame-'));
    const r = await runCli(['analyze', '--trials', log, '--format', 'fairgame', '--factor', 'personality', '--factor', 'n_rounds_is_known', '--out', out, '--reps', '100']);
    expect(r.code, r.stderr).toBe(0);
    const [head, ...rows] = readFileSync(join(out, 'reports', 'cells.csv'), 'utf8').trim().split('\n');
    expect(head).toBe('model,game,framing,opponent,personality,n_rounds_is_known,matches,decisions,cooperation,lo,hi,df,note');
    // By hand: cooperative-selfish C D C (2/3), selfish-cooperative D D C (1/3), selfish-selfish D D D + C D D (1/6, one match).
    expect(rows.map((l) => l.split(',')).map((c) => `${c[4]},${c[5]},${c[6]},${c[7]},${Number(c[8]).toFixed(6)}`).sort()).toEqual([
      `cooperative-selfish,True,1,3,${(2 / 3).toFixed(6)}`, `selfish-cooperative,True,1,3,${(1 / 3).toFixed(6)}`, `selfish-selfish,True,1,6,${(1 / 6).toFixed(6)}`,
    ]);
    expect(readFileSync(join(out, 'reports', 'reactions.csv'), 'utf8').split('\n')[0]).toBe('model,game,framing,opponent,personality,n_rounds_is_known,previous,n,p_cooperate,lo,hi,df');
  });
});
