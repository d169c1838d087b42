/**
 * Run the CLI from a test: in this process through main(argv) (runCli, the default: no process
 * start, the modules loaded once per worker), or as a child process of the built binary
 * (startCli / spawnCli / cli, after `tsc -p .`) where the test is about the process itself:
 * signals, exit on a closed pipe, a lock held by another process, the launcher.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/samegame.js', import.meta.url));

export interface CliResult { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
export interface CliOptions { cwd?: string; env?: NodeJS.ProcessEnv }

/** The environment without any API key, plus what the test adds. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY']) delete env[k];
  return { ...env, ...extra };
}

export function startCli(args: string[], opts: CliOptions = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: opts.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString('utf8'); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString('utf8'); });
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** The built binary as a child process: for what only a process shows. */
export const spawnCli = (args: string[], opts: CliOptions = {}) => startCli(args, opts).done;

/** Synchronous run of the built binary as a child process. */
export function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, encoding: 'utf8', env: cleanEnv(opts.env), timeout: 120_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

// ---- in-process ------------------------------------------------------------------------------

interface Sink { stdout: string; stderr: string }
const sink = new AsyncLocalStorage<Sink>();
let queue: Promise<unknown> = Promise.resolve();

/** Route what a CLI call writes to its own sink; everything else goes where it went before. */
function capture(stream: NodeJS.WriteStream, key: keyof Sink): void {
  const before = stream.write;
  stream.write = function write(this: NodeJS.WriteStream, chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    const s = sink.getStore();
    if (s === undefined) return (before as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    s[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    if (cb) process.nextTick(cb);
    return true;
  } as typeof stream.write;
}
capture(process.stdout, 'stdout');
capture(process.stderr, 'stderr');

/**
 * Run `samegame ARGS` in this process, as the binary would: the exit code main(argv) returns,
 * stdout and stderr captured, run in `cwd` (the repository root unless given) with `env` as the
 * environment (cleanEnv() unless given: no API key). Calls run one at a time, since the working
 * directory and the environment are the process's; what they write is kept apart all the same.
 * A command that throws ends as an uncaught error would end the binary: exit 1, the stack on stderr.
 */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  if (opts.env?.SAMEGAME_CRASH_AT !== undefined) throw new Error('SAMEGAME_CRASH_AT kills the process: use spawnCli');
  // The default environment is taken when the call starts, with no other call's in place.
  const run = queue.then(() => inProcess(args, opts.cwd ?? ROOT, opts.env ?? cleanEnv()));
  queue = run.catch(() => undefined);
  return run;
}

async function inProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  const out: Sink = { stdout: '', stderr: '' };
  const [cwdBefore, envBefore, ttyBefore] = [process.cwd(), process.env, [process.stdout.isTTY, process.stderr.isTTY]];
  process.chdir(cwd);
  process.env = { ...env };
  // A child's stdout and stderr are pipes: no progress lines drawn in place.
  process.stdout.isTTY = false;
  process.stderr.isTTY = false;
  try {
    const code = await sink.run(out, () => main([process.execPath, BIN, ...args]));
    return { code, signal: null, ...out };
  } catch (e) {
    return { code: 1, signal: null, stdout: out.stdout, stderr: `${out.stderr}${e instanceof Error ? e.stack : String(e)}\n` };
  } finally {
    process.chdir(cwdBefore);
    process.env = envBefore;
    [process.stdout.isTTY, process.stderr.isTTY] = ttyBefore;
  }
}
