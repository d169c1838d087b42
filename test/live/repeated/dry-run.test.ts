/**
 * The batch dry run of a repeated design (`run --batch --dry-run`): every round its own files (one
 * per model), every pending decision one request, priced at the model's batch discount — the
 * synchronous estimate of the same decisions times (1 − discount).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../../src/live/design/design.js';
import { planRepeated, planRepeatedBatch } from '../../../src/live/repeated/dry-run.js';
import { prepareSession } from '../../../src/live/runner/session.js';
import { planRun } from '../../../src/live/runner/plan.js';
import { decisionSpec, llmSeats, planMatches } from '../../../src/live/repeated/plan.js';
import { byModel } from '../../../src/live/repeated/batch.js';
import { planBatchRun } from '../../../src/live/batch/dry-run.js';
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

describe('the dry run of a repeated design counts, it does not render histories', () => {
  /** The reference: every pending decision's spec rendered in full (its prompt with the whole history), then planRun. */
  function rendered(design: ReturnType<typeof prepareSession>['design'], prices: (s: TrialSpec) => { input: number; output: number } | undefined) {
    const specs: TrialSpec[] = [];
    for (const m of planMatches(design)) {
      const history = Array.from({ length: design.play!.rounds }, () => ({ moves: ['C', 'C'] as const }));
      for (let t = 1; t <= design.play!.rounds; t++) for (const seat of llmSeats(m)) specs.push(decisionSpec(design, m, seat, t, history.slice(0, t - 1)));
    }
    return planRun(specs, () => false, prices);
  }
  const variants: [string, string][] = [
    ['akata prompt and history', 'prompt: akata\n  history: akata'],
    ['a table history', 'history: table'],
    ['a template prompt naming {history} twice, a template history', 'prompt: { template: "{rules}\\n{history}---\\n{history}Round {round} of {rounds}: {first} or {second}?" }\n  history: { template: "r{round}: {own}/{other} ({own_payoff})" }'],
  ];
  it.each(variants)('%s: tokens and cost equal those of the rendered prompts', (_what, lines) => {
    const text = DESIGN.replace('rounds: 3', `rounds: 12\n  ${lines}\n  personas: { 1: "You are A.", 2: "You are B." }`);
    const { design, prices } = prepareSession(parseDesign(text, 'v.yaml'), {});
    const want = rendered(design, prices);
    const got = planRepeated(design, [], prices);
    expect([got.total, got.calls, got.inputTokens, got.outputTokens]).toEqual([want.total, want.calls, want.inputTokens, want.outputTokens]);
    expect(got.cost).toBeCloseTo(want.cost!, 9);
  });
  it('akata-pd-sim at play.rounds 1000: planned in bounded memory and a few seconds (it used to abort out of memory)', () => {
    const text = readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8').replace('rounds: 10', 'rounds: 1000');
    const { design, prices } = prepareSession(parseDesign(text, 'akata-pd-sim.yaml'), {});
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const t0 = performance.now();
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().heapUsed); }, 5);
    const p = planRepeated(design, [], prices);
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    // 100 matches: 2 models × (self + 1 other + 3 strategies) × 10; decisions 2 × (2 + 2 + 3) × 10 × 1000.
    expect([p.matches, p.rounds, p.calls]).toEqual([100, 1000, 140_000]);
    expect(performance.now() - t0).toBeLessThan(30_000);
    expect(peak - before).toBeLessThan(200 * 2 ** 20);
  }, 60_000);
});

describe('the batch dry run of a repeated design counts too', () => {
  /** The reference: each round's pending specs rendered in full, grouped by model, then the one-shot batch plan (planBatchRun). */
  function renderedBatch(design: ReturnType<typeof prepareSession>['design'], prices: ReturnType<typeof prepareSession>['prices'], limits: { maxLines: number; maxBytes: number }) {
    const plans = planMatches(design);
    let files = 0, lines = 0, inputTokens = 0, outputTokens = 0, cost = 0;
    for (let t = 1; t <= design.play!.rounds; t++) {
      const specs: TrialSpec[] = [];
      for (const m of plans) {
        const history = Array.from({ length: t - 1 }, () => ({ moves: ['C', 'C'] as const }));
        for (const seat of llmSeats(m)) specs.push(decisionSpec(design, m, seat, t, history));
      }
      const p = planBatchRun(byModel(design, specs), () => false, new Set(), prices, limits);
      files += p.files; lines += p.lines; inputTokens += p.inputTokens; outputTokens += p.outputTokens; cost += p.cost!;
    }
    return { files, lines, inputTokens, outputTokens, cost };
  }
  it.each([['akata history', ''], ['a table history', 'history: table'], ['a template history', 'history: { template: "r{round}: {own}/{other} — «{own_payoff}»" }']])(
    '%s, files split by lines and by bytes: files, lines, tokens and cost equal those of the rendered requests', (_what, line) => {
      const text = DESIGN.replace('rounds: 3', `rounds: 9${line ? `\n  ${line}` : ''}`);
      const { design, prices } = prepareSession(parseDesign(text, 'v.yaml'), {});
      for (const limits of [{ maxLines: 3, maxBytes: 200_000_000 }, { maxLines: 50_000, maxBytes: 9_000 }]) {
        const want = renderedBatch(design, prices, limits);
        const got = planRepeatedBatch(design, [], new Set(), prices, limits);
        expect([got.files, got.lines, got.inputTokens, got.outputTokens]).toEqual([want.files, want.lines, want.inputTokens, want.outputTokens]);
        expect(got.cost).toBeCloseTo(want.cost, 12);
      }
    });
});
