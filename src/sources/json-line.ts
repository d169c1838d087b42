/**
 * One line of a JSONL file → its object, in time linear in the line's length. Before JSON.parse
 * (which keeps the last of two equal keys), one pass over the text follows strings and brackets:
 * it refuses nesting deeper than MAX_JSON_DEPTH and a key written twice in one object (at any
 * level). The reader then checks the top-level keys as column names (reader-rules.ts).
 */
import { UserError } from '../core/errors.js';
import { checkColumnNames, MAX_JSON_DEPTH } from './reader-rules.js';
import { sourcesMsg } from './messages.js';

const QUOTE = 0x22, BACKSLASH = 0x5c;

/** Index of the quote that closes the string opened at `i`, or -1 when the line ends first. */
function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j;
  }
  return -1;
}

/** The keys of each object as written (a key JSON.parse would drop included); syntax errors are left to JSON.parse. */
function checkKeys(file: string, line: number, t: string): void {
  const stack: (string[] | null)[] = []; // an object's keys so far, or null for an array
  let expectKey = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '"') {
      const end = stringEnd(t, i);
      if (end < 0) return;
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        let key: unknown;
        try { key = JSON.parse(t.slice(i, end + 1)); } catch { return; }
        keys.push(key as string);
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      if (stack.length === MAX_JSON_DEPTH) throw new UserError(sourcesMsg.tooDeep(file, line, MAX_JSON_DEPTH));
      stack.push(c === '{' ? [] : null);
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      const keys = stack.pop();
      if (keys) checkColumnNames(file, line, keys, 'object', true);
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1] != null;
    } else if (c === ':') {
      expectKey = false;
    }
  }
}

/** The object on a JSONL line (its text trimmed, not blank), or one line naming file and line. */
export function parseJsonLine(file: string, line: number, t: string): Record<string, unknown> {
  checkKeys(file, line, t);
  let obj: unknown;
  try { obj = JSON.parse(t); } catch (e) { throw new UserError(sourcesMsg.badJson(file, line, (e as Error).message)); }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw new UserError(sourcesMsg.notAnObject(file, line));
  return obj as Record<string, unknown>;
}
