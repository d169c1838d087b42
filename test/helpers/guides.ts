import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli.js';

/**
 * Guides that run. A fenced block whose info string is `sh runnable` is a walkthrough step the
 * test suite executes; `writes=a,b` after it names the files the step must leave behind:
 *
 *     ```sh runnable writes=reports/table2.csv,reports/report.html
 *     npx samegame reproduce --reps 500
 *     ```
 *
 * A guide's runnable blocks run in order, each with `bash -euo pipefail`, in one fresh temporary
 * folder holding a copy of the repository's data/ and examples/ (what a clone has beside the code)
 * and node_modules/samegame (a link to this checkout, as in a project that installed it), offline: `npx samegame` and `samegame` run this checkout's CLI, any other `npx` is refused, the
 * API key variables are removed and HOME is the folder. A step fails when it exits non-zero or a
 * file it names is not written. A fence whose info string is `text output` shows what the runnable
 * block before it prints (standard output and error, as a terminal shows them): the step fails
 * when the printed text differs from it (outputPattern: `…` stands for any text within a line, a
 * line of `…` alone for any number of lines; trailing spaces and the folder's path do not count);
 * `text file=PATH` shows how a file the block writes begins (the same rules, any lines after).
 * Every other fence (```sh, ```yaml, ```text, …) is text only.
 */
export interface RunnableBlock {
  /** Line of the opening fence (1-based). */
  readonly line: number;
  readonly code: string;
  /** Files (relative to the folder) the block must write. */
  readonly writes: readonly string[];
  /** The `text output` fence after it, before the next runnable block: what the block prints. */
  readonly output?: { readonly line: number; readonly text: string };
  /** The `text file=PATH` fences after it: how the files it writes begin. */
  readonly files?: readonly { readonly line: number; readonly path: string; readonly text: string }[];
}

export interface BlockFailure { readonly where: string; readonly problem: string }

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/;
const KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];
// The guides' warm CLI (warmCli): the server that runs the calls, and the client a guide's `samegame` starts.
const SERVER = fileURLToPath(new URL('guide-cli/server.mjs', import.meta.url));
const CLIENT = fileURLToPath(new URL('guide-cli/client.mjs', import.meta.url));

/** A fenced block of a Markdown text: its opening line (1-based), the words of its info string and its code (the fence's indent removed). */
export interface FencedBlock { readonly line: number; readonly words: readonly string[]; readonly code: string }

