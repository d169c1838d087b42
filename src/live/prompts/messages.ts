/**
 * The user-facing messages used only in live/prompts/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../../core/messages/text.js';
import { nearestName } from '../../core/suggest.js';

const list = (known: readonly string[]) => known.map((k) => `{${k}}`).join(' ');

/** "; did you mean {X}?" for the known placeholder nearest to an unknown one (core/suggest.ts), or nothing. */
const nearPlaceholder = (name: string, known: readonly string[]) => {
  const n = nearestName(name, known);
  return n === undefined ? '' : `; did you mean {${n}}?`;
};


export const promptsMsg = {
  strayClose: () => 'a stray "}" (write }} for a literal brace)',
  unclosed: (from: string) => `unclosed brace at ${q(from)} (write {{ for a literal brace)`,
  notPlaceholder: (inner: string, known: readonly string[]) => `{${inner}} is not a placeholder (known: ${list(known)}; write {{ and }} for literal braces)`,
  unknown: (name: string, known: readonly string[]) => `unknown placeholder {${name}} (known: ${list(known)})${nearPlaceholder(name, known)}`,
  atLine: (line: number) => `template line ${line}: `,
  noPlaceholder: (known: readonly string[]) => `the template has no placeholder, so it says the same whatever happens (known: ${list(known)})`,
  roundNotRepeated: () => '--round applies to a repeated design (one with a play block)',
  roundBeyond: (round: number, rounds: number) => `--round ${round}: the design plays ${rounds} rounds`,
};
