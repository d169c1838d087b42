/**
 * Inputs that once crashed, hung or were silently accepted: names that collide with JavaScript
 * object keys or carry control characters, output paths that cannot be written, YAML alias bombs,
 * numeric flags out of range, a closed pipe, duplicate headers, CR-only line endings, slashes in
 * levels, damaged stores, unrelated SQLite files, bad provider flags, audit's exit code and
 * Markdown made from hostile names. Each case runs the CLI (in-process unless it needs a pipe).
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRates } from '../../src/sources/rates-csv.js';
import { runInProcess as run, STACK } from '../helpers/in-process.js';
import { startCli, ROOT } from '../helpers/cli.js';
import { counts, writeStore } from '../helpers/store.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-hard-'));
const SHIPPED = readFileSync(join(ROOT, 'data/lore-heydari-2024/rates.csv'), 'utf8');
const DESIGN = join(ROOT, 'test/fixtures/designs/valid-custom.yaml');

/** One line on stderr, starting "samegame: " (commander's flag errors add a usage hint line). */
function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n').filter((l) => !l.startsWith('(run with --help'));
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(STACK);
  return lines[0];
}

/** The shipped rates with every occurrence of a model renamed. */
const renamed = (pairs: [string, string][]) => {
  let t = SHIPPED;
  for (const [a, b] of pairs) t = t.split('\n').map((l) => (l.startsWith(`${a},`) ? `${b.includes(',') || b.includes('"') ? `"${b.replace(/"/g, '""')}"` : b}${l.slice(a.length)}` : l)).join('\n');
  return t;
};

describe('names', () => {
  it('models named constructor, toString and __proto__ go through reproduce with figures', async () => {
    const d = tmp();
    writeFileSync(join(d, 'r.csv'), renamed([['GPT-3.5', 'constructor'], ['GPT-4', 'toString'], ['LLaMa-2', '__proto__']]));
    const r = await run(['reproduce', '--data', join(d, 'r.csv'), '--out', join(d, 'o'), '--reps', '200', '-q'], 120_000);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^constructor\s/m);
    expect(r.stdout).toMatch(/^__proto__\s/m);
    expect(readdirSync(join(d, 'o', 'figures')).filter((f) => f.endsWith('.png')).length).toBeGreaterThan(3);
    expect(readFileSync(join(d, 'o', 'figures', 'table3-forest.svg'), 'utf8')).toContain('toString');
  }, 180_000);

  it.each([
    ['NUL', 'GPT\u00003.5', 'U+0000'], ['ANSI escape', '\u001b[31mRED\u001b[0m', 'U+001B'], ['unit separator', 'X\u001fY', 'U+001F'],
    ['DEL', 'a\u007fb', 'U+007F'], ['C1 NEL', 'a\u0085b', 'U+0085'], ['tab', 'a\tb', 'U+0009'],
  ])('a %s in a level: one line naming file, line and field; nothing written', async (_k, name, code) => {
    const d = tmp();
    const f = join(d, 'r.csv');
    writeFileSync(f, renamed([['GPT-4', name]]));
    const line = SHIPPED.split('\n').findIndex((l) => l.startsWith('GPT-4,')) + 1;
    const r = await run(['reproduce', '--data', f, '--out', join(d, 'o'), '--reps', '50']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(`samegame: ${f}:${line}: field "model": contains the control character ${code} (names may hold any printable character, no control characters)`);
    expect(existsSync(join(d, 'o'))).toBe(false);
  });

  it('a slash inside a level does not make distinct cells duplicates', () => {
    const d = tmp();
    const f = join(d, 'r.csv');
    writeFileSync(f, 'model,game,framing,n,rate\nA / B,C,business,10,0.5\nA / B,C,friend-sharing,10,0.2\nA,B / C,business,10,0.4\nA,B / C,friend-sharing,10,0.1\n');
    const input = readRates(f, { base: 'business', alt: 'friend-sharing' });
    expect(input.rows.map((r) => [r.cell.key.model, r.cell.key.game])).toEqual([['A / B', 'C'], ['A / B', 'C'], ['A', 'B / C'], ['A', 'B / C']]);
  });
});

