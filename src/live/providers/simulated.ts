/**
 * The simulated provider: an offline, seeded agent that answers like a model would, so that a
 * design runs end to end with no key and no network, and so that analyses can be checked against
 * a known truth. Everything it returns is labelled synthetic.
 *
 * Its choice rule is the logit response of Same Game, Different Story §3.4 plus framing biases:
 *   P(C) = logistic(intercept + λ·Δu_G + bias[framing] + game_bias[game] + noise·z_cell),
 * with Δu_G the row player's expected payoff gap ū(C) − ū(D) at belief q = 0.5 after the payoffs
 * are normalized to range 1, and z_cell a standard normal drawn once per (seed, model, game,
 * framing), so a cell's true P(C) is fixed and known. Temperature is not modelled.
 *
 * For context-enrichment designs (the context-enrichment paper) two options add: `effects`, logit offsets (and extra
 * per-cell noise, i.e. format noise) for trials whose factors match every level in `when` — the
 * condition × world pattern — and `call_noise`, a per-call logit offset so that repeated calls of a
 * cell differ as repeated API calls do. Both default to nothing, leaving other designs unchanged.
 *
 * In a repeated game (src/live/repeated/) it is a seeded reactive agent: round 1 as above, later
 * rounds with `reciprocity` added to the logit after the other's C and taken off after its D
 * (the other's last move is in the trial's context; the prompt is not read).
 */
import { z } from 'zod';
import { streamFor } from '../../stats/rng.js';
import { payoffGap } from '../../stats/qre.js';
import { rowPayoffs } from '../../core/games.js';
import { ProviderError, type Game, type ModelSpec, type Provider, type ProviderRequest, type ProviderResponse, type TopLogprob,
  type TrialSpec } from '../types.js';

const shape = {
  lambda: z.number().describe('payoff sensitivity λ (Same Game, Different Story §3.4)').default(4),
  intercept: z.number().describe('logit of P(C) at Δu = 0 with no bias').default(0),
  bias: z.record(z.string(), z.number()).describe('logit bias by framing id').default({}),
  game_bias: z.record(z.string(), z.number()).describe('logit bias by game id').default({}),
  noise: z.number().min(0).describe('sd of a per-cell logit offset, drawn once per (seed, model, game, framing)').default(0),
  invalid_rate: z.number().min(0).max(1).describe('probability of an answer naming no single action').default(0),
  leak: z.number().min(0).lt(1).describe('first-token probability mass on tokens that name no action').default(0.02),
  truncate_below: z.number().min(0).max(1).describe('first-token candidates less likely than this are not returned (mimics top-p truncation)').default(0),
  // Context-enrichment designs (the context-enrichment paper): effects of factor levels (condition × world …) and call-to-call variation.
  effects: z.array(z.strictObject({
    when: z.record(z.string(), z.string()).describe('factor levels a trial must all have, e.g. { condition: minimal, world: regional }'),
    logit: z.number().default(0).describe('logit offset of matching trials'),
    noise: z.number().min(0).default(0).describe('sd of an extra per-cell logit offset of matching cells (format noise)'),
  })).describe('logit effects by factor levels (context-enrichment designs)').default([]),
  call_noise: z.number().min(0).describe('sd of a per-call logit offset, drawn per trial, so repeated calls of a cell differ').default(0),
  // Repeated games: a reactive agent, its cooperation moved by the other's last move.
  probe_error: z.number().min(0).max(1).describe('comprehension probes: probability of a wrong number of points').default(0),
  reciprocity: z.number().describe('repeated games: logit offset added after the other\'s C and taken off after its D (round 2 on)').default(2),
  // Rehearsing a design at known rates (e.g. a publication's): the cell's P(C) itself, in place of the logit rule.
  rates: z.record(z.string(), z.number().min(0).max(1)).describe('P(C) by cell, keyed GAME/FRAMING: replaces the logit rule for those cells').default({}),
};

/** The options a design may give a simulated model (validated strictly when a design loads). */
export const simulatedOptionsSchema = z.strictObject(shape);
const lenientOptions = z.object(shape);
export type SimulatedOptions = z.output<typeof simulatedOptionsSchema>;

export const SIMULATED_SNAPSHOT = 'simulated-synthetic';

