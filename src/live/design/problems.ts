/** Validation problems at document paths, and the lines they point to (one message: file, line, path). */
import type { z } from 'zod';
import { liveMsg } from '../../core/messages/live.js';
import { RESERVED_LEVELS } from '../../core/names.js';
import { formatPath, zodProblems, type Path, type Problem } from '../../core/doc-problems.js';
export { formatPath, lineOf, type Path, type Problem } from '../../core/doc-problems.js';

/** Zod issues of a design as problems at document paths (core/doc-problems.ts). */
export const problems = (issues: readonly z.core.$ZodIssue[], base: Path = []): Problem[] =>
  zodProblems(issues, 'data/designs/design.schema.json', base);

/** A problem for every id that repeats an earlier one, naming where it was first given. */
export function idProblems(kind: string, ids: readonly string[], path: (i: number) => Path): Problem[] {
  const out: Problem[] = [];
  // Tables name their pooled rows "Pooled" and per-model rows "All" (src/estimands/names.ts).
  const reserved: readonly string[] = kind === 'model' ? RESERVED_LEVELS.model : kind === 'game' ? RESERVED_LEVELS.game : [];
  ids.forEach((v, i) => { if (reserved.includes(v)) out.push({ path: path(i), message: liveMsg.reservedId(kind, v) }); });
  const first = new Map<string, number>();
  ids.forEach((v, i) => {
    const f = first.get(v);
    if (f === undefined) first.set(v, i);
    else out.push({ path: path(i), message: liveMsg.duplicateId(kind, v, formatPath(path(f))) });
  });
  return out;
}
