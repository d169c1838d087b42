/**
 * What every generated case shares: a seeded stream (mulberry32), and the contract each case is
 * judged by — exit 0, 2 or 3 within its bound, no stack trace, nothing left behind by a refusal.
 */
import { existsSync, readdirSync } from 'node:fs';
import { runInProcess, STACK, type Outcome } from '../../helpers/in-process.js';

export function stream(seed: number): { next(): number; int(n: number): number; pick<T>(xs: readonly T[]): T } {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}

/** A generated case: its name, the argv to run, what a refusal must leave absent, and the check of an accepted run. */
export interface FuzzCase {
  readonly name: string;
  readonly argv: readonly string[];
  /** Paths that must not exist after exit 2 (outputs). */
  readonly outputs: readonly string[];
  /** Bound of the case in ms. */
  readonly boundMs?: number;
  /** For exit 0 or 3: problems found comparing the outputs with an independent count (empty when they agree). */
  readonly accepted?: (o: Outcome) => string[] | Promise<string[]>;
  /** After any exit: problems with what the run left (a replaced file, a lock still held …). */
  readonly after?: (o: Outcome) => string[];
}

/** Run the cases one after another; the problems found, and the tally of exit codes. */
export async function judge(cases: readonly FuzzCase[]): Promise<{ problems: string[]; tally: Map<string, number> }> {
  const problems: string[] = [];
  const tally = new Map<string, number>();
  for (const c of cases) {
    // A rejection nobody awaits would end the binary with a stack trace: here it is the case's problem.
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => { unhandled.push(e); };
    process.on('unhandledRejection', onUnhandled);
    const r = await runInProcess([...c.argv], c.boundMs ?? 20_000);
    await new Promise((resolve) => setTimeout(resolve, 0));
    process.off('unhandledRejection', onUnhandled);
    for (const e of unhandled) problems.push(`${c.name}: an unhandled rejection (the binary would crash): ${e instanceof Error ? e.message : String(e)}`);
    tally.set(String(r.code), (tally.get(String(r.code)) ?? 0) + 1);
    const say = (what: string) => problems.push(`${c.name}: ${what}\n  ${r.stderr.slice(0, 400).replace(/\n/g, '\n  ')}`);
    if (r.code !== 0 && r.code !== 2 && r.code !== 3) say(`ended with ${r.code}`);
    if (STACK.test(r.stderr)) say('printed a stack trace');
    if (r.code === 2) {
      if (r.stderr.trim() === '') say('exit 2 without a message');
      for (const p of c.outputs) if (existsSync(p)) say(`exit 2 but left ${p}${safeList(p)}`);
    }
    if ((r.code === 0 || r.code === 3) && c.accepted) for (const p of await c.accepted(r)) say(p);
    if (c.after) for (const p of c.after(r)) say(p);
  }
  return { problems, tally };
}

const safeList = (p: string) => { try { return ` (${readdirSync(p).join(', ')})`; } catch { return ''; } };

export const summary = (what: string, n: number, j: { problems: string[]; tally: Map<string, number> }) =>
  `${what}: ${n} cases; ${[...j.tally].sort().map(([k, v]) => `exit ${k}: ${v}`).join(', ')}; ${j.problems.length} problems`;

/** The error lines of a run ("samegame: …"). */
export const errorLines = (o: Outcome): string[] => o.stderr.split('\n').filter((l) => l.startsWith('samegame:'));

/**
 * The check of a case the contract says must be refused: exit 2 with one error line, no raw
 * control character in what was printed (a multi-problem description may list further lines, each
 * naming its file).
 */
export function mustRefuse(what: string, file?: string): (o: Outcome) => string[] {
  return (o) => {
    const problems: string[] = [];
    if (o.code !== 2) problems.push(`${what} was not refused (exit ${o.code})`);
    else if (errorLines(o).length !== 1) problems.push(`${what}: ${errorLines(o).length} error lines`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/.test(o.stderr)) problems.push(`${what}: a raw control character was printed`);
    if (file !== undefined && o.code === 2 && !errorLines(o)[0]?.includes(file)) problems.push(`${what}: the error does not name ${file}`);
    return problems;
  };
}
