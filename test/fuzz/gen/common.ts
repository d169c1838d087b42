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
