/**
 * The output-path rule (src/core/out-dir.ts, docs/reference/specifications.md, "Output paths"): a path that cannot be looked
 * at (symlink loop, name too long, no permission) is one line, exit 2, for --out, run --store and
 * export --out; export --out makes a missing folder; an existing symlink, FIFO, device or socket
 * is never replaced or written through, and a refused store leaves no journal behind.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess as run } from '../helpers/in-process.js';
import { BIN, ROOT } from '../helpers/cli.js';
import { counts, writeStore } from '../helpers/store.js';
import { refusalKit, refusedInOneLine } from '../helpers/refusals.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-outpath-'));
const DESIGN = join(ROOT, 'test/fixtures/designs/valid-custom.yaml');
const LONG = 'n'.repeat(300);

const oneLine = refusedInOneLine;

function smallStore(d: string): string {
  const p = join(d, 's.sqlite');
  writeStore(p, { name: 'x' }, [
    { model: 'M', game: 'G', framing: 'base', actions: counts(2, 4) },
    { model: 'M', game: 'G', framing: 'alt', actions: counts(3, 4) },
  ]);
  return p;
}

/** A loop of two symlinks, a FIFO, a symlink to a file and (as root) a device, in `d`. */
function specials(d: string): { loop: string; fifo: string; link: string; target: string; device?: string } {
  symlinkSync(join(d, 'loop-b'), join(d, 'loop-a'));
  symlinkSync(join(d, 'loop-a'), join(d, 'loop-b'));
  execFileSync('mkfifo', [join(d, 'fifo')]);
  writeFileSync(join(d, 'target'), 'keep me\n');
  symlinkSync(join(d, 'target'), join(d, 'link'));
  let device: string | undefined;
  if (process.getuid?.() === 0) {
    try { execFileSync('mknod', [join(d, 'null'), 'c', '1', '3']); device = join(d, 'null'); } catch { device = undefined; }
  }
  return { loop: join(d, 'loop-a'), fifo: join(d, 'fifo'), link: join(d, 'link'), target: join(d, 'target'), device };
}

describe('output paths that cannot be looked at', () => {
  it('a symlink loop and a name too long: one line, exit 2, for --out, run --store and export --out', async () => {
    const d = tmp();
    const s = specials(d);
    const store = smallStore(d);
    for (const bad of [join(s.loop, 'x'), join(d, LONG, 'x')]) {
      oneLine(await run(['reproduce', '--out', bad, '--reps', '20', '-q']), /^samegame: --out .*\((ELOOP|ENAMETOOLONG)\)$/m);
      oneLine(await run(['run', DESIGN, '--store', join(bad, 's.sqlite')]), /^samegame: --store .*\((ELOOP|ENAMETOOLONG)\)$/m);
      oneLine(await run(['export', store, '--format', 'csv', '--out', join(bad, 't.csv')]), /^samegame: --out .*\((ELOOP|ENAMETOOLONG)\)$/m);
    }
    oneLine(await run(['export', store, '--format', 'csv', '--out', join(d, LONG)]), /\(ENAMETOOLONG\)$/m);
  });

  it('no permission to look (EACCES): one line, exit 2, for --out, run --store and export --out', () => {
    const d = tmp();
    const store = smallStore(d);
    mkdirSync(join(d, 'locked'));
    chmodSync(join(d, 'locked'), 0o000);
    chmodSync(d, 0o777);
    chmodSync(store, 0o644);
    // root reads everything: the process runs as nobody (a child of the built binary) to meet EACCES.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const cliAs = (args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: d, encoding: 'utf8', ...asUser, timeout: 60_000 });
      return { code: r.status, stderr: r.stderr };
    };
    const bad = join(d, 'locked', 'deeper', 'x');
    oneLine(cliAs(['reproduce', '--out', bad, '--reps', '20', '-q']), /^samegame: --out .*\(EACCES\)$/m);
    oneLine(cliAs(['run', DESIGN, '--store', join(bad, 's.sqlite')]), /^samegame: --store .*\(EACCES\)$/m);
    oneLine(cliAs(['export', store, '--format', 'csv', '--out', join(bad, 't.csv')]), /^samegame: --out .*\(EACCES\)$/m);
  });
});

