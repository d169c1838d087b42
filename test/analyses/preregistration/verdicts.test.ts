/**
 * The preregistration plan and verdicts: family-wise adjustment against R's p.adjust
 * (test/reference/preregistration/p_adjust.R → p_adjust.json), the plan parser on any text (one
 * line naming file, line and field, or a plan), and the deviations a sealed run reports.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { preregistration } from '../../../src/analyses/preregistration/index.js';
import { UserError } from '../../../src/core/errors.js';
import { analyze, init, preregister } from '../../../src/index.js';
import { TrialStore } from '../../../src/live/store/store.js';
import { prepareSession, runRow } from '../../../src/live/runner/session.js';
import { loadDesign } from '../../../src/live/design/design.js';

const REF = JSON.parse(readFileSync(join(__dirname, '../../reference/preregistration/p_adjust.json'), 'utf8')) as
  { p: number[]; holm: number[]; bonferroni: number[] }[];
const dir = mkdtempSync(join(tmpdir(), 'samegame-verdicts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('preregistration verdicts', () => {
  it('Holm and Bonferroni adjust as R\'s p.adjust does; none leaves p as it is', () => {
    for (const r of REF) {
      preregistration.adjustP(r.p, 'holm').forEach((v, i) => expect(v).toBeCloseTo(r.holm[i], 14));
      preregistration.adjustP(r.p, 'bonferroni').forEach((v, i) => expect(v).toBeCloseTo(r.bonferroni[i], 14));
      expect(preregistration.adjustP(r.p, 'none')).toEqual(r.p);
    }
  });

  it('any text is a plan or one line naming the file (and a line and field when it has them), never another error (property)', () => {
    const field = fc.constantFrom('design', 'analysis', 'alpha', 'correction', 'hypotheses', 'max_lost_rate', 'extra');
    const value = fc.oneof(fc.string(), fc.double(), fc.constantFrom('holm', 'shift', '{ base: a, alt: b }', '[1, 2]', '- id: h'));
    const doc = fc.oneof(fc.string(), fc.array(fc.tuple(field, value)).map((kv) => kv.map(([k, v]) => `${k}: ${v}`).join('\n')));
    fc.assert(fc.property(doc, (text) => {
      try {
        preregistration.parsePlan(text, 'p.yaml');
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        expect((e as UserError).message.startsWith('p.yaml')).toBe(true);
        expect((e as UserError).message).not.toContain('\n');
      }
    }), { numRuns: 300 });
  });

  it('deviations: trials lost beyond the stated rate and a model snapshot that changed are listed', async () => {
    const { file } = init({ name: 'dev', dir });
    const plan = join(dir, 'dev.plan.yaml');
    const store = join(dir, 'dev.sqlite');
    preregister({ plan, store });
    const session = prepareSession(loadDesign(file), {});
    const s = TrialStore.open(store);
    const { run } = s.openRun(runRow(session));
    // 15 of the 20 planned trials of each cell (60 of 80), the snapshot of the model changing half-way.
    session.specs.filter((spec) => spec.rep < 15).forEach((spec, i) => s.write({
      runId: run.id, model: spec.model.id, game: spec.game, framing: spec.framing, rep: spec.rep, factors: {}, prompt: spec.prompt, request: '{}',
      response: '{}', text: 'Help', action: i % 3 === 0 ? 'D' : 'C', pCooperate: null, scoring: null, modelSnapshot: i < 30 ? 'sim-1' : 'sim-2',
      inputTokens: 1, outputTokens: 1, latencyMs: 1, status: 'ok', error: null, attempts: 1,
    }));
    s.close();
    await analyze({ store, out: join(dir, 'dev-out'), figures: false });
    const md = readFileSync(join(dir, 'dev-out', 'reports', 'verdicts.md'), 'utf8');
    expect(md).toContain('- 20 of 80 planned trials lost and 0 invalid (25.0%), beyond the stated 5%');
    expect(md).toContain('- model Sim\'s snapshot changed during the run: sim-1, sim-2');
  });
});
