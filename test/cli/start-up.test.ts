import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';

const HOOK = fileURLToPath(new URL('../fixtures/module-log/register.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'samegame-start-up-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The compiled modules of the tool that `samegame ARGS` loads, as dist-relative paths. */
function loaded(args: string[]): string[] {
  const log = join(dir, `${args.join('_').replace(/\W/g, '')}.log`);
  execFileSync(process.execPath, ['--import', HOOK, BIN, ...args], { env: cleanEnv({ MODULE_LOG: log }), stdio: 'ignore' });
  return readFileSync(log, 'utf8').split('\n').filter((u) => u.includes('/dist/')).map((u) => u.slice(u.indexOf('/dist/') + 6));
}

describe('CLI start-up: a command loads what it uses', () => {
  it('--version loads no command', () => {
    const mods = loaded(['--version']);
    expect(mods).toContain('cli/main.js');
    expect(mods.filter((m) => m.startsWith('commands/') || (m.startsWith('cli/') && m !== 'cli/main.js'))).toEqual([]);
  });

  it("a command's --help loads its flags, not its implementation nor another command", () => {
    const mods = loaded(['export', '--help']);
    expect(mods).toContain('cli/export.js');
    expect(mods).not.toContain('commands/export-store.js');
    expect(mods.filter((m) => m.startsWith('cli/') && !['cli/main.js', 'cli/export.js', 'cli/options.js', 'cli/messages.js'].includes(m))).toEqual([]);
  });
});