describe('export --out', () => {
  it('into a missing folder: the folder is made and the file written whole', async () => {
    const d = tmp();
    const store = smallStore(d);
    const out = join(d, 'new', 'deeper', 't.csv');
    const r = await run(['export', store, '--format', 'csv', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1 + 8);
    expect(readdirSync(join(d, 'new', 'deeper'))).toEqual(['t.csv', 't.csv.provenance.json']); // the file and its sidecar
  });

  it('onto a symlink, a FIFO, a socket or a device: refused, the thing left as it was', async () => {
    const d = tmp();
    const s = specials(d);
    const store = smallStore(d);
    const sock = join(d, 'sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      for (const [target, kind] of [[s.link, 'a symbolic link'], [s.fifo, 'a FIFO'], [sock, 'a socket'], ...(s.device ? [[s.device, 'a device']] : [])] as const) {
        const r = await run(['export', store, '--format', 'jsonl', '--out', target]);
        oneLine(r, new RegExp(`^samegame: --out .*: exists and is ${kind}: samegame writes only regular files`, 'm'));
      }
      expect(lstatSync(s.link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(s.link)).toBe(s.target);
      expect(readFileSync(s.target, 'utf8')).toBe('keep me\n');
      expect(lstatSync(s.fifo).isFIFO()).toBe(true);
      expect(lstatSync(sock).isSocket()).toBe(true);
      if (s.device) expect(lstatSync(s.device).isCharacterDevice()).toBe(true);
      expect(readdirSync(d).filter((f) => f.includes('.tmp-'))).toEqual([]);
    } finally {
      server.close();
    }
  });
});

describe('files under --out', () => {
  it('a symlink where an output file goes: refused before anything is written, the link kept', async () => {
    const d = tmp();
    const out = join(d, 'prompts');
    mkdirSync(join(out, 'Sim-1', 'trust-lite'), { recursive: true });
    writeFileSync(join(d, 'target'), 'keep me\n');
    symlinkSync(join(d, 'target'), join(out, 'Sim-1', 'trust-lite', 'jf.txt'));
    const r = await run(['prompts', DESIGN, '--out', out]);
    oneLine(r, /jf\.txt": exists and is a symbolic link: samegame writes only regular files/);
    expect(readlinkSync(join(out, 'Sim-1', 'trust-lite', 'jf.txt'))).toBe(join(d, 'target'));
    expect(readFileSync(join(d, 'target'), 'utf8')).toBe('keep me\n');
    expect(existsSync(join(out, 'Sim-1', 'trust-lite', 'business.txt'))).toBe(false);
  });
});

describe('run --store onto a FIFO or a device', () => {
  it('refused, no NAME-journal left behind', async () => {
    const d = tmp();
    const s = specials(d);
    for (const target of [s.fifo, ...(s.device ? [s.device] : [])]) {
      const r = await run(['run', DESIGN, '--store', target]);
      oneLine(r, /^samegame: --store .*: exists and is a (FIFO|device)/m);
      expect(existsSync(`${target}-journal`)).toBe(false);
    }
    expect(lstatSync(s.fifo).isFIFO()).toBe(true);
  });

  it('a symlink to a store is opened through the link (a store is written in place)', async () => {
    const d = tmp();
    const store = smallStore(d);
    symlinkSync(store, join(d, 'via-link.sqlite'));
    const r = await run(['run', DESIGN, '--store', join(d, 'via-link.sqlite'), '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
  });
});

/** Output paths that cannot be written: one line, exit 2, nothing written. */
describe('output paths that cannot be written', () => {
  const { tmp, DESIGN, oneLine } = refusalKit;

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
});