describe('rates headers and line endings', () => {
  it.each([['rate', 5, 6], ['n', 4, 6], ['model', 1, 6]])('a header with "%s" twice is refused on line 1', async (col, first, again) => {
    const d = tmp();
    const f = join(d, 'r.csv');
    const lines = ['model,game,framing,n,rate', 'A,G,business,10,0.5', 'A,G,friend-sharing,10,0.2'];
    const i = first - 1;
    writeFileSync(f, lines.map((l) => `${l},${l.split(',')[i]}`).join('\n') + '\n');
    const r = await run(['reproduce', '--data', f, '--out', join(d, 'o')]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(`samegame: ${f}:1: field "${col}": column appears twice in the header (columns ${first} and ${again})`);
  });

  it('CR-only line endings: a bad value on line 11 is reported on line 11', async () => {
    const d = tmp();
    const f = join(d, 'r.csv');
    writeFileSync(f, SHIPPED.trimEnd().split('\n').map((l, i) => (i === 10 ? l.replace(/^((?:[^,]*,){4})[^,]*/, '$1abc') : l)).join('\r') + '\r');
    const r = await run(['reproduce', '--data', f, '--out', join(d, 'o')]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(`samegame: ${f}:11: field "rate": "abc" is not a number`);
  });
});

describe('output paths: one line, exit 2, nothing written', () => {
  const d = tmp();
  const file = join(d, 'a-file');
  writeFileSync(file, 'x');
  const withReportsFile = join(d, 'has-reports-file');
  mkdirSync(withReportsFile);
  writeFileSync(join(withReportsFile, 'reports'), 'x');
  const store = join(d, 's.sqlite');
  writeStore(store, { name: 't' }, [{ model: 'M', game: 'stag-hunt', framing: 'business', actions: counts(3, 5) }]);
  const cases: [string, string[]][] = [];
  for (const cmd of ['reproduce', 'report', 'audit']) {
    for (const out of [file, join(file, 'x'), withReportsFile, '/proc/x']) cases.push([`${cmd} --out ${out}`, [cmd, '--out', out, '--reps', '50']]);
  }
  cases.push(['analyze --out FILE', ['analyze', store, '--out', file]], ['analyze --out /proc/x', ['analyze', store, '--out', '/proc/x']],
    ['prompts --out FILE', ['prompts', DESIGN, '--out', file]], ['prompts --out /proc/x', ['prompts', DESIGN, '--out', '/proc/x']],
    ['run --store FILE/x', ['run', DESIGN, '--store', join(file, 's.sqlite')]], ['run --store /proc/x/s.sqlite', ['run', DESIGN, '--store', '/proc/x/s.sqlite']],
    ['export --out DIR', ['export', store, '--format', 'csv', '--out', d]], ['export --out /proc/x/t.csv', ['export', store, '--format', 'csv', '--out', '/proc/x/t.csv']]);
  it.each(cases)('%s', async (_name, argv) => {
    const before = readdirSync(d).sort();
    const r = await run(argv);
    expect(r.code, r.stderr).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/^samegame: --(out|store) /);
    expect(readdirSync(d).sort()).toEqual(before);
  });
});

describe('designs and flags', () => {
  it('a YAML alias bomb is the one-line design error', async () => {
    const d = tmp();
    const f = join(d, 'bomb.yaml');
    const levels = Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`);
    writeFileSync(f, ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...levels].join('\n') + '\n');
    const r = await run(['run', f, '--dry-run']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(new RegExp(`^samegame: ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid YAML \\(.*alias`, 'i'));
  });

  it.each([
    ['--rpm', '1e-300'], ['--rpm', '0'], ['--tpm', '1e400'], ['--tpm', 'NaN'], ['--concurrency', '100000'], ['--timeout-ms', '99999999999'],
    ['--max-retries', '1000'], ['--price-in', '1e308'], ['--price-out', '-1'], ['--provider', 'nosuch'], ['--base-url', 'not a url'],
    ['--base-url', 'ftp://example.com'],
  ])('run %s %s: refused, naming the flag', async (flag, value) => {
    const r = await run(['run', DESIGN, '--dry-run', flag, value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${flag}: ${JSON.stringify(value)} is not`);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stdout).toBe('');
  });

  it.each([
    [['reproduce', '--reps', '2000000']], [['audit', '--search-reps', '0']], [['audit', '--reading-error', '1e9']],
    [['audit', '--threads', '0']], [['audit', '--threads', '2.5']], [['audit', '--threads', '65']],
    [['plan', '--data', join(ROOT, 'data/lore-heydari-2024/rates.csv'), '--target-halfwidth', '2']],
    [['plan', '--data', join(ROOT, 'data/lore-heydari-2024/rates.csv'), '--target-halfwidth', '0.1', '--max-n', '1000000000']],
    [['plan', '--data', join(ROOT, 'data/lore-heydari-2024/rates.csv'), '--target-halfwidth', '0.1', '--price', '1e308']],
  ])('%j: refused before any work', async (argv) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--[a-z-]+: ".*" is not/);
  });

  it('a closed pipe ends the command quietly with exit 0', async () => {
    const { child, done } = startCli(['prompts', DESIGN]);
    child.stdout!.destroy(); // the reader is gone before the first write, as with `| head -0`
    const r = await done;
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(r.code).toBe(0);
  }, 60_000);
});

