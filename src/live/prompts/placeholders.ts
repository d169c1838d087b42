/**
 * Every placeholder a design's templates may name, by kind of template: the one place they are
 * listed (docs/methods.md §18a). The rule that reads them is src/live/prompts/template.ts; the
 * values are filled where each kind is rendered (framing.ts, repeated/prompt.ts,
 * repeated/history.ts, design/enrichment-render.ts).
 */
const ACTIONS = ['C', 'D'] as const;

/** The eight single payoffs: {you.XY} and {other.XY}, X your action, Y the other's. */
export const PAYOFF_PLACEHOLDERS: readonly string[] = ['you', 'other'].flatMap((who) => ACTIONS.flatMap((x) => ACTIONS.map((y) => `${who}.${x}${y}`)));

export type TemplateKind = 'framing' | 'round' | 'history' | 'fact';

export interface TemplateKindSpec {
  /** The names `{name}` may use. */
  readonly names: readonly string[];
  /** A template of this kind with no placeholder at all is refused (a fact may be plain text). */
  readonly needsPlaceholder: boolean;
}

export const TEMPLATE_KINDS: { readonly [K in TemplateKind]: TemplateKindSpec } = {
  /** A framing's story (one-shot, repeated, a context-enrichment format beside its slots). */
  framing: { names: ['C', 'D', 'payoffs', ...PAYOFF_PLACEHOLDERS, 'answer'], needsPlaceholder: true },
  /** A repeated game's round prompt (`play.prompt`, `play.prompts`). */
  round: { names: ['rules', 'horizon', 'history', 'round', 'rounds', 'first', 'second', 'C', 'D'], needsPlaceholder: true },
  /** One line of a repeated game's history (`play.history`). */
  history: { names: ['round', 'own', 'other', 'own_payoff', 'other_payoff'], needsPlaceholder: true },
  /** A context-enrichment fact: the actions and the symmetric payoffs. */
  fact: { names: ['C', 'D', 'T', 'R', 'P', 'S'], needsPlaceholder: false },
};

export const FRAMING_PLACEHOLDERS = TEMPLATE_KINDS.framing.names;
export const PROMPT_PLACEHOLDERS = TEMPLATE_KINDS.round.names;
export const HISTORY_PLACEHOLDERS = TEMPLATE_KINDS.history.names;
export const FACT_PLACEHOLDERS = TEMPLATE_KINDS.fact.names;
