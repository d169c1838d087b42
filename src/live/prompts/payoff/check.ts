/**
 * The payoff rule on one clause (docs/methods.md §18b): the actions a clause names, in the roles
 * it gives them, decide one outcome XY (X your action, Y the other's); every payoff placeholder in
 * the clause must be a payoff of that outcome, and given to the player it belongs to when the
 * clause says whose it is. A clause that holds a payoff but whose actions decide no single outcome
 * is undecided (a warning), never passed as checked.
 */
import { BOUNDARY, clauseText, type Atom, type Clause } from './clauses.js';
import { roleNear, type DeclaredNames, type Role } from './roles.js';

/** What a payoff placeholder states: whose payoff, of which outcome (X your action, Y the other's). */
export interface PayoffMeaning {
  readonly who: 'you' | 'other';
  readonly outcome: string;
}

/** The meanings of a placeholder, or undefined when it is not a single payoff ({T} of a fact means two). */
export type Meanings = (name: string) => readonly PayoffMeaning[] | undefined;

export type Verdict =
  | { readonly kind: 'fault'; readonly line: number; readonly clause: string; readonly outcome: string; readonly placeholder: string;
      readonly stated: string; readonly recipient?: 'you' | 'other' }
  | { readonly kind: 'undecided'; readonly line: number; readonly clause: string; readonly placeholders: readonly string[]; readonly why: Undecided };

export type Undecided = 'no-action' | 'one-action' | 'roles' | 'outcomes' | 'negation';

/** `named`: no role word, but a name next to it ("If Bob picks {D}"), so the matrix order cannot be assumed. */
type Placed = { readonly name: string; readonly line: number; readonly fallback?: Role; readonly role?: Role; readonly named?: boolean };

/** Capitalised words that open a clause or a phrase and name no player. */
const NOT_NAMES = new Set(['if', 'when', 'whenever', 'should', 'suppose', 'once', 'and', 'but', 'then', 'so', 'as', 'the', 'a', 'an', 'in', 'on', 'at', 'for',
  'with', 'by', 'of', 'to', 'this', 'that', 'points', 'payoff', 'payoffs', 'outcome', 'result', 'question', 'answer']);
