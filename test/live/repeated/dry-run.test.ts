/**
 * The batch dry run of a repeated design (`run --batch --dry-run`): every round its own files (one
 * per model), every pending decision one request, priced at the model's batch discount — the
 * synchronous estimate of the same decisions times (1 − discount).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../../src/live/design/design.js';
import { planRepeated, planRepeatedBatch } from '../../../src/live/repeated/dry-run.js';
import { prepareSession } from '../../../src/live/runner/session.js';
import type { TrialSpec } from '../../../src/live/types.js';
import { ROOT, runCli } from '../../helpers/cli.js';

const DESIGN = `name: rep-batch
models:
  - { id: A, provider: openai-chat, prices: { input: 2, output: 8 } }
  - { id: B, provider: openai-chat, prices: { input: 1, output: 4, batch_discount: 0.25 } }
games: [prisoners-dilemma]
framings: [{ id: jf, family: label-perturbation, labels: [J, F] }]
trials: 2
decoding: { max_tokens: 1 }
play:
  rounds: 3
  opponents: [B, always-defect]
`;

describe('repeated batch dry run', () => {
  it('files = rounds × models, one request per decision, cost at each model\'s batch discount', () => {
    const { design, prices } = prepareSession(parseDesign(DESIGN, 'rep-batch.yaml'), {});
    const b = planRepeatedBatch(design, [], new Set(), prices);
    // Matches: A–B ×2 (both seats LLM), A–always-defect ×2, B–always-defect ×2 (B against B is self,
    // not listed): decisions = 3 rounds × (2·2 + 2 + 2) = 24; each round holds both models: 3 × 2 files.
    expect([b.matches, b.rounds, b.lines, b.total, b.stored, b.inBatches, b.files]).toEqual([6, 3, 24, 24, 0, 0, 6]);
    // The synchronous estimate of each model's decisions alone (the other model free), discounted by hand.
    const only = (id: string) => (s: TrialSpec) => (s.model.id === id ? prices(s) : { input: 0, output: 0 });
    const syncA = planRepeated(design, [], only('A')).cost!, syncB = planRepeated(design, [], only('B')).cost!;
    expect(b.cost).toBeCloseTo(syncA * 0.5 + syncB * 0.75, 12);
    const sync = planRepeated(design, [], prices);
    expect([b.inputTokens, b.outputTokens]).toEqual([sync.inputTokens, sync.outputTokens]);
  });

  it('run --batch --dry-run on akata-pd.yaml prints the batch plan at half the synchronous cost', async () => {
    const design = join(ROOT, 'data/designs/akata-pd.yaml');
    const store = join('/tmp', `sg-rep-dry-${process.pid}.sqlite`);
    const sync = await runCli(['run', design, '--store', store, '--dry-run']);
    const batch = await runCli(['run', design, '--store', store, '--dry-run', '--batch']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(batch.code, batch.stderr).toBe(0);
    // 18 matches × 10 rounds, 270 decisions (the design's own count); 10 rounds × 3 models = 30 files.
    expect(batch.stdout).toContain('18 matches × 10 rounds');
    expect(batch.stdout).toContain('dry run (batch): 30 files, 270 requests (270 trials, 0 already stored, 0 in open batches)');
    const syncCost = Number(/cost \$([0-9.]+)/.exec(sync.stdout)![1]);
    const batchCost = Number(/at batch prices: \$([0-9.]+)/.exec(batch.stdout)![1]);
    expect(syncCost).toBeGreaterThan(0);
    expect(batchCost).toBeCloseTo(syncCost / 2, 3);
  }, 60_000);
});
