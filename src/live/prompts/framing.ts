/**
 * Rendering a framing — a built-in family or a story template — for a game. One renderer serves
 * every kind of design: a one-shot prompt is the framing's text with the answer instruction; a
 * repeated round inserts its round block (horizon, history, round) right before the answer
 * instruction (src/live/repeated/prompt.ts); a context-enrichment format template fills the
 * same placeholders (docs/methods.md §18a).
 */
import type { Action, Game } from '../types.js';
import { num, oneWord, type LabelPair } from './family.js';
import { promptFamily } from './families.js';
import { fillParts, parsedParts, type TemplatePart } from './template.js';
import { FRAMING_PLACEHOLDERS } from './placeholders.js';

const ACTIONS: readonly Action[] = ['C', 'D'];
export { FRAMING_PLACEHOLDERS, PAYOFF_PLACEHOLDERS } from './placeholders.js';

/** A framing of a design: its id, its labels, and a built-in family or a template. */
export interface Framing {
  readonly id: string;
  /** A built-in family (Same Game, Different Story Appendix B); absent for a template. */
  readonly family?: string;
  readonly labels: LabelPair;
  /** The story template (inline, or the text of template_file). */
  readonly template?: string;
  /** The template file as the design names it (relative to the design file). */
  readonly templateFile?: string;
}

/** How a framing is listed: its family, or "template" (with its file). */
export const framingSource = (f: Framing): string => f.family ?? (f.templateFile === undefined ? 'template' : `template ${f.templateFile}`);

/** Every outcome, one line each, both payoffs: the sentence form of the neutral family, with "choose". */
export function payoffSentences(game: Game, [lc, ld]: LabelPair): string {
  const label = (a: Action) => (a === 'C' ? lc : ld);
  return ACTIONS.flatMap((r) => ACTIONS.map((c) => {
    const [u, v] = game.payoffs[r][c];
    return `- If you choose ${label(r)} and the other player chooses ${label(c)}, you receive ${num(u)} points and the other player receives ${num(v)} points.`;
  })).join('\n');
}

/** The values of the framing placeholders for a game (the row player's view) and labels. */
export function framingValues(game: Game, labels: LabelPair, answer = oneWord(labels)): Record<string, string> {
  const out: Record<string, string> = { C: labels[0], D: labels[1], payoffs: payoffSentences(game, labels), answer };
  for (const x of ACTIONS) {
    for (const y of ACTIONS) {
      out[`you.${x}${y}`] = num(game.payoffs[x][y][0]);
      out[`other.${x}${y}`] = num(game.payoffs[x][y][1]);
    }
  }
  return out;
}

/** A framing's text around the answer instruction: the prompt is head + instruction + tail. */
export interface FramingText {
  readonly system?: string;
  readonly head: string;
  readonly tail: string;
}

/** A template's text around the answer instruction; `extra` adds placeholders (a format's slots, which shadow the framing's). */
function templateText(template: string, game: Game, labels: LabelPair, extra: Readonly<Record<string, string>> = {}): FramingText {
  const parts = parsedParts(template, [...FRAMING_PLACEHOLDERS, ...Object.keys(extra)]);
  const values = { ...framingValues(game, labels), ...extra };
  const at = parts.findIndex((p) => 'name' in p && p.name === 'answer');
  if (at >= 0) return { head: fillParts(parts.slice(0, at), values), tail: fillParts(parts.slice(at + 1), values) };
  const text = fillParts(parts as TemplatePart[], values);
  // The template already states the instruction in its words: it stays where it is.
  const i = text.indexOf(values.answer);
  if (i >= 0) return { head: text.slice(0, i), tail: text.slice(i + values.answer.length) };
  return { head: `${text.trimEnd()}\n`, tail: '' };
}

/** A template's whole prompt: its text with the answer instruction (a context-enrichment format template, its slots as `extra`). */
export function templatePrompt(template: string, game: Game, labels: LabelPair, extra: Readonly<Record<string, string>>): string {
  const t = templateText(template, game, labels, extra);
  return `${t.head}${oneWord(labels)}${t.tail}`;
}

/** The framing's text for a game; `repeated` tells a family's story as a repeated game. */
export function framingText(framing: Framing, game: Game, repeated = false): FramingText {
  if (framing.template !== undefined) return templateText(framing.template, game, framing.labels);
  const family = promptFamily(framing.family ?? '');
  if (!family) throw new Error(`unknown prompt family ${JSON.stringify(framing.family)}`);
  const r = family.render(game, framing.labels, repeated);
  return { ...(r.system === undefined ? {} : { system: r.system }), head: `${r.story}\n\n${r.question}\n`, tail: '' };
}

/** The story alone (no question, no answer instruction), as a repeated game tells it: `{rules}` of a round template. */
export function framingStory(framing: Framing, game: Game): string {
  if (framing.template !== undefined) return templateText(framing.template, game, framing.labels).head.trimEnd();
  const family = promptFamily(framing.family ?? '');
  return family ? family.render(game, framing.labels, true).story : '';
}
