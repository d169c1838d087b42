/** Validation problems at document paths, and the lines they point to (one message: file, line, path). */
import type { z } from 'zod';
import { levelFault } from '../../core/names-rule.js';
import { templateFault, templateProblem } from '../prompts/template.js';
import { formatPath, zodProblems, type Path, type Problem } from '../../core/doc-problems.js';
import { designMsg } from './messages.js';
export { formatPath, lineOf, problemLine, type Path } from '../../core/doc-problems.js';

export type { Problem } from '../../core/doc-problems.js';

/**
 * The problem of a template written in the design at `path`, or undefined: the placeholder rule's
 * message (naming the template line) and the line of the fault within the value. `file`: the
 * template was read from this file (the message names it; the design line is the field's).
 */
export function templateFieldProblem(path: Path, text: string, known: readonly string[], needsPlaceholder: boolean, file?: string): Problem | undefined {
  const text_ = templateTextProblem(path, text, file);
  if (text_ !== undefined) return text_;
  const why = templateProblem(text, known, needsPlaceholder);
  if (why === undefined) return undefined;
  if (file !== undefined) return { path, message: designMsg.fileFault(file, why) };
  const line = templateFault(text, known, needsPlaceholder)?.line;
  return { path, message: why, ...(line === undefined ? {} : { valueLine: line }) };
}

/** A template (inline or read from a file) is at most 1 MiB of UTF-8, a story rather than a corpus. */
export const MAX_TEMPLATE_BYTES = 1 << 20;

/**
 * Characters a template may not hold: the control characters of the name rule (core/names-rule.ts)
 * but tab and the line ends a story is written with. An ESC, BEL or NUL would reach the prompt a
 * provider is sent and the terminal `prompts` prints it to.
 */
// eslint-disable-next-line no-control-regex
const TEMPLATE_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/;

/** The problem of a template's text itself (size, control characters), before its placeholders are read. */
function templateTextProblem(path: Path, text: string, file?: string): Problem | undefined {
  const bytes = text.length > MAX_TEMPLATE_BYTES / 3 ? Buffer.byteLength(text) : 0;
  const say = (why: string) => (file === undefined ? why : designMsg.fileFault(file, why));
  if (bytes > MAX_TEMPLATE_BYTES) return { path, message: say(designMsg.templateTooLarge(bytes, MAX_TEMPLATE_BYTES)) };
  const m = TEMPLATE_CONTROL.exec(text);
  if (m === null) return undefined;
  const line = text.slice(0, m.index).split('\n').length;
  const code = `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return { path, message: say(designMsg.templateControl(code, line)), ...(file === undefined ? { valueLine: line } : {}) };
}

/** Zod issues of a design as problems at document paths (core/doc-problems.ts). */
export const problems = (issues: readonly z.core.$ZodIssue[], base: Path = []): Problem[] =>
  zodProblems(issues, 'data/designs/design.schema.json', base);

/** The kinds of id that become a level of a stored cell (its model, game, framing or a factor). */
const LEVEL_KINDS = ['model', 'game', 'framing', 'condition', 'world', 'format'] as const;
const levelKind = (kind: string) => (LEVEL_KINDS as readonly string[]).includes(kind);

/**
 * A problem for every id that a reader of the store would refuse as a level: the readers' one
 * name rule (core/names-rule.ts: control characters, the length limit, the tables' reserved names).
 */
export function levelProblems(kind: string, ids: readonly string[], path: (i: number) => Path): Problem[] {
  const out: Problem[] = [];
  ids.forEach((v, i) => {
    const fault = levelFault(kind, v);
    if (fault !== undefined) out.push({ path: path(i), message: designMsg.levelId(kind, fault) });
  });
  return out;
}

/** A problem for every id a reader would refuse as a level, and every id that repeats an earlier one, naming where it was first given. */
export function idProblems(kind: string, ids: readonly string[], path: (i: number) => Path): Problem[] {
  const out: Problem[] = levelKind(kind) ? levelProblems(kind, ids, path) : [];
  const first = new Map<string, number>();
  ids.forEach((v, i) => {
    const f = first.get(v);
    if (f === undefined) first.set(v, i);
    else out.push({ path: path(i), message: designMsg.duplicateId(kind, v, formatPath(path(f))) });
  });
  return out;
}
