/**
 * Special files and full devices (fuzz suite): every reader of an input file refuses a FIFO, a
 * device (/dev/zero, /dev/null) and a directory as not a regular file before reading a byte (one
 * line naming the file), and every command whose standard output is a full device ends with one
 * line and exit 2, no stack trace.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { readInputFile } from '../../src/sources/reader-rules.js';
import { readNamesFile } from '../../src/sources/names-file.js';
import { loadDesign } from '../../src/live/design/design.js';
import { templateSource } from '../../src/live/design/framings.js';
import { loadLogFormat } from '../../src/sources/logs/description.js';
import { loadManifest } from '../../src/commands/meta-studies.js';
import { readEffects } from '../../src/sources/effects-csv.js';
import { readRates } from '../../src/sources/rates-csv.js';
import { runInProcess, STACK } from '../helpers/in-process.js';
import { BIN, ROOT } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'samegame-special-'));
const fifo = join(tmp, 'fifo');
let writer: ChildProcess | undefined;
const hasFifo = process.platform !== 'win32' && spawnSync('mkfifo', [fifo]).status === 0;

beforeAll(() => {
  // A writer that opens the FIFO once a reader does: a reader that opened it blocking (the fault
  // these tests guard against) would then read to the writer's end instead of hanging the suite.
  if (hasFifo) writer = spawn('sh', ['-c', 'sleep 30 > "$0"', fifo], { stdio: 'ignore' });
});
afterAll(() => {
  writer?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

/** What `f` throws, as a UserError's message. */
function refusal(f: () => unknown): string {
  try { f(); } catch (e) { if (e instanceof UserError) return e.message; throw e; }
  return '(read)';
}

const READERS: readonly [string, (p: string) => unknown][] = [
  ['input file', (p) => readInputFile(p, p)],
  ['rates', (p) => readRates(p)],
  ['effects', (p) => readEffects(p)],
  ['names file', (p) => readNamesFile(p)],
  ['design', (p) => loadDesign(p)],
  ['log format', (p) => loadLogFormat(p)],
  ['manifest', (p) => loadManifest(p)],
  ['template file', (p) => { const r = templateSource(undefined, p, join(tmp, 'design.yaml')); if ('problem' in r) throw new UserError(r.problem); return r; }],
];
const SPECIAL: readonly [string, string, RegExp][] = [
  ...(hasFifo ? [['a FIFO', fifo, /not a regular file: a FIFO/] as [string, string, RegExp]] : []),
  ['/dev/zero', '/dev/zero', /not a regular file: a device/],
  ['/dev/null', '/dev/null', /not a regular file: a device/],
  ['a directory', tmp, /EISDIR/],
];

describe('special files: refused as not a regular file before reading, by every reader', () => {
  it('every reader × every special file (property over the pairs): one line naming the file', () => {
    fc.assert(fc.property(fc.constantFrom(...READERS), fc.constantFrom(...SPECIAL), ([, read], [, path, why]) => {
      const t0 = Date.now();
      const m = refusal(() => read(path));
      expect(m.split('\n')).toHaveLength(1);
      expect(m).toContain(path);
      expect(m).toMatch(why);
      expect(Date.now() - t0).toBeLessThan(5_000);
    }), { numRuns: 4 * READERS.length * SPECIAL.length });
  });
  it.skipIf(!hasFifo)('a manifest\'s data file, a design\'s template_file and --names as a FIFO, through the CLI: exit 2, one line', async () => {
    writeFileSync(join(tmp, 'm.yaml'), 'studies:\n  - { id: s, data: fifo, base: business, alt: friend-sharing }\n');
    writeFileSync(join(tmp, 'd.yaml'), 'name: d\nmodels: [{ id: M, provider: simulated }]\ngames: [prisoners-dilemma]\n'
      + 'framings:\n  - business\n  - { id: s, template_file: fifo }\ntrials: 1\n');
    for (const argv of [['meta', join(tmp, 'm.yaml'), '--out', join(tmp, 'o1')], ['prompts', join(tmp, 'd.yaml')],
      ['reproduce', '--names', fifo, '--reps', '20', '--out', join(tmp, 'o2'), '-q']]) {
      const r = await runInProcess(argv, 60_000);
      expect([r.code, r.stderr.trim().split('\n').filter((l) => l.startsWith('samegame:')).length]).toEqual([2, 1]);
      expect(r.stderr).toMatch(/not a regular file: a FIFO/);
    }
  }, 120_000);
});

describe('standard output on a full device: one line, exit 2, no stack trace', () => {
  const full = process.platform === 'linux';
  it.skipIf(!full)('prompts, meta, plan and export --out - with standard output on /dev/full', () => {
    const dir = join(tmp, 'full');
    mkdirSync(dir);
    copyFileSync(join(ROOT, 'data/meta/same-game-sim-trials.csv'), join(dir, 'trials.csv'));
    writeFileSync(join(dir, 'effects.csv'), 'study,model,game,yi,vi\na,m,g,0.1,0.01\nb,m,g,0.3,0.02\nc,m,g,0.2,0.01\n');
    writeFileSync(join(dir, 'tiny.yaml'), 'name: tiny\nmodels: [{ id: M, provider: simulated }]\ngames: [prisoners-dilemma]\n'
      + 'framings: [business, friend-sharing]\ntrials: 2\n');
    const store = join(dir, 'tiny.sqlite');
    expect(spawnSync(process.execPath, [BIN, 'run', join(dir, 'tiny.yaml'), '--store', store], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    const cases = [
      ['prompts', join(ROOT, 'data/designs/quickstart.yaml')],
      ['meta', '--effects', join(dir, 'effects.csv'), '--out', join(dir, 'm')],
      ['plan', '--data', join(ROOT, 'data/lore-heydari-2024/rates.csv'), '--target-halfwidth', '0.1', '--reps', '100', '--max-n', '2000'],
      ['export', store, '--format', 'csv', '--out', '-'],
    ];
    for (const argv of cases) {
      const out = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, encoding: 'utf8', stdio: ['ignore', out, 'pipe'], timeout: 120_000 });
        const lines = r.stderr.split('\n').filter((l) => l.startsWith('samegame:'));
        const want = ['samegame: cannot write to standard output (ENOSPC: no space left on the device)'];
        expect({ argv: argv[0], code: r.status, lines }).toEqual({ argv: argv[0], code: 2, lines: want });
        expect(r.stderr).not.toMatch(STACK);
      } finally {
        closeSync(out);
      }
    }
  }, 300_000);
});
