/**
 * What the CLI refusal tests share: a scratch folder, the shipped rates and a valid design to
 * damage, the one-line check of a refusal on stderr, and the shipped rates with models renamed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './cli.js';
import { STACK } from './in-process.js';

const SHIPPED = readFileSync(join(ROOT, 'data/lore-heydari-2024/rates.csv'), 'utf8');

export const refusalKit = {
  tmp: () => mkdtempSync(join(tmpdir(), 'samegame-hard-')),
  SHIPPED,
  DESIGN: join(ROOT, 'test/fixtures/designs/valid-custom.yaml'),
  /** One line on stderr, starting "samegame: " (commander's flag errors add a usage hint line). */
  oneLine(stderr: string): string {
    const lines = stderr.trim().split('\n').filter((l) => !l.startsWith('(run with --help'));
    expect(lines, stderr).toHaveLength(1);
    expect(stderr).not.toMatch(STACK);
    return lines[0];
  },
  /** The shipped rates with every occurrence of a model renamed. */
  renamed(pairs: [string, string][]): string {
    let t = SHIPPED;
    for (const [a, b] of pairs) t = t.split('\n').map((l) => (l.startsWith(`${a},`) ? `${b.includes(',') || b.includes('"') ? `"${b.replace(/"/g, '""')}"` : b}${l.slice(a.length)}` : l)).join('\n');
    return t;
  },
};

/** A refusal: exit 2, one line on stderr matching `pattern`, no stack trace. */
export function refusedInOneLine(r: { code: unknown; stderr: string }, pattern: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}
