/**
 * A write that fails part-way (a full disk, ENOSPC) leaves nothing behind: not the output set's
 * earlier files, not the temporary of the file whose write failed, not the folders the write made.
 * The failure is injected at the write function (node:fs writeFileSync writes part of the file,
 * then throws ENOSPC: the writes of the CLI runs below are not injected), so the property runs without a full file system; where a small tmpfs can be
 * mounted (root on Linux) the same is checked on a real full disk through the CLI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs, { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFilesAtomic } from '../../src/core/atomic.js';
import { UserError } from '../../src/core/errors.js';
import { BIN, ROOT } from '../helpers/cli.js';

/**
 * The n-th call of writeFileSync from here on (0-based) writes half its content and fails with
 * ENOSPC; -1: none. Installed on node:fs itself (syncBuiltinESMExports carries it to every named
 * import), since test files share one module graph per worker and a module mock would not reach
 * a module another file loaded first.
 */
const inject = { failAt: -1, calls: 0 };
const originalWrite = fs.writeFileSync;
const failingWrite: typeof fs.writeFileSync = (file, data, opts) => {
  if (inject.failAt >= 0 && inject.calls++ === inject.failAt) {
    const part = typeof data === 'string' ? data.slice(0, data.length >> 1) : (data as Uint8Array).subarray(0, (data as Uint8Array).length >> 1);
    originalWrite(file, part, opts);
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  }
  return originalWrite(file, data, opts);
};
beforeAll(() => { fs.writeFileSync = failingWrite; syncBuiltinESMExports(); });
afterAll(() => { fs.writeFileSync = originalWrite; syncBuiltinESMExports(); });

const tmp = mkdtempSync(join(tmpdir(), 'samegame-full-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every path under dir with its content (folders as null): the state a failed write must leave unchanged. */
function tree(dir: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath, e.name);
    out[relative(dir, p)] = e.isDirectory() ? null : readFileSync(p, 'utf8');
  }
  return out;
}

describe('a write that fails on a full disk leaves nothing behind', () => {
  const rel = fc.array(fc.constantFrom('reports', 'figures', 'deep', 'x'), { maxLength: 3 }).chain((dirs) =>
    fc.constantFrom('a.csv', 'b.svg', 'c.json').map((f) => join(...dirs, f)));
  it('any set of files, the write of any one failing: the folder as before, the failed file named (property)', () => {
    let k = 0;
    fc.assert(fc.property(fc.uniqueArray(rel, { minLength: 1, maxLength: 6 }), fc.nat(), fc.boolean(), (paths, at, existing) => {
      const dir = join(tmp, `case-${k++}`);
      mkdirSync(dir);
      if (existing) originalWrite(join(dir, 'a.csv'), 'old'); // an earlier run's output stays as it was
      const before = tree(dir);
      const failAt = at % paths.length;
      inject.calls = 0;
      inject.failAt = failAt;
      let thrown: unknown;
      try {
        writeFilesAtomic(paths.map((p) => ({ path: join(dir, p), content: `content of ${p}\n`.repeat(50) })));
      } catch (e) {
        thrown = e;
      } finally {
        inject.failAt = -1;
      }
      expect(thrown).toBeInstanceOf(UserError);
      expect((thrown as Error).message).toBe(`cannot write ${JSON.stringify(join(dir, paths[failAt]))} (ENOSPC)`);
      expect(tree(dir)).toEqual(before);
    }), { numRuns: 200 });
  });
});

/** A 64 KiB tmpfs, when this process may mount one (root on Linux); undefined otherwise. */
function smallTmpfs(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = join(tmp, 'tmpfs');
  mkdirSync(dir);
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0 ? dir : undefined;
}

describe('a real full disk (a 64 KiB tmpfs; skipped, and said so, where none can be mounted)', () => {
  const disk = smallTmpfs();
  afterAll(() => { if (disk) execFileSync('umount', [disk]); });
  it.skipIf(disk === undefined)('meta and prompts into a full tmpfs: one line naming the file, ENOSPC, exit 2, nothing left', () => {
    originalWrite(join(tmp, 'effects.csv'), 'study,model,game,yi,vi\na,m,g,0.1,0.01\nb,m,g,0.3,0.02\nc,m,g,0.2,0.01\n');
    const cases = [
      ['meta', '--effects', join(tmp, 'effects.csv'), '--out', join(disk!, 'm')],
      ['prompts', join(ROOT, 'data/designs/quickstart.yaml'), '--out', join(disk!, 'p')],
    ];
    for (const argv of cases) {
      const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: tmp, encoding: 'utf8', timeout: 120_000 });
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n').filter((l) => l.startsWith('samegame:'))).toEqual([expect.stringMatching(/^samegame: cannot write ".*" \(ENOSPC\)$/)]);
      expect(readdirSync(disk!)).toEqual([]);
    }
  }, 240_000);
  if (disk === undefined) {
    console.log('full-disk check through the CLI skipped: no tmpfs can be mounted here (not root, or not Linux); the injected property above still runs');
  }
});
