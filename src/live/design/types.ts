/** The resolved shapes of a design (two-framing and context-enrichment), shared by the design modules. */
import type { Decoding, Game, ModelSpec, Scoring } from '../types.js';
import type { Framing } from '../prompts/index.js';
import type { FormatStyle } from './enrichment-schema.js';
import type { PlaySpec } from '../repeated/types.js';
import type { AdaptiveStop } from './stop.js';

export interface DesignPrices {
  /** US dollars per 1M input tokens. */
  readonly input: number;
  /** US dollars per 1M output tokens. */
  readonly output: number;
  /** Fraction taken off for Batch API calls (0.5 when absent). */
  readonly batchDiscount?: number;
}

/** A model of a design: its spec, its decoding (design decoding merged with its own) and prices. */
export interface DesignModel extends ModelSpec {
  readonly decoding: Decoding;
  readonly prices?: DesignPrices;
  /** Send through the OpenAI Batch API (design field `batch: true`). */
  readonly batch?: boolean;
}

/** A validated, resolved design. */
export interface Design {
  readonly name: string;
  readonly description?: string;
  /** True when the design's data are synthetic (simulated models): outputs must say so. */
  readonly synthetic: boolean;
  /** Display names (the design's `names:` block): id → name shown in figures, reports and LaTeX. */
  readonly names?: Readonly<Record<string, string>>;
  readonly models: readonly DesignModel[];
  readonly games: readonly Game[];
  readonly framings: readonly Framing[];
  /** Trials per model × game × framing cell. */
  readonly trials: number;
  readonly scoring: Scoring;
  /** Present for `kind: context-enrichment` designs (src/live/design/enrichment.ts): conditions × worlds × formats. */
  readonly enrichment?: EnrichmentSpec;
  /** Present for a repeated game (src/live/repeated/): trials are then matches per cell × opponent. */
  readonly play?: PlaySpec;
  /** Present for an adaptive run (the `stop:` block, stop.ts): cells stop when their confidence sequence meets the rule. */
  readonly stop?: AdaptiveStop;
  /** Comprehension probes per model × game × framing (docs/methods.md §18c), asked before the decisions; none when absent. */
  readonly probes?: number;
}

export interface Fact {
  readonly key?: string;
  readonly text: string;
  readonly value?: string;
  readonly paraphrases?: readonly string[];
}
/** Facts, or facts by world id. */
export type SlotContent = readonly Fact[] | Readonly<Record<string, readonly Fact[]>>;
export interface Payoffs { readonly T: number; readonly R: number; readonly P: number; readonly S: number }

export interface EnrichmentCondition {
  readonly id: string;
  readonly function: string;
  readonly slots: Readonly<Record<string, SlotContent>>;
}
export interface EnrichmentWorld {
  readonly id: string;
  readonly description?: string;
  readonly slots: Readonly<Record<string, readonly Fact[]>>;
  /** The world's payoffs: its own, else the design's. */
  readonly payoffs: Payoffs;
}
export interface EnrichmentFormat {
  readonly id: string;
  /** A built-in layout; absent for a format template. */
  readonly style?: FormatStyle;
  /** A format template (docs/methods.md §18a) and the file it was read from, if any. */
  readonly template?: string;
  readonly templateFile?: string;
  /** 0: canonical wording; k: every fact's k-th paraphrase. */
  readonly wording: number;
}

/** A resolved context-enrichment design: what the trials render from and the analysis reads back. */
export interface EnrichmentSpec {
  readonly kind: 'context-enrichment';
  readonly scenario: string;
  /** [first action (C, e.g. TRANSFER), second action (D, e.g. RETAIN)]. */
  readonly actions: readonly [string, string];
  readonly payoffs: Payoffs;
  readonly system?: string;
  readonly template: readonly string[];
  readonly base: Readonly<Record<string, SlotContent>>;
  readonly conditions: readonly EnrichmentCondition[];
  /** In design order. */
  readonly worlds: readonly EnrichmentWorld[];
  /** The registered direction: P(first action) expected higher in `higher` than in `lower`. */
  readonly direction: { readonly higher: string; readonly lower: string };
  /** The canonical format first. */
  readonly formats: readonly EnrichmentFormat[];
  readonly publishedReference?: string;
}
