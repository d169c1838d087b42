/**
 * The name rule (README "Names", core/names-rule.ts) for the values a log format makes: every
 * model, opponent, game, framing and factor level of a row is a name — no control character, at
 * most 256 characters, not a level the tables keep for their own rows (model `Pooled`, game `All`,
 * a player `self`: the opponent level of self-play), not empty — or the row is refused naming file, line and the field it came from. The constants of
 * a description are held to the same rule when it is read.
 */
import { UserError } from '../../core/errors.js';
import { at, msg } from '../../core/messages/common.js';
import { levelFault, nameFault } from '../../core/names-rule.js';
import { SELF_OPPONENT } from '../../core/decisions.js';
import type { Path, Problem } from '../../core/doc-problems.js';
import type { ValueSpec } from './schema.js';
import { specColumns, type LogRow } from './values.js';
import { sourcesLogsMsg } from './messages.js';

/** The level a value of the format is (for the reserved names) and the field a message names. */
export interface NamedValue { readonly level: string; readonly field: string }

/** The field a value is reported under: the column it reads (a template's first), else its place in the format. */
export function valueField(spec: ValueSpec, place: string): string {
  return specColumns(spec)[0] ?? place;
}

/** Checks each distinct (level, value) once per file. */
export class RowNames {
  private readonly ok = new Set<string>();

  /** The value, when it is a name of its level; else UserError naming file, line and field. */
  check(row: LogRow, n: NamedValue, value: string): string {
    const key = `${n.level}\u0000${value}`;
    if (this.ok.has(key)) return value;
    if (value === '') throw new UserError(msg.missingField(row.file, row.line, n.field));
    const fault = levelFault(n.level, value);
    if (fault !== undefined) throw new UserError(at(row.file, row.line, n.field, fault));
    // The cell tables name a model's matches against itself `self`: a player of that name would join them.
    if ((n.level === 'model' || n.level === 'opponent') && value === SELF_OPPONENT) throw new UserError(sourcesLogsMsg.selfName(row.file, row.line, n.field));
    this.ok.add(key);
    return value;
  }
}

/** The values of a format that are names (the others: match, round, seat, the label map's key). */
const NAMED = new Set(['game', 'framing', 'model', 'opponent', 'factor']);

/** A description's constants and factor names that no row could use: each a problem at its path. */
export function constantProblems(specs: ReadonlyArray<readonly [Path, ValueSpec]>): Problem[] {
  const out: Problem[] = [];
  for (const [path, spec] of specs) {
    const factor = path.includes('factors');
    const level = factor ? 'factor' : String(path[0] === 'seats' ? path[2] : path[0]);
    if (factor) {
      const fault = nameFault(String(path[path.length - 1]));
      if (fault !== undefined) out.push({ path, message: fault });
    }
    if (!NAMED.has(level) || !('constant' in spec)) continue;
    const fault = levelFault(level, spec.constant);
    if (fault !== undefined) out.push({ path: [...path, 'constant'], message: fault });
  }
  return out;
}