describe('stores', () => {
  const make = (damage?: string) => {
    const d = tmp();
    const path = join(d, 's.sqlite');
    writeStore(path, { name: 't' }, [
      { model: 'M', game: 'stag-hunt', framing: 'business', probs: [0.2, 0.4, 0.6] },
      { model: 'M', game: 'stag-hunt', framing: 'friend-sharing', probs: [0.1, 0.3, 0.5] },
    ]);
    if (damage) { const db = new Database(path); db.exec(damage); db.close(); }
    return { d, path };
  };
  it.each([
    ['bad JSON in factors', "UPDATE trials SET factors = '{oops' WHERE rep = 0"],
    ['p_cooperate = 7.5', 'UPDATE trials SET p_cooperate = 7.5 WHERE rep = 1'],
    ['a table lacking a column', 'DROP INDEX trials_cells; ALTER TABLE trials DROP COLUMN factors'],
  ])('%s: analyze and export end with one line naming the store', async (_k, damage) => {
    const { d, path } = make(damage);
    for (const argv of [['analyze', path, '--out', join(d, 'o'), '--reps', '50'], ['export', path, '--format', 'jsonl', '--out', join(d, 't.jsonl')]]) {
      const r = await run(argv);
      if (argv[0] === 'export' && damage.includes('7.5')) { expect(r.code).toBe(0); continue; } // export shows what is stored
      expect(r.code, `${argv[0]}: ${r.stderr}`).toBe(2);
      expect(oneLine(r.stderr)).toMatch(new RegExp(`^samegame: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (the trial store is damaged|cannot open the trial store)`));
      expect(existsSync(join(d, 'o'))).toBe(false);
    }
  });

  it('run --store on an unrelated SQLite file refuses and adds nothing to it', async () => {
    const d = tmp();
    const path = join(d, 'other.sqlite');
    const db = new Database(path);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    db.close();
    const design = join(d, 'sim.yaml');
    writeFileSync(design, 'name: sim\nmodels:\n  - { id: S, provider: simulated }\ngames: [stag-hunt]\nframings: [business, friend-sharing]\ntrials: 1\n');
    const r = await run(['run', design, '--store', path]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(`samegame: ${path}: not a samegame trial store (no runs table)`);
    const after = new Database(path, { readonly: true });
    expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['invoices']);
    after.close();
  });
});

describe('verification and Markdown', () => {
  it('audit exits 3 where reproduce exits 3 (the same verification)', async () => {
    const d = tmp();
    const f = join(d, 'r.csv');
    // n = 7 and a reported rate of 0.500: no count out of 7 reproduces it (counts_reproduce_rates).
    writeFileSync(f, SHIPPED.replace(/^(GPT-4,Stag Hunt,business),300,[0-9.]+/m, '$1,7,0.500'));
    const rep = await run(['reproduce', '--data', f, '--out', join(d, 'r'), '--reps', '100', '-q'], 120_000);
    const aud = await run(['audit', '--data', f, '--out', join(d, 'a'), '--reps', '100', '--search-reps', '50', '-q'], 120_000);
    expect(rep.code, rep.stderr).toBe(3);
    expect(aud.code, aud.stderr).toBe(3);
    // audit warns first about the impossible rate (its consistency check); the error line is the same.
    const last = (t: string) => t.trim().split('\n').at(-1);
    expect(last(aud.stderr)).toBe(last(rep.stderr));
    expect(last(aud.stderr)).toBe('samegame: verification failed: counts_reproduce_rates');
    expect(aud.stderr).not.toMatch(STACK);
  }, 240_000);

  it('verification.md and audit.md carry hostile names as text, not markup', async () => {
    const d = tmp();
    const f = join(d, 'r.csv');
    // A zero rate makes a degenerate cell, which verification.md lists by name.
    const t = renamed([['GPT-4', '<img src=x onerror=alert(1)>'], ['LLaMa-2', '</script>']])
      .replace(/^(<img[^,]*,Stag Hunt,business),300,[0-9.]+/m, '$1,300,0.000');
    writeFileSync(f, t);
    const rep = await run(['report', '--data', f, '--out', join(d, 'o'), '--reps', '100', '-q'], 120_000);
    expect(rep.code, rep.stderr).toBe(0);
    const r2 = await run(['reproduce', '--data', f, '--out', join(d, 'o'), '--reps', '100', '-q'], 120_000);
    const aud = await run(['audit', '--data', f, '--out', join(d, 'o'), '--reps', '100', '--search-reps', '50', '-q'], 120_000);
    expect([r2.code, aud.code]).toEqual([0, 0]);
    for (const md of ['verification.md', 'audit.md']) {
      const text = readFileSync(join(d, 'o', 'reports', md), 'utf8');
      expect(text, md).not.toMatch(/<img|<\/script/i);
    }
    expect(readFileSync(join(d, 'o', 'reports', 'verification.md'), 'utf8')).toContain('&lt;img src=x onerror=alert(1)>');
    expect(readFileSync(join(d, 'o', 'reports', 'audit.md'), 'utf8')).toContain('&lt;/script>');
  }, 300_000);
});
