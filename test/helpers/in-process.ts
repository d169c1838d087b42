/** Run the CLI in this process through main(argv), capturing stdout and stderr (one call at a time). */
import { main } from '../../src/cli/main.js';

export interface Outcome { code: number | 'hang' | 'crash'; stdout: string; stderr: string }

export async function runInProcess(argv: string[], limitMs = 10_000): Promise<Outcome> {
  let stdout = '', stderr = '';
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((c: string | Uint8Array) => { stdout += String(c); return true; }) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array) => { stderr += String(c); return true; }) as typeof process.stderr.write;
  let timer: NodeJS.Timeout | undefined;
  try {
    const hang = new Promise<'hang'>((resolve) => { timer = setTimeout(() => resolve('hang'), limitMs); });
    const code = await Promise.race([main(['node', 'samegame', ...argv]), hang]);
    return { code, stdout, stderr };
  } catch (e) {
    return { code: 'crash', stdout, stderr: `${stderr}${e instanceof Error ? e.stack : String(e)}` };
  } finally {
    clearTimeout(timer);
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

/** A stack frame line ("    at f (file.js:1:2)"): never in what a user sees. */
export const STACK = /\n\s+at .+:\d+:\d+\)?$/m;
