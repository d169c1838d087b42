/**
 * vitest global setup: one temporary folder for the whole run, on tmpfs where the machine has one
 * (/dev/shm), made the workers' TMPDIR (os.tmpdir(), and so every mkdtemp of a test and every CLI
 * process a test starts), and removed when the run ends.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(base, 'samegame-tests-'));
  // Others may pass through, as through /tmp: a test runs the CLI as the user nobody on its own folder.
  chmodSync(dir, 0o755);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (before === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = before;
    rmSync(dir, { recursive: true, force: true });
  };
}
