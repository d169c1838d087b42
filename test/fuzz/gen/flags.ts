/**
 * Numeric flags and output paths from a seeded generator: values in and out of every range
 * (0, negatives, subnormals, 1e308, NaN, hex, blanks, huge integers) on commands whose accepted
 * runs are cheap on a small table, and output paths that are symlink loops, FIFOs, symlinks,
 * names too long, files where a folder goes, or missing folders. An accepted dry run must count
 * the calls of the design; an existing FIFO or symlink must be left as it was.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { counts, writeStore } from '../../helpers/store.js';
import { mustRefuse, stream, type FuzzCase } from './common.js';

const TINY = 'model,game,framing,n,rate\nM,Stag Hunt,business,20,0.25\nM,Stag Hunt,friend-sharing,20,0.5\nM,Harmony,business,20,0.9\nM,Harmony,friend-sharing,20,0.95\n';
/** 2 models × 2 games × 2 framings × 3 trials = 24 calls (by hand). */
const DESIGN = 'name: tiny\nmodels:\n  - { id: A, provider: simulated }\n  - { id: B, provider: simulated }\ngames: [harmony, stag-hunt]\nframings: [business, friend-sharing]\ntrials: 3\n';
const DESIGN_CALLS = 2 * 2 * 2 * 3;

const VALUES = ['0', '1', '-1', '2.5', '1e-320', '5e-324', '1e308', 'NaN', 'Infinity', '', ' 7 ', '0x10', '99999999999999999999', '1e3', 'abc', '-0'];

/** The small rates file and design the cases run on (tiny.csv, tiny.yaml in `dir`). */
export function writeTinyInputs(dir: string): { rates: string; design: string } {
  writeFileSync(join(dir, 'tiny.csv'), TINY);
  writeFileSync(join(dir, 'tiny.yaml'), DESIGN);
  return { rates: join(dir, 'tiny.csv'), design: join(dir, 'tiny.yaml') };
}

export function flagCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const { rates, design } = writeTinyInputs(dir);
  const cases: FuzzCase[] = [];
  const kinds: ((v: string, d: string) => FuzzCase)[] = [
    (v, d) => ({ name: `report --reps ${JSON.stringify(v)}`, argv: ['report', '--data', rates, '--out', d, '--reps', v, '-q'], outputs: [d] }),
    (v, d) => ({ name: `report --attenuation ${JSON.stringify(v)}`, argv: ['report', '--data', rates, '--out', d, '--attenuation', v, '--reps', '20', '-q'], outputs: [d] }),
    (v, d) => ({ name: `report --seed ${JSON.stringify(v)}`, argv: ['report', '--data', rates, '--out', d, '--seed', v, '--reps', '20', '-q'], outputs: [d] }),
    (v, d) => ({ name: `audit --reading-error ${JSON.stringify(v)}`, argv: ['audit', '--data', rates, '--out', d, '--reading-error', v, '--reps', '50', '--search-reps', '50', '-q'], outputs: [d], boundMs: 60_000 }),
    (v) => ({ name: `plan --target-halfwidth ${JSON.stringify(v)}`, argv: ['plan', '--data', rates, '--target-halfwidth', v, '--reps', '100', '--max-n', '2000'], outputs: [] }),
    (v) => ({ name: `plan --max-n ${JSON.stringify(v)}`, argv: ['plan', '--data', rates, '--target-halfwidth', '0.2', '--reps', '100', '--max-n', v], outputs: [] }),
    ...['--concurrency', '--timeout-ms', '--rpm', '--tpm', '--max-retries', '--price-in'].map((flag) => (v: string, d: string): FuzzCase => ({
      name: `run --dry-run ${flag} ${JSON.stringify(v)}`, argv: ['run', design, '--dry-run', '--store', join(d, 's.sqlite'), flag, v], outputs: [join(d, 's.sqlite')],
      accepted: (o) => (new RegExp(`\\b${DESIGN_CALLS} calls\\b`).test(o.stdout + o.stderr) ? [] : [`the dry run does not count ${DESIGN_CALLS} calls: ${(o.stdout + o.stderr).slice(0, 200)}`]),
    })),
  ];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `flags-${i}`);
    cases.push(r.pick(kinds)(r.pick(VALUES), d));
  }
  // Attenuations that would print R 1.000 beside a test that finds framing effects (0, subnormals, 1e-300) are refused in one line.
  for (const a of ['0', '1e-320', '1e-300', '0.0099']) {
    const out = join(dir, `att-${a}`);
    cases.push({
      name: `reproduce --attenuation ${a}`, argv: ['reproduce', '--data', rates, '--out', out, '--attenuation', a, '--reps', '20', '-q'], outputs: [out],
      after: mustRefuse(`--attenuation ${a}`, '--attenuation'),
    });
  }
  return cases;
}