/** The fenced blocks of a Markdown text, in order (``` or ~~~, closed by the same fence or the end). */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const out: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    let j = i + 1;
    while (j < lines.length && !(lines[j].trimStart().startsWith(fence) && lines[j].trim().replace(/[`~]/g, '') === '')) j++;
    out.push({ line: i + 1, words: info.trim().split(/\s+/), code: lines.slice(i + 1, j).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l)).join('\n') });
    i = j;
  }
  return out;
}

/** The runnable blocks of a Markdown text, in order, each with the output block that follows it. */
export function runnableBlocks(markdown: string): RunnableBlock[] {
  const out: RunnableBlock[] = [];
  for (const b of fencedBlocks(markdown)) {
    if (b.words[0] === 'sh' && b.words[1] === 'runnable') {
      out.push({ line: b.line, code: b.code,
        writes: b.words.slice(2).filter((w) => w.startsWith('writes=')).flatMap((w) => w.slice('writes='.length).split(',')).filter(Boolean) });
    } else if (b.words[0] === 'text' && b.words[1] === 'output' && out.length && out[out.length - 1].output === undefined) {
      out[out.length - 1] = { ...out[out.length - 1], output: { line: b.line, text: b.code } };
    } else if (b.words[0] === 'text' && b.words[1]?.startsWith('file=') && out.length) {
      const last = out[out.length - 1];
      out[out.length - 1] = { ...last, files: [...last.files ?? [], { line: b.line, path: b.words[1].slice('file='.length), text: b.code }] };
    }
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether printed text matches a guide's output block: line by line, `…` within a line any text, a line of `…` alone any number of
 * lines (none included); trailing spaces and blank lines at either end ignored. The first line that does not match, when one does not.
 */
export function outputMismatch(expected: string, printed: string): string | undefined {
  const lines = (s: string) => s.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').replace(/^\n+|\n+$/g, '').split('\n');
  const want = lines(expected), got = lines(printed);
  const pattern = (ls: readonly string[]) => ls.map((l) => (l.trim() === '…' ? '(?:[^\\n]*\\n)*?' : `${l.split('…').map(escapeRe).join('[^\\n]*')}\\n`))
    .join('');
  const source = pattern(want);
  if (new RegExp(`^${source}$`).test(`${got.join('\n')}\n`)) return undefined;
  // The longest prefix of the block that matches, to name the first line that does not.
  for (let k = want.length; k >= 0; k--) {
    const m = new RegExp(`^${pattern(want.slice(0, k))}`).exec(`${got.join('\n')}\n`);
    if (!m) continue;
    const at = m[0].split('\n').length - 1;
    if (k === want.length) return `the block ends at its line ${k}; the command prints more: ${JSON.stringify(got[at])}`;
    return `line ${k + 1} of the block, ${JSON.stringify(want[k])}, is printed as ${JSON.stringify(got[at] ?? '(nothing)')}`;
  }
  return 'nothing matches';
}

/** A folder for one guide: the data a clone has, and a bin/ whose `npx` and `samegame` run this checkout's CLI only. */
export function guideFolder(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-guide-'));
  for (const d of ['data', 'examples']) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  // As in a project that installed samegame: a plug-in's `import … from 'samegame'` resolves.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'samegame'), 'dir');
  const bin = join(mkdtempSync(join(tmpdir(), 'samegame-guide-bin-')), 'bin');
  mkdirSync(bin);
  // The built binary, or the warm CLI's client when one serves the guide (SAMEGAME_GUIDE_CLI, see warmCli).
  const node = JSON.stringify(process.execPath);
  const binary = JSON.stringify(join(ROOT, 'bin', 'samegame.js'));
  const cli = `if [ -n "\${SAMEGAME_GUIDE_CLI:-}" ]; then exec ${node} ${JSON.stringify(CLIENT)} "$@"; fi; exec ${node} ${binary} "$@"`;
  writeFileSync(join(bin, 'samegame'), `#!/usr/bin/env bash\n${cli}\n`);
  writeFileSync(join(bin, 'npx'), `#!/usr/bin/env bash\nif [ "$1" = samegame ]; then shift; ${cli}; fi\necho "guides run offline: npx $1 is not available here" >&2\nexit 127\n`);
  for (const f of ['samegame', 'npx']) chmodSync(join(bin, f), 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir, NO_COLOR: '1' };
  for (const k of KEYS) delete env[k];
  return { dir, env };
}

/** Run a block; `printed`: its standard output and error as one stream (a terminal's view), else its standard error alone. */
function runBlock(code: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number, printed = false):
  Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', printed ? `exec 2>&1\n${code}` : code], { cwd, env,
      stdio: ['ignore', printed ? 'pipe' : 'ignore', 'pipe'], timeout: timeoutMs });
    let stderr = '';
    (printed ? child.stdout! : child.stderr!).on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (c) => resolve({ code: c, stderr }));
  });
}

/** Printed text as the guide shows it: the folder's path left out, a line rewritten in place (\r) as its last state. */
const asShown = (text: string, dir: string) => text.split(`${dir}/`).join('').split(dir).join('.').split('\n').map((l) => l.split('\r').at(-1) ?? '')
  .join('\n');

/**
 * The warm CLI of this process (guide-cli/server.mjs), started by the first guide that runs and
 * shared by the guides after it: one process that has loaded the built CLI runs every `samegame`
 * call of the guides' steps through main(argv), one at a time, as the binary would (the same printed
 * text, files and exit code, from the caller's folder and environment); each call starts only a
 * small client instead of loading the whole CLI again, and what the CLI keeps in memory (drawn
 * figures) serves the next guide as it serves a library caller. It ends when this process does
 * (its standard input closes). SAMEGAME_GUIDES_SPAWN=1 runs each call as its own process instead.
 * Its socket's path.
 */
