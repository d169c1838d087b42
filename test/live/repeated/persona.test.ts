/**
 * Personas of a repeated design: each seat's persona is sent as the system message and stored as
 * the decision factor `persona` = own-other ids ("none": no persona, or a fixed strategy), read
 * back from the store, and `analyze --factor persona` keeps it in the cells (a column after
 * `opponent` in cells.csv, rounds.csv and reactions.csv).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeRepeated } from '../../../src/commands/pipeline/repeated.js';
import { RUN_KINDS } from '../../../src/commands/pipeline/store-kinds.js';
import { UserError } from '../../../src/core/errors.js';
import { parseDesign } from '../../../src/live/design/design.js';
import { ProviderPool } from '../../../src/live/providers/registry.js';
import { runMatches } from '../../../src/live/repeated/engine.js';
import { prepareSession } from '../../../src/live/runner/session.js';
import { TrialStore } from '../../../src/live/store/store.js';
import type { ModelSpec, Provider, ProviderRequest } from '../../../src/live/types.js';
import { readRepeatedStore } from '../../../src/sources/repeated-store.js';
import { runCli } from '../../helpers/cli.js';
import { writeOutputs } from '../../../src/commands/pipeline/write.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-persona-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SELFISH = 'You care only about your own points.';
const DESIGN = `name: personas
synthetic: true
models:
  - { id: A, provider: simulated, options: { intercept: 0.3, reciprocity: 2 } }
games: [prisoners-dilemma]
framings: [{ id: jf, family: label-perturbation, labels: [J, F] }]
trials: 3
decoding: { seed: 5 }
play:
  rounds: 3
  opponents: [self, tit-for-tat]
  personas:
    1: { id: cooperative, text: You want both players to do well. }
    2: ${SELFISH}
`;

describe('personas as a stored factor', () => {
  it('stores own-other persona ids per seat, reads them back, and --factor persona splits the cells', async () => {
    const session = prepareSession(parseDesign(DESIGN, 'personas.yaml'), {});
    const path = join(dir, 'personas.sqlite');
    const store = TrialStore.open(path);
    const { run } = store.openRun({ name: 'personas', hash: session.hash, json: session.json, toolVersion: '0', started: 'x' });
    const systems = new Map<string, string | undefined>();
    const pool = new ProviderPool();
    const providers = { get: (m: ModelSpec): Provider => ({ id: 'w', complete: (req: ProviderRequest) => {
      systems.set(`${req.spec.play!.match}:${req.spec.play!.round}:${req.spec.play!.seat}`, req.spec.system);
      return pool.get(m).complete(req);
    } }) };
    const r = await runMatches({ store, runId: run.id, design: session.design, providers, concurrency: 2, stop: new AbortController().signal });
    store.close();
    // By hand: self 3 matches × 3 rounds × 2 seats + tit-for-tat 3 × 3 × 1 = 27 decisions.
    expect(r.total).toBe(27);

    const selfish = `p${createHash('sha256').update(SELFISH).digest('hex').slice(0, 8)}`;
    const d = readRepeatedStore(path);
    expect(d.decisions).toHaveLength(27);
    const want = (x: { opponent: string; seat: number }) => (x.opponent === 'tit-for-tat' ? 'cooperative-none' : x.seat === 1 ? `cooperative-${selfish}` : `${selfish}-cooperative`);
    for (const x of d.decisions) {
      expect(x.factors?.persona).toBe(want(x));
      expect(systems.get(`${x.match}:${x.round}:${x.seat}`)).toBe(x.seat === 1 ? 'You want both players to do well.' : SELFISH);
    }

    const res = await analyzeRepeated(d, { reps: 50, factors: ['persona'], out: join(dir, 'out') });
    writeOutputs(res.files);
    const lines = (f: string) => readFileSync(join(dir, 'out', 'reports', f), 'utf8').trimEnd().split('\n');
    expect(lines('cells.csv')[0]).toBe('model,game,framing,opponent,persona,matches,decisions,cooperation,lo,hi,df,note');
    expect(lines('rounds.csv')[0]).toBe('model,game,framing,opponent,persona,round,n,cooperation,lo,hi,df');
    expect(lines('reactions.csv')[0]).toBe('model,game,framing,opponent,persona,previous,n,p_cooperate,lo,hi,df');
    // Cells: (A, self) split by the seat's persona into two, (A, tit-for-tat) one; counted straight from the decisions.
    const count = (persona: string, opponent: string) => {
      const ds = d.decisions.filter((x) => x.factors?.persona === persona && x.opponent === opponent && x.action !== null);
      return `${ds.length},${(ds.filter((x) => x.action === 'C').length / ds.length).toFixed(6)}`;
    };
    const rows = lines('cells.csv').slice(1).map((l) => l.split(',')).map((c) => `${c[3]},${c[4]},${c[5]},${c[6]},${Number(c[7]).toFixed(6)}`).sort();
    expect(rows).toEqual([
      `self,${`cooperative-${selfish}`},3,${count(`cooperative-${selfish}`, 'A')}`, // cells.csv writes self-play `self`
      `self,${`${selfish}-cooperative`},3,${count(`${selfish}-cooperative`, 'A')}`,
      `tit-for-tat,cooperative-none,3,${count('cooperative-none', 'tit-for-tat')}`,
    ].sort());
    expect(lines('rounds.csv')).toHaveLength(1 + 3 * 3);
    expect(res.command).toContain('--factor persona');
    // A factor no decision has: one line naming the factors there are.
    await expect(analyzeRepeated(d, { reps: 50, factors: ['language'] })).rejects.toThrow(UserError);
    await expect(analyzeRepeated(d, { reps: 50, factors: ['language'] })).rejects.toThrow(/--factor language: no decision has a factor of that name \(its decisions have: persona\)/);

    // The CLI: analyze STORE --factor persona
    const cli = await runCli(['analyze', path, '--factor', 'persona', '--reps', '50', '--out', join(dir, 'cli')]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(readFileSync(join(dir, 'cli', 'reports', 'cells.csv'), 'utf8').split('\n')[0]).toBe('model,game,framing,opponent,persona,matches,decisions,cooperation,lo,hi,df,note');
  }, 60_000);

  it('a persona id with "-" (the pair\'s separator) is refused where the design says it; --factor on a one-shot run is refused', () => {
    expect(() => parseDesign(DESIGN.replace('id: cooperative', 'id: co-op'), 'personas.yaml')).toThrow(/personas\.yaml:\d+: .*no "-": the stored pair is own-other/);
    const run = { kind: 'one-shot', source: {}, facts: {} } as unknown as Parameters<typeof RUN_KINDS['one-shot']['analyze']>[0];
    expect(() => RUN_KINDS['one-shot'].analyze(run, { store: 'one.sqlite', factors: ['persona'] }))
      .toThrow('one.sqlite: --factor keeps a decision factor of repeated play (a play design or --trials logs); a one-shot run\'s factors are its cells already');
  });
});
