import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
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
 * file it names is not written. Every other fence (```sh, ```yaml, …) is text only.
 */
export interface RunnableBlock {
  /** Line of the opening fence (1-based). */
  readonly line: number;
  readonly code: string;
  /** Files (relative to the folder) the block must write. */
  readonly writes: readonly string[];
}

export interface BlockFailure { readonly where: string; readonly problem: string }

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/;
const KEYS = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'];

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

/** The runnable blocks of a Markdown text, in order. */
export function runnableBlocks(markdown: string): RunnableBlock[] {
  return fencedBlocks(markdown).filter((b) => b.words[0] === 'sh' && b.words[1] === 'runnable').map((b) => ({
    line: b.line, code: b.code,
    writes: b.words.slice(2).filter((w) => w.startsWith('writes=')).flatMap((w) => w.slice('writes='.length).split(',')).filter(Boolean),
  }));
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
  const cli = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin', 'samegame.js'))} "$@"`;
  writeFileSync(join(bin, 'samegame'), `#!/usr/bin/env bash\n${cli}\n`);
  writeFileSync(join(bin, 'npx'), `#!/usr/bin/env bash\nif [ "$1" = samegame ]; then shift; ${cli}; fi\necho "guides run offline: npx $1 is not available here" >&2\nexit 127\n`);
  for (const f of ['samegame', 'npx']) chmodSync(join(bin, f), 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir, NO_COLOR: '1' };
  for (const k of KEYS) delete env[k];
  return { dir, env };
}

function runBlock(code: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', code], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (c) => resolve({ code: c, stderr }));
  });
}

/** Run every runnable block of a guide in a fresh folder; the failures, each naming the guide's file and line. */
export async function runGuide(path: string, timeoutMs = 120_000): Promise<{ blocks: number; failures: BlockFailure[]; dir: string }> {
  const blocks = runnableBlocks(readFileSync(path, 'utf8'));
  const { dir, env } = guideFolder();
  const failures: BlockFailure[] = [];
  const name = relative(ROOT, path);
  for (const b of blocks) {
    const where = `${name}:${b.line}`;
    const r = await runBlock(b.code, dir, env, timeoutMs);
    if (r.code !== 0) {
      failures.push({ where, problem: `exit ${r.code ?? 'killed (timeout)'}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}` });
      break; // later steps build on this one
    }
    for (const f of b.writes) if (!existsSync(join(dir, f))) failures.push({ where, problem: `${f} was not written` });
  }
  return { blocks: blocks.length, failures, dir };
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
    it(`${rel}: every runnable block exits 0 and writes what it names`, async () => {
      const r = await runGuide(join(ROOT, rel));
      expect(r.failures).toEqual([]);
      expect(r.blocks).toBeGreaterThan(0);
    }, GUIDE_TIMEOUT);
  });
}

/** The test file that runs a guide: test/docs/guides/<the guide's file stem>.test.ts (the landing README: readme.test.ts). */
export const guideTestFile = (rel: string): string =>
  `test/docs/guides/${rel === 'README.md' ? 'readme' : rel.split('/').at(-1)!.replace(/\.md$/, '')}.test.ts`;