let warm: Promise<string> | undefined;
export function warmCli(): Promise<string> {
  warm ??= new Promise<string>((resolve, reject) => {
    const socket = join(mkdtempSync(join(tmpdir(), 'samegame-guide-cli-')), 'cli.sock');
    const child = spawn(process.execPath, [SERVER, socket, ROOT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let said = '';
    child.stderr!.on('data', (d: Buffer) => { said += d.toString(); });
    child.stdout!.once('data', () => resolve(socket));
    // Ended (it failed to start, or a command ended its process): the next guide starts another.
    child.on('close', (code) => { warm = undefined; reject(new Error(`the guides' warm CLI ended (exit ${code}): ${said.trim()}`)); });
    // Nothing of it keeps this process alive.
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr] as unknown as { unref(): void }[]) s.unref();
  });
  return warm;
}

/** Run every runnable block of a guide in a fresh folder; the failures, each naming the guide's file and line. */
export async function runGuide(path: string, timeoutMs = 120_000): Promise<{ blocks: number; failures: BlockFailure[]; dir: string }> {
  const blocks = runnableBlocks(readFileSync(path, 'utf8'));
  const { dir, env } = guideFolder();
  if (process.env.SAMEGAME_GUIDES_SPAWN !== '1') env.SAMEGAME_GUIDE_CLI = await warmCli();
  return { blocks: blocks.length, failures: await runBlocks(path, blocks, dir, env, timeoutMs), dir };
}

async function runBlocks(path: string, blocks: readonly RunnableBlock[], dir: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<BlockFailure[]> {
  const failures: BlockFailure[] = [];
  const name = relative(ROOT, path);
  for (const b of blocks) {
    const where = `${name}:${b.line}`;
    const r = await runBlock(b.code, dir, env, timeoutMs, b.output !== undefined);
    if (r.code !== 0) {
      failures.push({ where, problem: `exit ${r.code ?? 'killed (timeout)'}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}` });
      break; // later steps build on this one
    }
    for (const f of b.writes) if (!existsSync(join(dir, f))) failures.push({ where, problem: `${f} was not written` });
    const differs = b.output && outputMismatch(b.output.text, asShown(r.stderr, dir));
    if (differs) failures.push({ where: `${name}:${b.output!.line}`, problem: `the printed output differs: ${differs}` });
    for (const f of b.files ?? []) {
      const text = existsSync(join(dir, f.path)) ? readFileSync(join(dir, f.path), 'utf8') : '';
      const off = outputMismatch(`${f.text}\n…`, text);
      if (off) failures.push({ where: `${name}:${f.line}`, problem: `${f.path} differs: ${off}` });
    }
    // SHOW_GUIDE_OUTPUT=FILE: what each block printed, appended to FILE (to write a guide's output blocks from).
    if (b.output && process.env.SHOW_GUIDE_OUTPUT) appendFileSync(process.env.SHOW_GUIDE_OUTPUT, `=== ${name}:${b.output.line}\n${asShown(r.stderr, dir)}\n`);
  }
  return failures;
}

/** Time allowed for one guide: its commands run one after another on a busy machine. */
export const GUIDE_TIMEOUT = 600_000;

/**
 * The test of one guide (`rel`: its path from the repository root): every runnable block exits 0
 * and writes what it names. Each guide has a test file of its own (test/docs/guides/), so that the
 * workers share the guides instead of one worker running them all in turn.
 */
export function guideRuns(rel: string): void {
  describe('the guides run', () => {
    it(`${rel}: every runnable block exits 0, writes what it names and prints what the guide shows`, async () => {
      const r = await runGuide(join(ROOT, rel));
      expect(r.failures).toEqual([]);
      expect(r.blocks).toBeGreaterThan(0);
    }, GUIDE_TIMEOUT);
  });
}

/** The test file that runs a guide: test/docs/guides/<the guide's file stem>.test.ts (the landing README: readme.test.ts). */
export const guideTestFile = (rel: string): string =>
  `test/docs/guides/${rel === 'README.md' ? 'readme' : rel.split('/').at(-1)!.replace(/\.md$/, '')}.test.ts`;
