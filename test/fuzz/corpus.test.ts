/**
 * The committed fuzz corpus (test/fuzz/generate.mjs writes it) through the CLI, in-process through
 * main(argv) with stdout and stderr captured: every case must end with exit 0, 2 or 3, print no
 * stack trace, write nothing when it exits 2, and not hang.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess as runCase, STACK, type Outcome } from '../helpers/in-process.js';

const HERE = new URL('.', import.meta.url).pathname;
const files = (dir: string) => readdirSync(join(HERE, dir)).sort().map((f) => join(HERE, dir, f));

const tmp = mkdtempSync(join(tmpdir(), 'samegame-fuzz-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Case { name: string; argv: (out: string) => string[]; out: (dir: string) => string }

/**
 * A case that has not ended after this long is reported as a hang, by name. A guard, not a timing
 * test: cases take well under a second, and a starved machine once stretched one past 10 s.
 */
const HANG_MS = 120_000;

function cases(): Case[] {
  const list: Case[] = [];
  for (const f of files('rates')) {
    // report: the reader, the analysis and the HTML report of reproduce, without drawing PNGs
    // (~4 s a case on a busy machine); names through the PNG renderer have their own property test.
    list.push({ name: `report ${f.slice(HERE.length)}`, out: (d) => join(d, 'out'), argv: (o) => ['report', '--data', f, '--out', o, '--reps', '40', '-q'] });
  }
  for (const f of files('designs')) {
    list.push({ name: `run --dry-run ${f.slice(HERE.length)}`, out: (d) => join(d, 's.sqlite'), argv: (o) => ['run', f, '--dry-run', '--store', o] });
    list.push({ name: `prompts ${f.slice(HERE.length)}`, out: (d) => join(d, 'prompts'), argv: (o) => ['prompts', f, '--out', o] });
  }
  for (const f of files('stores')) {
    // A copy: the committed store stays as generated whatever a command does to it.
    const copy = (d: string) => { const p = join(d, 'store.sqlite'); if (!existsSync(p)) copyFileSync(f, p); return p; };
    // analyze draws figures (~4 s a case here); the undamaged stores' analysis is tested in test/cli.
    if (!/\/\d+-valid/.test(f)) list.push({ name: `analyze ${f.slice(HERE.length)}`, out: (d) => join(d, 'out'), argv: (o) => ['analyze', copy(join(o, '..')), '--out', o, '--reps', '40', '-q'] });
    list.push({ name: `export ${f.slice(HERE.length)}`, out: (d) => join(d, 'trials.jsonl'), argv: (o) => ['export', copy(join(o, '..')), '--format', 'jsonl', '--out', o] });
    // coverage reads the store its own way (cells in the store's order): the same one-line errors.
    if (!/\/\d+-valid/.test(f)) list.push({ name: `coverage ${f.slice(HERE.length)}`, out: (d) => join(d, 'cov'), argv: (o) => ['coverage', copy(join(o, '..')), '--out', o, '--sims', '2', '--reps', '40', '-q'] });
  }
  return list;
}

describe('fuzz corpus', () => {
  it('has the promised size', () => {
    expect(files('rates').length).toBeGreaterThanOrEqual(150);
    expect(files('designs').length).toBeGreaterThanOrEqual(60);
    expect(files('stores').length).toBeGreaterThanOrEqual(20);
  });

  it('every case: exit 0, 2 or 3, no stack trace, nothing written on exit 2, no hang', async () => {
    const all = cases();
    const problems: string[] = [];
    const tally = new Map<string, number>();
    const timings: [string, number, Outcome['code']][] = [];
    for (const [i, c] of all.entries()) {
      const dir = join(tmp, String(i));
      mkdirSync(dir);
      const out = c.out(dir);
      const t0 = performance.now();
      const r = await runCase(c.argv(out), HANG_MS);
      timings.push([c.name, Math.round(performance.now() - t0), r.code]);
      tally.set(String(r.code), (tally.get(String(r.code)) ?? 0) + 1);
      const say = (what: string) => problems.push(`${c.name}: ${what}\n${r.stderr.slice(0, 600)}`);
      if (r.code !== 0 && r.code !== 2 && r.code !== 3) say(`ended with ${r.code}`);
      if (STACK.test(r.stderr)) say('printed a stack trace');
      if (r.code === 2 && existsSync(out)) say('exit 2 but wrote output');
      if (r.code === 2 && r.stderr.trim() === '') say('exit 2 without a message');
    }
    // The summary line the issue asks for, e.g. "fuzz corpus: 427 cases; exit 0: 60, exit 2: 360, exit 3: 7".
    console.log(`fuzz corpus: ${all.length} cases; ${[...tally].sort().map(([k, n]) => `exit ${k}: ${n}`).join(', ')}; ${problems.length} problems`);
    if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ timings, problems }, null, 1));
    expect(problems).toEqual([]);
  }, 1_800_000);
});
