/** The `play` block: cross-field checks and resolution into a PlaySpec (src/live/repeated/types.ts). */
import { createHash } from 'node:crypto';
import { isStrategyId, STRATEGIES } from '../repeated/strategies.js';
import type { OpponentSpec, PlaySpec, PromptSpec } from '../repeated/types.js';
import type { PlayDocument } from './play-schema.js';
import { templateFieldProblem, type Problem } from './problems.js';
import { TEMPLATE_KINDS } from '../prompts/placeholders.js';
import { namesIn } from '../prompts/template.js';
import { designMsg } from './messages.js';

function opponent(o: PlayDocument['opponents'][number]): OpponentSpec {
  if (typeof o === 'string') {
    if (o === 'self') return { kind: 'self' };
    if (isStrategyId(o)) return { kind: 'strategy', id: o, strategy: o, params: {} };
    return { kind: 'model', id: o };
  }
  const params = { ...(o.p === undefined ? {} : { p: o.p }), ...(o.forgive === undefined ? {} : { forgive: o.forgive }) };
  const shown = Object.values(params).map(String).join('-');
  return { kind: 'strategy', id: o.id ?? (shown === '' ? o.strategy : `${o.strategy}-${shown}`), strategy: o.strategy, params };
}

const promptSpec = (p: 'akata' | 'framing' | { template: string } | undefined): PromptSpec =>
  p === undefined || p === 'akata' ? { kind: 'akata' } : p === 'framing' ? { kind: 'framing' } : { kind: 'template', template: p.template };

type PersonaDocument = NonNullable<PlayDocument['personas']>[1];

const personaText = (p: PersonaDocument): string | undefined => (typeof p === 'string' ? p : p?.text);

/** A persona's id: the design's, else "p" + the first 8 hex digits of its text's SHA-256 (the same text, the same id). */
const personaId = (p: PersonaDocument): string | undefined =>
  p === undefined ? undefined : typeof p === 'string' ? `p${createHash('sha256').update(p).digest('hex').slice(0, 8)}` : p.id;

export function resolvePlay(p: PlayDocument): PlaySpec {
  return {
    rounds: p.rounds,
    opponents: p.opponents.map(opponent),
    history: p.history === undefined || p.history === 'akata' ? { kind: 'akata' } : p.history === 'table' ? { kind: 'table' } : { kind: 'template',
      template: p.history.template },
    horizon: p.horizon === undefined || p.horizon === 'disclosed' ? { kind: 'disclosed' } : p.horizon === 'hidden' ? { kind: 'hidden' }
      : { kind: 'end_probability', p: p.horizon.end_probability },
    optionOrder: p.option_order ?? 'fixed',
    onInvalid: p.on_invalid === undefined || p.on_invalid === 'forfeit' ? { kind: 'forfeit' } : { kind: 'retry', n: p.on_invalid.retry },
    prompt: promptSpec(p.prompt),
    prompts: Object.fromEntries(Object.entries(p.prompts ?? {}).map(([k, v]) => [k, promptSpec(v)])),
    personas: [personaText(p.personas?.[1]), personaText(p.personas?.[2])],
    ...(p.personas?.[1] === undefined && p.personas?.[2] === undefined ? {} : { personaIds: [personaId(p.personas?.[1]), personaId(p.personas?.[2])] }),
    seed: p.seed ?? 0,
  };
}

/**
 * A model that would play no match — its only opponent is itself named as a model (self-play is
 * `self`), and no other model meets it — is refused: the run would make no call for it.
 */
function idleProblems(opponents: readonly OpponentSpec[], models: readonly string[]): Problem[] {
  const meets = (m: string) => opponents.some((o) => o.kind !== 'model' || o.id !== m);
  const met = (m: string) => models.some((x) => x !== m && opponents.some((o) => o.kind === 'model' && o.id === m));
  return models.filter((m) => !meets(m) && !met(m)).map((m) => ({ path: ['play', 'opponents'], message: designMsg.playsNoMatch(m) }));
}

/** Opponents must be self, a model of the design or a strategy, each once; prompts must name framings. */
export function playProblems(p: PlayDocument, models: readonly string[], framings: readonly string[]): Problem[] {
  const out: Problem[] = [];
  const seen = new Map<string, number>();
  p.opponents.forEach((o, i) => {
    const r = opponent(o);
    if (r.kind === 'model' && !models.includes(r.id)) {
      out.push({ path: ['play', 'opponents', i], message: designMsg.unknownOpponent(r.id, models, Object.keys(STRATEGIES)) });
    }
    const id = r.kind === 'self' ? 'self' : r.id;
    if (seen.has(id)) out.push({ path: ['play', 'opponents', i], message: designMsg.duplicateId('opponent', id, `play.opponents[${seen.get(id)}]`) });
    else seen.set(id, i);
    if (r.kind === 'strategy' && models.includes(r.id)) out.push({ path: ['play', 'opponents', i], message: designMsg.opponentClash(r.id) });
  });
  out.push(...idleProblems(p.opponents.map(opponent), models));
  for (const k of Object.keys(p.prompts ?? {})) {
    if (!framings.includes(k)) out.push({ path: ['play', 'prompts', k], message: designMsg.unknownBiasKey('framing', k, framings) });
  }
  return out;
}

/**
 * Templates follow the one placeholder rule (src/live/prompts/template.ts) and name at least one
 * placeholder; a round template names {rules}, so its prompts state the payoff matrix.
 */
export function templateProblems(p: PlayDocument): Problem[] {
  const out: Problem[] = [];
  const check = (t: string, kind: 'history' | 'round', path: (string | number)[]) => {
    const { names, needsPlaceholder } = TEMPLATE_KINDS[kind];
    const fault = templateFieldProblem(path, t, names, needsPlaceholder);
    if (fault) out.push(fault);
    else if (kind === 'round' && !namesIn(t, names).includes('rules')) out.push({ path, message: designMsg.roundNeverStates() });
  };
  if (typeof p.history === 'object') check(p.history.template, 'history', ['play', 'history', 'template']);
  if (typeof p.prompt === 'object') check(p.prompt.template, 'round', ['play', 'prompt', 'template']);
  for (const [k, v] of Object.entries(p.prompts ?? {})) if (typeof v === 'object') check(v.template, 'round', ['play', 'prompts', k, 'template']);
  return out;
}
