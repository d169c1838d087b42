/**
 * Framings: a prompt family or a story template, with its surface labels. Rendering a framing for a game gives the
 * text to send, the label map back to canonical C/D (the parser's input) and the two action words
 * in canonical order (first-token scoring's input, docs/methods.md).
 */
import type { Action, Game } from '../types.js';
import { labelMap, oneWord } from './family.js';
import { framingText, type Framing } from './framing.js';

export type { LabelPair, PromptFamily, RenderedPrompt } from './family.js';
export { labelMap } from './family.js';
export { framingSource, framingStory, framingText, FRAMING_PLACEHOLDERS, PAYOFF_PLACEHOLDERS, type Framing } from './framing.js';
export { PROMPT_FAMILIES, FAMILY_IDS, promptFamily } from './families.js';

export interface RenderedFraming {
  readonly system?: string;
  readonly prompt: string;
  readonly labels: Readonly<Record<string, Action>>;
  readonly actionWords: readonly [string, string];
}

/** Render a framing for a game: its text with the answer instruction (designs are validated before this). */
export function renderFraming(framing: Framing, game: Game): RenderedFraming {
  const r = framingText(framing, game);
  return {
    ...(r.system === undefined ? {} : { system: r.system }),
    prompt: `${r.head}${oneWord(framing.labels)}${r.tail}`,
    labels: labelMap(framing.labels),
    actionWords: [framing.labels[0], framing.labels[1]],
  };
}

/**
 * Why a label pair cannot be used, or undefined when it can. Labels are single words of letters
 * and digits (so the parser can find them at word boundaries); the two must differ in their first
 * character, otherwise a first token such as "C" would be a prefix of both action words and
 * first-token scoring could not tell the actions apart.
 */
export function labelPairProblem(labels: readonly string[]): string | undefined {
  if (labels.length !== 2) return 'expected exactly two labels, [label of C, label of D]';
  for (const l of labels) {
    if (!/^[\p{L}\p{N}]+$/u.test(l)) return `label ${JSON.stringify(l)} must be one word of letters or digits`;
  }
  const [a, b] = labels.map((l) => l.toUpperCase());
  if (a === b) return `the two labels must differ (both are ${JSON.stringify(labels[0])})`;
  if (a[0] === b[0]) {
    return `the labels ${JSON.stringify(labels[0])} and ${JSON.stringify(labels[1])} start with the same character, so a first token could name either`;
  }
  return undefined;
}
