/**
 * Validation problems at paths inside a YAML document (designs, log formats), and the lines they
 * point to: one message names the file, the line and the path in the document.
 */
import { isNode, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import type { z } from 'zod';
import { UserError } from './errors.js';
import { msg } from './messages/common.js';

export type Path = ReadonlyArray<PropertyKey>;
/** A problem at a document path; `valueLine`: the 1-based line within a multi-line value (a template) where it is. */
export interface Problem { path: Path; message: string; readonly valueLine?: number }

/** `models[1].options.bias["a b"]` from ['models', 1, 'options', 'bias', 'a b']. */
export function formatPath(path: Path): string {
  let s = '';
  for (const k of path) {
    if (typeof k === 'number') s += `[${k}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(String(k))) s += s === '' ? String(k) : `.${String(k)}`;
    else s += `[${JSON.stringify(String(k))}]`;
  }
  return s;
}

/**
 * Zod issues as problems at document paths. A union (a game given by id or as a matrix) reports
 * the branch whose type matched the input, so `games[2].payoffs.C.D` is named, not "invalid input".
 * `schemaFile` is the JSON Schema an unknown field's message points to.
 */
export function zodProblems(issues: readonly z.core.$ZodIssue[], schemaFile: string, base: Path = []): Problem[] {
  const out: Problem[] = [];
  for (const i of issues) {
    const path = [...base, ...i.path];
    if (i.code === 'invalid_union' && i.errors.length > 0) {
      const typed = i.errors.filter((b) => !b.some((e) => e.path.length === 0 && e.code === 'invalid_type'));
      // Of the branches the input's type fits, the one whose fields it has (fewest unknown or missing fields at its top).
      const misfit = (b: readonly z.core.$ZodIssue[]) => b.filter((e) => (e.path.length === 0 && e.code === 'unrecognized_keys')
        || (e.path.length === 1 && e.code === 'invalid_type' && /received undefined$/.test(e.message))).length;
      const fit = typed.filter((b) => misfit(b) === Math.min(...typed.map(misfit)));
      const branch = fit.length > 0 ? fit[fit.length - 1] : i.errors[0];
      out.push(...zodProblems(branch, schemaFile, path));
    } else if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) out.push({ path: [...path, k], message: `unknown field (check the spelling; see ${schemaFile})` });
    } else if (i.code === 'invalid_type' && /received undefined$/.test(i.message)) {
      out.push({ path, message: `required field is missing (expected ${i.expected === 'tuple' ? 'a pair [row player, column player]' : i.expected})` });
    } else if (i.code === 'invalid_type' && i.expected === 'number') {
      out.push({ path, message: `expected a finite number (${i.message.replace(/^.*received /, 'got ')})` });
    } else {
      out.push({ path, message: i.message });
    }
  }
  return out;
}

/** Problems a YAML document's error shows, at most; the rest are counted on one closing line. */
export const SHOWN_PROBLEMS = 8;

/**
 * End the read when problems were found: one `field(line, path, message)` line for each of the
 * first SHOWN_PROBLEMS, then how many more (designs, context-enrichment designs, log formats).
 */
export function throwProblems(found: readonly Problem[], doc: Document, lc: LineCounter,
  field: (line: number | undefined, path: string, message: string) => string): void {
  if (found.length === 0) return;
  const shown = found.slice(0, SHOWN_PROBLEMS).map((p) => field(problemLine(doc, lc, p), formatPath(p.path), p.message));
  if (found.length > shown.length) shown.push(msg.moreProblems(found.length - shown.length));
  throw new UserError(shown.join('\n'));
}

/**
 * The document line a problem points to: its field's line, or, inside a literal block (`|`), the
 * line of the value where the fault is (the block's text starts on the line after its indicator).
 */
export function problemLine(doc: Document, lc: LineCounter, p: Problem): number | undefined {
  const line = lineOf(doc, lc, p.path);
  const node = doc.getIn(p.path as unknown[], true);
  return p.valueLine !== undefined && line !== undefined && isScalar(node) && node.type === 'BLOCK_LITERAL' ? line + p.valueLine : line;
}

/** The 1-based line of the deepest node on the path that exists in the document. */
export function lineOf(doc: Document, lc: LineCounter, path: Path): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return undefined;
}

/**
 * A YAML document that must be a mapping, with its line counter. A syntax error or an alias that
 * would expand without bound (yaml refuses billion laughs) ends in `syntax(line, detail)`; a
 * document that is not a mapping in `notMapping()`.
 */
export function parseYamlMapping(text: string, syntax: (line: number | undefined, detail: string) => string,
  notMapping: () => string): { doc: Document; lc: LineCounter; data: object } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new UserError(syntax(e.linePos?.[0]?.line, e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')));
  }
  let data: unknown;
  try {
    data = doc.toJS();
  } catch (e) {
    throw new UserError(syntax(undefined, e instanceof Error ? e.message : String(e)));
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UserError(notMapping());
  return { doc, lc, data };
}
