/**
 * The CLI prints a warning as "warning: <message>", so a message given to logger.warn starts in
 * lower case (a name such as GPT-4 or a figure id aside). Every message function that src/ passes
 * to a `.warn(` call is found by a scan of the source, called, and its text checked; the notes
 * built elsewhere that reach the logger are checked where they are made.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { choosePlayers } from '../../src/analyses/repeated/players.js';
import { omittedText } from '../../src/analyses/two-framing/report.js';
import { notes as metaNotes } from './warn-messages-meta.js';

const FILES = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
/** The message files: the shared ones in core/messages/ and each folder's own messages.ts. */
const MODULES = FILES.filter((f) => /^core\/messages\/[^/]+\.ts$|(^|\/)([\w-]+-)?messages\.ts$/.test(f));
const sources = FILES.map((f) => readFileSync(join(ROOT, 'src', f), 'utf8'));
/** Every message function named on a line that calls .warn( (both arms of a conditional too). */
const warned = [...new Set(sources.flatMap((s) => s.split('\n').filter((l) => l.includes('.warn('))
  .flatMap((l) => [...l.matchAll(/\b(\w*[mM]sg\w*)\.(\w+)\(/g)].map((m) => `${m[1]}.${m[2]}`))))];

/** A message's text from arguments of several shapes (numbers, strings, lists), the first that works. */
function textOf(f: (...a: unknown[]) => unknown): string {
  for (const arg of [3, 'x', ['a', 'b']]) {
    try {
      const t = f(...Array.from({ length: Math.max(f.length, 1) }, () => arg));
      if (typeof t === 'string') return t;
    } catch { /* the next shape */ }
  }
  throw new Error('no argument shape gives a text');
}

const lowerStart = (t: string) => !/^[A-Z][a-z]/.test(t);

describe('messages given to logger.warn start in lower case', () => {
  it('every message function passed to a .warn( call', async () => {
    const objects: Record<string, Record<string, (...a: unknown[]) => unknown>> = {};
    for (const m of MODULES) Object.assign(objects, await import(join(ROOT, 'src', m)));
    expect(warned.length).toBeGreaterThan(10);
    expect(warned.filter((w) => typeof objects[w.split('.')[0]]?.[w.split('.')[1]] !== 'function'), 'named but not found').toEqual([]);
    const capital = warned.filter((w) => {
      const [o, f] = w.split('.');
      return !lowerStart(textOf(objects[o][f]));
    });
    expect(capital).toEqual([]);
  });

  it('the notes that reach the logger: scripted players, figures not drawn, meta notes', () => {
    const d = (model: string) => ({ model, opponent: 'x', match: 'm', round: 1, action: 'C' });
    const chosen = choosePlayers({ decisions: [d('GPT-4'), d('Always J')], scripted: ['Always J'] } as never);
    expect(chosen.notes!.length).toBe(1);
    for (const n of [...chosen.notes!, omittedText([{ id: 'cell-r2', rows: 600 }]), ...metaNotes()]) expect(n, n).toSatisfy(lowerStart);
  });
});
