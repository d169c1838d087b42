/** Spawn the built CLI (node bin/samegame.js, after `tsc -p .`) and collect its output. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/samegame.js', import.meta.url));

export interface CliResult { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** The environment without any API key, plus what the test adds. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.OPENAI_API_KEY;
  return { ...env, ...extra };
}

export function startCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: opts.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString('utf8'); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString('utf8'); });
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export const runCli = (args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => startCli(args, opts).done;

/** Synchronous run of the built CLI, for tests that need no interaction with the process. */
export function cli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, encoding: 'utf8', env: cleanEnv(opts.env), timeout: 120_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}