const nameIn = (words: string) => [...words.split(/[,:;]/).pop()!.matchAll(/(?<![\p{L}])\p{Lu}[\p{L}'-]*/gu)].some((m) => !NOT_NAMES.has(m[0].toLowerCase()));

/** Words that make a clause speak of more than one outcome or of an action not taken. */
const NEGATION_WORDS = ['not', 'never', 'neither', 'nor', 'unless', 'instead', 'rather than', 'except', 'without', 'whatever', 'whichever', 'regardless',
  'no matter', 'either'];
const NEGATION = new RegExp(`(?<![\\p{L}])(?:${NEGATION_WORDS.join('|')})(?![\\p{L}])|n't(?![\\p{L}])`, 'iu');

const textOf = (atoms: readonly Atom[]) => atoms.map((a) => ('text' in a ? a.text : ' ')).join('');

/**
 * The role each placeholder of a clause is given by the words between it and its neighbours
 * (roles.ts, roleNear): those before it, else those after it, else a table header's.
 */
function placed(atoms: readonly Atom[], names: DeclaredNames): Placed[] {
  const out: Placed[] = [];
  // The index of each atom's next placeholder (−1: none), in one pass from the end: linear in the clause's atoms.
  const nextName: number[] = new Array<number>(atoms.length);
  for (let j = atoms.length - 1, n = -1; j >= 0; j--) { nextName[j] = n; if ('name' in atoms[j]) n = j; }
  let prev = -1;
  atoms.forEach((a, i) => {
    if (!('name' in a)) return;
    const next = nextName[i];
    const before = textOf(atoms.slice(prev + 1, i)).split(BOUNDARY).pop()!;
    const after = textOf(atoms.slice(i + 1, next < 0 ? atoms.length : next)).split(BOUNDARY)[0];
    const role = roleNear(before, names, 'before') ?? roleNear(after, names, 'after') ?? a.fallback;
    out.push({ name: a.name, line: a.line, ...(role === undefined ? (nameIn(before) ? { named: true } : {}) : { role }) });
    prev = i;
  });
  return out;
}

/**
 * Roles for the placeholders that have none: two without any role are yours then the other's
 * (the order of a payoff matrix: row, column) unless a name stands next to one; one beside placeholders of a single player's role
 * is the other player's. Undefined when they stay open.
 */
function settle(xs: readonly Placed[], pairOnly: boolean): Placed[] | undefined {
  const given = new Set(xs.flatMap((x) => (x.role === undefined ? [] : [x.role])));
  if (given.size === 0) {
    if (xs.length === 2 && !xs.some((x) => x.named)) return [{ ...xs[0], role: 'you' }, { ...xs[1], role: 'other' }];
    return pairOnly ? undefined : [...xs];
  }
  const open = given.size === 1 && !given.has('both') ? (given.has('you') ? 'other' : 'you') : undefined;
  if (open === undefined) return xs.every((x) => x.role !== undefined) || !pairOnly ? [...xs] : undefined;
  return xs.map((x) => (x.role === undefined ? { ...x, role: open } : x));
}

/** The outcome (XY) the actions decide, or why they decide none. */
function outcomeOf(actions: readonly Placed[]): string | Undecided {
  if (actions.length === 0) return 'no-action';
  const settled = settle(actions, true);
  if (settled === undefined) return actions.length === 1 ? 'one-action' : 'roles';
  const of = (r: 'you' | 'other') => new Set(settled.filter((a) => a.role === r || a.role === 'both').map((a) => a.name));
  const [x, y] = [of('you'), of('other')];
  if (x.size > 1 || y.size > 1) return 'outcomes';
  if (x.size === 0 || y.size === 0) return actions.length === 1 ? 'one-action' : 'roles';
  return `${[...x][0]}${[...y][0]}`;
}

/** The first placeholder of the clause that contradicts the outcome, as a fault. */
function contradiction(payoffs: readonly Placed[], outcome: string, meanings: Meanings, clause: string): Verdict | undefined {
  for (const p of settle(payoffs, false) ?? payoffs) {
    const ms = meanings(p.name)!;
    const recipient = p.role === 'you' || p.role === 'other' ? p.role : undefined;
    const same = ms.filter((m) => m.outcome === outcome);
    const base = { kind: 'fault' as const, line: p.line, clause, outcome, placeholder: p.name };
    if (same.length === 0) return { ...base, stated: ms[0].outcome };
    if (recipient !== undefined && !same.some((m) => m.who === recipient)) return { ...base, stated: outcome, recipient };
  }
  return undefined;
}

/** The verdict on one clause: undefined when it holds no payoff or follows the rule. */
export function checkClause(c: Clause, meanings: Meanings, names: DeclaredNames): Verdict | undefined {
  const isAction = (n: string) => n === 'C' || n === 'D';
  const all = placed(c.atoms, names);
  const payoffs = all.filter((p) => meanings(p.name) !== undefined);
  if (payoffs.length === 0) return undefined;
  const clause = clauseText(c);
  const undecided = (why: Undecided): Verdict => ({ kind: 'undecided', line: payoffs[0].line, clause, placeholders: payoffs.map((p) => p.name), why });
  if (NEGATION.test(textOf(c.atoms))) return undecided('negation');
  const own = all.filter((p) => isAction(p.name));
  let outcome = outcomeOf(own);
  if (outcome.length !== 2 && c.leadIn !== undefined) {
    const lead = settle(placed(c.leadIn.atoms, names).filter((p) => isAction(p.name)), true);
    if (lead !== undefined) outcome = outcomeOf([...lead, ...own]);
  }
  if (outcome.length !== 2) return undecided(outcome as Undecided);
  return contradiction(payoffs, outcome, meanings, clause);
}