/** Δu at q = 0.5 with the row player's payoffs normalized to range 1 (Same Game, Different Story §3.4); 0 for a flat game. */
function gap(game: Game): number {
  const du = payoffGap(rowPayoffs(game), 0.5);
  return Number.isFinite(du) ? du : 0;
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));

/** A standard normal from two uniforms (Box–Muller); 1 − u keeps the log finite. */
function standardNormal(u1: number, u2: number): number {
  return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
}

function options(model: ModelSpec): SimulatedOptions {
  const r = lenientOptions.safeParse(model.options ?? {});
  if (!r.success) {
    throw new ProviderError('client',
      `simulated model ${JSON.stringify(model.id)}: bad options (${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
  }
  return r.data;
}

/**
 * The simulated agent's true probability of C (among valid answers) for a model, game and
 * framing under a decoding seed: what an analysis of its trials should recover.
 */
export function simulatedPCooperate(model: ModelSpec, game: Game, framing: string, seed = 0,
  factors: Readonly<Record<string, string>> = {}): number {
  const o = options(model);
  const fixed = o.rates[`${game.id}/${framing}`];
  if (fixed !== undefined) return fixed;
  let x = o.intercept + o.lambda * gap(game) + (o.bias[framing] ?? 0) + (o.game_bias[game.id] ?? 0);
  if (o.noise > 0) {
    const g = streamFor(seed, `simulated-cell\u0000${model.id}\u0000${game.id}\u0000${framing}`);
    x += o.noise * standardNormal(g.next(), g.next());
  }
  o.effects.forEach((e, i) => {
    if (!Object.entries(e.when).every(([k, v]) => factors[k] === v)) return;
    x += e.logit;
    if (e.noise > 0) {
      const g = streamFor(seed, `simulated-effect\u0000${i}\u0000${model.id}\u0000${game.id}\u0000${framing}`);
      x += e.noise * standardNormal(g.next(), g.next());
    }
  });
  return logistic(x);
}

/** A trial's own P(C): the cell's, moved by a per-call logit offset when call_noise > 0 (own stream, so other draws stay put). */
function callPCooperate(o: SimulatedOptions, spec: TrialSpec, pCell: number, seed: number): number {
  if (o.call_noise <= 0 || pCell <= 0 || pCell >= 1) return pCell;
  const g = streamFor(seed, `simulated-call\u0000${spec.model.id}\u0000${spec.game}\u0000${spec.framing}\u0000${spec.rep}`);
  return logistic(Math.log(pCell / (1 - pCell)) + o.call_noise * standardNormal(g.next(), g.next()));
}

/** A repeated game's reactive rule: the logit moved by ±reciprocity after the other's last move. */
function reactive(o: SimulatedOptions, spec: TrialSpec, p: number): number {
  const last = spec.context.otherLast;
  if (last === undefined || p <= 0 || p >= 1) return p;
  return logistic(Math.log(p / (1 - p)) + (last === 'C' ? o.reciprocity : -o.reciprocity));
}

const VALID_TEMPLATES = [(l: string) => l, (l: string) => `${l}.`, (l: string) => `**${l}**`, (l: string) => `I choose ${l}.`, (l: string) => l.toLowerCase()];
const INVALID_TEMPLATES = [() => 'I would rather not decide.', (c: string, d: string) => `${c} or ${d}, it is hard to say.`,
  () => 'It depends on the other side.'];

/** First tokens that never name an action: labels are letters and digits only. */
const FILLERS: ReadonlyArray<[string, number]> = [['**', 0.4], ['\n', 0.3], ['"', 0.2], ['(', 0.1]];

/** The first token a tokenizer would plausibly emit for a label. */
const firstPiece = (label: string) => (label.length <= 4 ? label : label.slice(0, 3));

/** Top-k first-token alternatives whose action masses give back p exactly (before truncation). */
function topLogprobs(p: number, words: readonly [string, string], o: SimulatedOptions, k: number): TopLogprob[] {
  const keep = 1 - o.leak;
  const cands: Array<[string, number]> = [
    [firstPiece(words[0]), 0.9 * p * keep], [` ${firstPiece(words[0]).toLowerCase()}`, 0.1 * p * keep],
    [firstPiece(words[1]), 0.9 * (1 - p) * keep], [` ${firstPiece(words[1]).toLowerCase()}`, 0.1 * (1 - p) * keep],
    ...FILLERS.map(([t, w]): [string, number] => [t, w * o.leak]),
  ];
  return cands
    .filter(([, q]) => q > 0 && q >= o.truncate_below)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([token, q]) => ({ token, logprob: Math.log(q) }));
}

/** A probe's answer: the game's points, or with probability `error` a wrong number (1 to 3 off). */
function probeResponse(spec: TrialSpec, error: number, seed: number): ProviderResponse {
  const g = streamFor(seed, `simulated-probe\u0000${spec.model.id}\u0000${spec.game}\u0000${spec.framing}\u0000${spec.rep}`);
  const expected = spec.context.probe!.expected;
  const wrong = g.next() < error;
  const text = `${wrong ? expected + 1 + Math.floor(g.next() * 3) : expected} points`;
  return {
    text, modelSnapshot: `${SIMULATED_SNAPSHOT}/${spec.model.model}`,
    usage: { inputTokens: Math.ceil(((spec.system?.length ?? 0) + spec.prompt.length) / 4), outputTokens: 2 },
    raw: JSON.stringify({ synthetic: true, model: spec.model.model, text, probe: true }),
    request: { provider: 'simulated', model: spec.model.model, seed, synthetic: true, probe: true },
  };
}

/** The request record of a simulated call (what replay re-renders): no prompt is sent anywhere. */
export function simulatedRequest(spec: TrialSpec): Record<string, unknown> {
  if (spec.context.probe !== undefined) return { provider: 'simulated', model: spec.model.model, seed: spec.decoding.seed ?? 0, synthetic: true, probe: true };
  return {
    provider: 'simulated', model: spec.model.model, seed: spec.decoding.seed ?? 0, synthetic: true, scoring: spec.scoring,
    ...(spec.decoding.temperature === undefined ? {} : { temperature: spec.decoding.temperature }),
    ...(spec.decoding.maxTokens === undefined ? {} : { max_tokens: spec.decoding.maxTokens }),
    ...(spec.scoring === 'logprobs' ? { top_logprobs: spec.decoding.topLogprobs ?? 20 } : {}),
  };
}

export function createSimulatedProvider(): Provider {
  return {
    id: 'simulated',
    async complete(req: ProviderRequest): Promise<ProviderResponse> {
      if (req.signal.aborted) throw new ProviderError('aborted', 'aborted before the call');
      const { spec } = req;
      const game = spec.context.game;
      if (!game) throw new ProviderError('client', `simulated provider: trial ${spec.game}/${spec.framing} carries no game payoffs`);
      const o = options(spec.model);
      const seed = spec.decoding.seed ?? 0;
      if (spec.context.probe !== undefined) return probeResponse(spec, o.probe_error, seed);
      const p = reactive(o, spec, callPCooperate(o, spec, simulatedPCooperate(spec.model, game, spec.framing, seed, spec.context.factors), seed));
      // One stream per trial key; the rep index is part of it, so repeated samples differ.
      const g = streamFor(seed, `simulated\u0000${spec.model.id}\u0000${spec.game}\u0000${spec.framing}\u0000${spec.rep}`);
      const invalid = g.next() < o.invalid_rate;
      const action = g.next() < p ? 0 : 1;
      const pick = g.next();
      const [cw, dw] = spec.actionWords;
      const text = invalid
        ? INVALID_TEMPLATES[Math.floor(pick * INVALID_TEMPLATES.length)](cw, dw)
        : VALID_TEMPLATES[Math.floor(pick * VALID_TEMPLATES.length)](spec.actionWords[action]);
      const top = spec.scoring === 'logprobs' ? topLogprobs(p, spec.actionWords, o, spec.decoding.topLogprobs ?? 20) : undefined;
      const request = simulatedRequest(spec);
      const inputChars = (spec.system?.length ?? 0) + spec.prompt.length;
      return {
        text,
        ...(top ? { firstTokenTopLogprobs: top } : {}),
        modelSnapshot: `${SIMULATED_SNAPSHOT}/${spec.model.model}`,
        usage: { inputTokens: Math.ceil(inputChars / 4), outputTokens: Math.max(1, Math.ceil(text.length / 4)) },
        raw: JSON.stringify({ synthetic: true, model: spec.model.model, text, p_cooperate_true: p, ...(top ? { top_logprobs: top } : {}) }),
        request,
      };
    },
  };
}
