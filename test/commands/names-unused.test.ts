/**
 * An id of `--names FILE` or of a design's `names:` block that names nothing in the input is
 * warned of, once, with the file and line of the id, the nearest id and the ids the input has; the
 * analysis goes on (a names file shared across studies may hold ids of other inputs). Through the
 * library: `reproduce` on a rates file, `analyze` on a repeated run's store.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, reproduce, run } from '../../src/index.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { ROOT } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'samegame-names-unused-'));
const RATES = join(tmp, 'rates.csv');
const store = join(tmp, 'run.sqlite');

beforeAll(async () => {
  writeFileSync(RATES, 'model,game,framing,n,rate\nGPT-4,PD,business,100,0.2\nGPT-4,PD,friend-sharing,100,0.4\nact_llama,PD,business,100,0.3\nact_llama,PD,friend-sharing,100,0.5\n');
  const design = readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8')
    .replace(/^trials: 10$/m, 'trials: 2').replace(/rounds: 10/, 'rounds: 2')
    .replace(/opponents: \[.*\]/, 'opponents: [self, always-defect]')
    .replace(/^synthetic: true$/m, 'synthetic: true\nnames: { Sim-A: "Agent Alpha", SimB: "Agent Beta", always-defct: "All-D" }');
  writeFileSync(join(tmp, 'd.yaml'), design);
  runLogger = new MemoryLogger();
  await run({ design: join(tmp, 'd.yaml'), store, logger: runLogger });
}, 120_000);
let runLogger: MemoryLogger;

const reproduceWarnings = async (names: string) => {
  const file = join(tmp, `names-${Math.random().toString(36).slice(2)}.csv`);
  writeFileSync(file, names);
  const logger = new MemoryLogger();
  const r = await reproduce({ data: RATES, namesFile: file, reps: 50, out: tmp, dryRun: true, figures: false, logger });
  return { file, r, warnings: logger.warnings.filter((w) => w.includes('display name')) };
};

describe('display names that name nothing', () => {
  it('run: the design\'s block is checked where its lines are known, one warning per unused id', () => {
    const design = readFileSync(join(tmp, 'd.yaml'), 'utf8').split('\n');
    const line = design.findIndex((l) => l.startsWith('names:')) + 1;
    const warnings = runLogger.warnings.filter((w) => w.includes('display name'));
    expect(warnings.map((w) => w.slice(0, w.indexOf(' ignored')))).toEqual([
      `${join(tmp, 'd.yaml')}:${line}: display name for "SimB"`, `${join(tmp, 'd.yaml')}:${line}: display name for "always-defct"`]);
    expect(warnings[0]).toContain('of this design has that id; did you mean "Sim-B"?');
    expect(warnings[1]).toContain('did you mean "always-defect"?');
  });

  it('reproduce: one warning per unused id, with its line, the nearest id and the ids of the input; the used names apply', async () => {
    const { file, r, warnings } = await reproduceWarnings('id,name\nGPT4,GPT-4 (0613)\nact_llama,LLaMA\nact_claude,Claude\n');
    const ids = '(ids here: models "GPT-4", "act_llama"; game "PD"; framings "business", "friend-sharing")';
    expect(warnings).toEqual([
      `${file}:2: display name for "GPT4" ignored: no model, game or framing of this input has that id; did you mean "GPT-4"? ${ids}; a warning only, since names shared across studies may hold ids of other inputs`,
      `${file}:4: display name for "act_claude" ignored: no model, game or framing of this input has that id ${ids}; a warning only, since names shared across studies may hold ids of other inputs`,
    ]);
    expect(r.names?.map.act_llama).toBe('LLaMA');
  });

  it('reproduce: a names file whose every id is used warns of nothing', async () => {
    const { warnings } = await reproduceWarnings('id,name\nGPT-4,GPT-4 (0613)\nPD,Prisoner\'s Dilemma\nbusiness,Business\n');
    expect(warnings).toEqual([]);
  });

  it('analyze: the design\'s block and the file are checked, an id of both warned of once (the file\'s line)', async () => {
    const file = join(tmp, 'repeated-names.csv');
    writeFileSync(file, 'id,name\nSimB,Model B\nalways-defect,Always defect\n');
    const logger = new MemoryLogger();
    await analyze({ store, namesFile: file, reps: 50, out: join(tmp, 'a'), dryRun: true, figures: false, logger });
    const warnings = logger.warnings.filter((w) => w.includes('display name'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: display name for "SimB" ignored: .*; did you mean "Sim-B"\\? \\(ids here: models "Sim-A", "Sim-B"; game "akata-pd"; framing "akata-jf"; opponents "Sim-A", "always-defect", "Sim-B"\\)`));
    expect(warnings[1]).toMatch(/^.*run\.sqlite: run 1's design, names: block: display name for "always-defct" ignored: .*; did you mean "always-defect"\?/);
  });
});
