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
  const why = templateProblem(text, known, needsPlaceholder);
  if (why === undefined) return undefined;
  if (file !== undefined) return { path, message: designMsg.fileFault(file, why) };
  const line = templateFault(text, known, needsPlaceholder)?.line;
  return { path, message: why, ...(line === undefined ? {} : { valueLine: line }) };
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
