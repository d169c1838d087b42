/**
 * Which text is a name (docs/reference/specifications.md, "Names"): the one rule every reader of samegame input applies
 * (sources/reader-rules.ts) and every design is held to when it is read (live/design), so a name a
 * design may give is a name every reader of its store takes.
 */
import { z } from 'zod';
import { msg } from './messages/common.js';
import { RESERVED_LEVELS } from './names.js';

/** A model, game, framing or factor level, and a column name, in characters (Unicode code points). */
export const MAX_NAME_LENGTH = 256;

/**
 * The first control character of a name, as U+XXXX: C0 (tab and line ends included), DEL and
 * C1, the line and paragraph separators U+2028/U+2029 (line ends to JavaScript, Vega and
 * terminals), and the noncharacters U+FFFE and U+FFFF that XML cannot carry. Every other
 * character is a valid name character; these are refused because terminals, SVG/PNG renderers
 * and the tables' own keys cannot carry them.
 */
export function controlCharacter(s: string): string | undefined {
  const m = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/.exec(s);
  return m === null ? undefined : `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Code points of a string, counted without building an array. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 === s.length) n++;
    else { n++; i++; }
  }
  return n;
}

/** What is wrong with a name (the end of a message), or undefined when it is one. */
export function nameFault(value: string): string | undefined {
  const bad = controlCharacter(value);
  if (bad !== undefined) return msg.controlCharacterWhat(bad);
  const n = value.length > MAX_NAME_LENGTH ? codePoints(value) : 0;
  return n > MAX_NAME_LENGTH ? msg.nameTooLongWhat(n, MAX_NAME_LENGTH) : undefined;
}

/** What is wrong with a level of a cell's key: not a name, or a name the tables keep for their own rows. */
export function levelFault(field: string, value: string): string | undefined {
  const fault = nameFault(value);
  if (fault !== undefined) return fault;
  // An own key only: a column named constructor or toString is a field like any other, not Object.prototype's.
  const reserved = Object.hasOwn(RESERVED_LEVELS, field) ? (RESERVED_LEVELS as Readonly<Record<string, readonly string[]>>)[field] : undefined;
  return reserved?.includes(value) ? msg.reservedLevelWhat(field, value) : undefined;
}

/**
 * A name in a YAML document (a manifest's study id, framing, moderator name or value): text
 * (non-empty unless `minLength` is 0) held to the name rule, its fault the issue's message (the document's one line: file, line, field).
 */
export const nameSchema = (minLength = 1) => z.string().min(minLength).superRefine((s, ctx) => {
  const fault = nameFault(s);
  if (fault !== undefined) ctx.addIssue({ code: 'custom', message: `the name ${fault}` });
});
