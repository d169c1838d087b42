import { describe, expect, it } from 'vitest';
import { expandDesign, parseDesign } from '../../src/live/design/design.js';
import { scoreFirstToken } from '../../src/live/scoring/first-token.js';
import { parseAction } from '../../src/live/scoring/parse.js';
import { createSimulatedProvider, simulatedPCooperate } from '../../src/live/providers/simulated.js';
import { canonicalGame } from '../../src/core/games.js';
import { ProviderError, type ModelSpec, type TrialSpec } from '../../src/live/types.js';

const design = (options: string, trials: number, scoring = 'sample', extra = '') => parseDesign(`
name: sim-test
synthetic: true
models:
  - { id: Sim, provider: simulated, options: ${options} }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing, { id: qx, family: label-perturbation, labels: [Q, X] }]
trials: ${trials}
decoding: { seed: 7${extra} }
scoring: ${scoring}
`, 'inline.yaml');

const provider = createSimulatedProvider();
const signal = new AbortController().signal;
const ask = (spec: TrialSpec) => provider.complete({ spec, signal });
const model = (options: Record<string, unknown>): ModelSpec => ({ id: 'Sim', provider: 'simulated', model: 'Sim', options });

describe('simulatedPCooperate: the logit response of Same Game, Different Story §3.4 plus biases', () => {
  it("hand value, Prisoner's Dilemma under business", () => {
    // Δu = (3.5 − 6.5)/8 = −0.375; x = 4·(−0.375) − 0.8 = −2.3; P = 1/(1 + e^2.3) = 1/10.974182… = 0.0911229…
    const p = simulatedPCooperate(model({ lambda: 4, bias: { business: -0.8 } }), canonicalGame('prisoners-dilemma')!, 'business');
    expect(p).toBeCloseTo(0.0911229610148561, 12);
  });
  it('hand value, Stag Hunt with intercept and game bias', () => {
    // Δu = (6 − 4)/8 = 0.25; x = 0.5 + 2·0.25 + 0 + (−1) = 0 → P = 0.5.
    const p = simulatedPCooperate(model({ lambda: 2, intercept: 0.5, game_bias: { 'stag-hunt': -1 } }), canonicalGame('stag-hunt')!, 'business');
    expect(p).toBeCloseTo(0.5, 15);
  });
  it('noise is a fixed per-cell offset: the same seed gives the same P, another seed another', () => {
    const m = model({ lambda: 4, noise: 1 });
    const g = canonicalGame('harmony')!;
    expect(simulatedPCooperate(m, g, 'business', 3)).toBe(simulatedPCooperate(m, g, 'business', 3));
    expect(simulatedPCooperate(m, g, 'business', 3)).not.toBe(simulatedPCooperate(m, g, 'business', 4));
    expect(simulatedPCooperate(m, g, 'business', 3)).not.toBe(simulatedPCooperate(model({ lambda: 4 }), g, 'business', 3));
  });
  it('bad options are a client error naming the option', () => {
    expect(() => simulatedPCooperate(model({ lambda: 'high' }), canonicalGame('harmony')!, 'b')).toThrow(/lambda/);
  });
});

