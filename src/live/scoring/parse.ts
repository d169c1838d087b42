/**
 * The parser of Same Game, Different Story Appendix B: a response is mapped to a canonical action through its
 * framing's label map, and marked invalid when no single registered action can be identified.
 *
 * A label counts only as a whole word, case-insensitively: a letter, digit, underscore or
 * apostrophe next to it makes it part of another word ("J" in "Just", "D" in "I'd"), while
 * punctuation and markup do not ("**J**", "J.", "(J)"). A label named several times is one
 * action; two different actions named anywhere make the response invalid, kept with its reason.
 */
import type { Action } from '../types.js';
import { scoringMsg } from './messages.js';

export type ParseResult =
  | { readonly action: Action; readonly label: string; readonly reason?: undefined }
  | { readonly action: null; readonly reason: string; readonly found: readonly string[] };

const WORD = "\\p{L}\\p{N}_'\u2019";
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Reasoning models may think aloud between <think> tags; only the answer after them counts. */
const stripThinking = (text: string) => text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, ' ');

/** Map a response text to its canonical action through the label map (surface label → action). */
export function parseAction(text: string, labels: Readonly<Record<string, Action>>): ParseResult {
  const body = stripThinking(text);
  if (body.trim() === '') return { action: null, reason: scoringMsg.parseEmpty(), found: [] };
  const found: string[] = [];
  const actions = new Set<Action>();
  for (const [label, action] of Object.entries(labels)) {
    const re = new RegExp(`(?<![${WORD}])${escape(label)}(?![${WORD}])`, 'iu');
    if (re.test(body)) {
      found.push(label);
      actions.add(action);
    }
  }
  if (actions.size === 1) {
    const action = [...actions][0];
    return { action, label: found[0] };
  }
  if (actions.size === 0) return { action: null, reason: scoringMsg.parseNone(Object.keys(labels)), found };
  return { action: null, reason: scoringMsg.parseMultiple(found), found };
}