/** Output paths that are not plain: each must be refused or written without replacing what is there. */
export function outputPathCases(dir: string): FuzzCase[] {
  writeTinyInputs(dir);
  const d = join(dir, 'paths');
  mkdirSync(d);
  const store = join(d, 'store.sqlite');
  writeStore(store, { name: 'x' }, [{ model: 'M', game: 'G', framing: 'business', actions: counts(2, 5) }, { model: 'M', game: 'G', framing: 'friend-sharing', actions: counts(3, 5) }]);
  symlinkSync(join(d, 'loop-b'), join(d, 'loop-a'));
  symlinkSync(join(d, 'loop-a'), join(d, 'loop-b'));
  execFileSync('mkfifo', [join(d, 'fifo')]);
  writeFileSync(join(d, 'target'), 'keep me\n');
  symlinkSync(join(d, 'target'), join(d, 'link'));
  writeFileSync(join(d, 'file'), 'a file\n');
  const design = join(dir, 'tiny.yaml');
  const untouched = (): string[] => {
    const p: string[] = [];
    if (!lstatSync(join(d, 'fifo')).isFIFO()) p.push('the FIFO was replaced');
    if (!lstatSync(join(d, 'link')).isSymbolicLink() || readlinkSync(join(d, 'link')) !== join(d, 'target')) p.push('the symlink was replaced');
    if (readFileSync(join(d, 'target'), 'utf8') !== 'keep me\n') p.push('the file behind the symlink was written through');
    if (readFileSync(join(d, 'file'), 'utf8') !== 'a file\n') p.push('the file was changed');
    return p;
  };
  const targets: [string, string][] = [
    ['a symlink loop', join(d, 'loop-a', 'x')], ['a FIFO', join(d, 'fifo')], ['a symlink', join(d, 'link')],
    ['a name too long', join(d, 'n'.repeat(300))], ['under a file', join(d, 'file', 'x')], ['a missing folder', join(d, 'new', 'deeper', 'x')],
  ];
  const cases: FuzzCase[] = [];
  for (const [what, shared] of targets) {
    // A missing folder is made by the first command that writes there: each command gets its own.
    const at = (cmd: string) => (what === 'a missing folder' ? `${shared}-${cmd}` : shared);
    const path = at('export');
    cases.push({
      name: `export --out onto ${what}`, argv: ['export', store, '--format', 'csv', '--out', path, '-q'], outputs: [], after: untouched,
      accepted: () => {
        const lines = readFileSync(path, 'utf8').trim().split('\n').length;
        return lines === 1 + 10 ? [] : [`exported ${lines - 1} trials of 10`];
      },
    });
    cases.push({ name: `report --out onto ${what}`, argv: ['report', '--data', join(dir, 'tiny.csv'), '--out', at('report'), '--reps', '20', '-q'], outputs: [], after: untouched });
    cases.push({ name: `run --store onto ${what}`, argv: ['run', design, '--dry-run', '--store', at('run')], outputs: [`${at('run')}-journal`], after: untouched });
  }
  return cases;
}