describe('the simulated provider', () => {
  it('empirical P(C) among valid answers matches the analytic P(C) (4.5 binomial SDs), and the invalid rate its setting', async () => {
    const N = 3000;
    const d = design('{ lambda: 4, bias: { business: -0.8, friend-sharing: 1.2 }, noise: 0.3, invalid_rate: 0.1 }', N);
    const specs = expandDesign(d);
    const cells = new Map<string, { c: number; valid: number; invalid: number; spec: TrialSpec }>();
    for (const s of specs) {
      const r = await ask(s);
      const a = parseAction(r.text, s.labels);
      const k = `${s.game}/${s.framing}`;
      const cell = cells.get(k) ?? { c: 0, valid: 0, invalid: 0, spec: s };
      if (a.action === null) cell.invalid++; else { cell.valid++; if (a.action === 'C') cell.c++; }
      cells.set(k, cell);
    }
    expect(cells.size).toBe(6);
    for (const [k, { c, valid, invalid, spec }] of cells) {
      const p = simulatedPCooperate(spec.model, spec.context.game!, spec.framing, 7);
      const tol = 4.5 * Math.sqrt(p * (1 - p) / valid);
      expect(Math.abs(c / valid - p), `${k}: ${c}/${valid} vs ${p}`).toBeLessThanOrEqual(tol);
      expect(Math.abs(invalid / N - 0.1), k).toBeLessThanOrEqual(4.5 * Math.sqrt(0.1 * 0.9 / N));
    }
  });

  it('is deterministic per trial key and varies across reps', async () => {
    const specs = expandDesign(design('{ lambda: 0 }', 40));
    const a = await ask(specs[3]);
    const b = await ask(specs[3]);
    expect(b).toEqual(a);
    const texts = new Set<string>();
    for (const s of specs.slice(0, 40)) texts.add((await ask(s)).text.replace(/[^A-Za-z]/g, '').toUpperCase().slice(-1));
    expect(texts).toEqual(new Set(['C', 'D'])); // P = 0.5 in every cell: both actions occur in 40 reps
  });

  it('labels itself synthetic and answers in the framing\'s labels', async () => {
    const specs = expandDesign(design('{ lambda: 4 }', 5));
    const qx = specs.find((s) => s.framing === 'qx')!;
    const r = await ask(qx);
    expect(r.modelSnapshot).toMatch(/synthetic/);
    expect(JSON.parse(r.raw).synthetic).toBe(true);
    expect(r.request.synthetic).toBe(true);
    expect(parseAction(r.text, { Q: 'C', X: 'D' }).action).not.toBeNull();
    expect(r.usage!.inputTokens).toBeGreaterThan(0);
  });

  it('logprobs scoring: the first-token score gives back the analytic P(C) exactly', async () => {
    const specs = expandDesign(design('{ lambda: 4, bias: { business: -0.8 } }', 1, 'logprobs'));
    for (const s of specs) {
      const r = await ask(s);
      expect(r.firstTokenTopLogprobs!.length).toBeLessThanOrEqual(20);
      const sc = scoreFirstToken(r.firstTokenTopLogprobs!, s.actionWords);
      expect(sc.imputed).toBe('none');
      expect(sc.pCooperate!).toBeCloseTo(simulatedPCooperate(s.model, s.context.game!, s.framing, 7), 12);
    }
  });

  it('truncation drops an unlikely action, so the scorer must impute it', async () => {
    // PD under business with λ = 8, bias −2: x = −3 − 2 = −5, P = 0.00669; both C tokens fall below 0.01.
    const specs = expandDesign(design('{ lambda: 8, bias: { business: -2 }, truncate_below: 0.01 }', 1, 'logprobs'));
    const s = specs.find((x) => x.game === 'prisoners-dilemma' && x.framing === 'business')!;
    const sc = scoreFirstToken((await ask(s)).firstTokenTopLogprobs!, s.actionWords);
    expect(sc.imputed).toBe('C');
    expect(sc.bounds!.missingAtZero).toBe(0);
  });

  it('returns at most top_logprobs alternatives', async () => {
    const specs = expandDesign(design('{ lambda: 1 }', 1, 'logprobs', ', top_logprobs: 3'));
    expect((await ask(specs[0])).firstTokenTopLogprobs).toHaveLength(3);
  });

  it('sample scoring returns no logprobs', async () => {
    expect((await ask(expandDesign(design('{ lambda: 1 }', 1))[0])).firstTokenTopLogprobs).toBeUndefined();
  });

  it('an aborted request fails with kind "aborted"', async () => {
    const ac = new AbortController();
    ac.abort();
    const spec = expandDesign(design('{ lambda: 1 }', 1))[0];
    await expect(provider.complete({ spec, signal: ac.signal })).rejects.toSatisfy((e) => e instanceof ProviderError && e.kind === 'aborted');
  });
});
