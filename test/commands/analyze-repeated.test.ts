import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeRepeated, repeatedTables } from '../../src/commands/pipeline/repeated.js';
import { RUN_KINDS } from '../../src/commands/analyze.js';
import { readStoredRun } from '../../src/commands/pipeline/store-kinds.js';
import { isRepeatedRun } from '../../src/sources/store.js';
import { UserError } from '../../src/core/errors.js';
import { generateDecisions } from '../helpers/repeated-decisions.js';
import { writeOutputs } from '../../src/commands/pipeline/write.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-repeated-'));
const csvLines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

describe('analyzeRepeated: the outputs of repeated play as one atomic set', () => {
  it('one framing: cells, rounds, reactions, end game, repeated.json, figures and the report; no two-framing tables', async () => {
    const dir = tmp();
    const input = { ...generateDecisions({ framings: ['business'], matches: 3, rounds: 4 }), path: join(dir, 'run.sqlite') };
    const res = await analyzeRepeated(input, { reps: 100 });
    writeOutputs(res.files);
    expect(res.twoFraming).toBeUndefined();
    expect(readdirSync(join(dir, 'run', 'reports')).sort()).toEqual(['cells.csv', 'cells.tex', 'endgame.csv', 'endgame.tex', 'models.csv', 'models.tex', 'reactions.csv', 'reactions.tex', 'repeated.json', 'report.html', 'rounds.csv']);
    expect(readdirSync(join(dir, 'run', 'figures')).sort()).toEqual(['repeated-reactions.png', 'repeated-reactions.svg', 'repeated-reactions.vl.json', 'repeated-rounds.png', 'repeated-rounds.svg', 'repeated-rounds.vl.json']);
    const reports = join(dir, 'run', 'reports');
    expect(csvLines(join(reports, 'cells.csv'))[0]).toBe('model,game,framing,opponent,matches,decisions,cooperation,lo,hi,df,note');
    expect(csvLines(join(reports, 'rounds.csv'))[0]).toBe('model,game,framing,opponent,round,n,cooperation,lo,hi,df');
    expect(csvLines(join(reports, 'reactions.csv'))[0]).toBe('model,game,framing,opponent,previous,n,p_cooperate,lo,hi,df');
    // 2 models × 3 opponents: 6 cells, 4 rounds each, 4 previous rounds each
    expect(csvLines(join(reports, 'cells.csv'))).toHaveLength(1 + 6);
    expect(csvLines(join(reports, 'rounds.csv'))).toHaveLength(1 + 6 * 4);
    expect(csvLines(join(reports, 'reactions.csv'))).toHaveLength(1 + 6 * 4);
    const json = JSON.parse(readFileSync(join(reports, 'repeated.json'), 'utf8')) as { command: string; settings: { cluster: string } };
    expect(json.settings.cluster).toBe('match');
    expect(json.command).toBe(`samegame analyze ${input.path} --seed 20240818 --reps 100`);
  });

  it('two framings with --rounds 1: Table 2 counts the first rounds only, each opponent a game, and every check passes', () => {
    const dir = tmp();
    const input = { ...generateDecisions({ matches: 5, rounds: 6 }), path: join(dir, 'run.sqlite') };
    const res = repeatedTables(input, { reps: 100, rounds: { from: 1, to: 1 } });
    const t = res.twoFraming!;
    expect(t.verification.passed).toBe(true);
    const table2 = res.files.find((f) => f.path.endsWith('table2.csv'))!.content as string;
    const lines = table2.trimEnd().split('\n');
    // generated decisions are synthetic: the table says so in its last column, on every row
    expect(lines[0]).toBe('model,game,base_rate,base_count,alt_rate,alt_count,difference,synthetic');
    expect(lines.slice(1).every((l) => l.endsWith(',true'))).toBe(true);
    // the rows: model × opponent (self folded as "self"); counts = cooperations in round 1, by hand from the decisions
    const firstC = (model: string, framing: string, opponent: string) => input.decisions.filter((d) => d.round === 1 && d.model === model && d.framing === framing
      && (opponent === 'self' ? d.opponent === model : d.opponent === opponent) && d.action === 'C').length;
    const want = ['model-a', 'model-bb'].flatMap((m) => ['self', 'always-defect', 'tit-for-tat'].map((o) => `${m},prisoners-dilemma [opponent=${o}],${firstC(m, 'business', o)},${firstC(m, 'friend-sharing', o)}`));
    expect(lines.slice(1).map((l) => { const c = l.split(','); return `${c[0]},${c[1]},${c[3]},${c[5]}`; })).toEqual(want);
    expect(res.command).toContain('--rounds 1');
    expect(existsSync(join(dir, 'run'))).toBe(false);
  });

  it('a model–opponent without its alternative framing is refused in one line, nothing written', async () => {
    const dir = tmp();
    const all = generateDecisions({ matches: 2, rounds: 3 });
    const decisions = all.decisions.filter((d) => !(d.model === 'model-bb' && d.framing === 'friend-sharing' && d.opponent === 'tit-for-tat'));
    const run = analyzeRepeated({ ...all, decisions, path: join(dir, 'run.sqlite') }, { reps: 50 });
    await expect(run).rejects.toThrow(UserError);
    await expect(run).rejects.toThrow(/model "model-bb", game "prisoners-dilemma \[opponent=tit-for-tat\]" has no valid "friend-sharing" trials/);
    expect(existsSync(join(dir, 'run'))).toBe(false);
  });

  it('analyze reaches the analysis by run kind; a stored repeated run (a play block) is that kind', () => {
    expect(Object.keys(RUN_KINDS).sort()).toEqual(['enrichment', 'one-shot', 'repeated']);
    expect(Object.values(RUN_KINDS).map((k) => k.design)).toEqual(['two-framing', 'context-enrichment', 'repeated']);
    expect(isRepeatedRun({ designJson: JSON.stringify({ play: { rounds: 10 } }) } as never)).toBe(true);
    expect(isRepeatedRun({ designJson: JSON.stringify({ models: [] }) } as never)).toBe(false);
    // The store is read once, its decisions with its kind (readStoredRun): a missing store is one line naming it.
    expect(() => readStoredRun({ store: 'x.sqlite' })).toThrow(/x\.sqlite/);
  });
});
