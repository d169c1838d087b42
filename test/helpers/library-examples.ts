import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from './cli.js';
import { fencedBlocks, guideFolder, type BlockFailure } from './guides.js';

/**
 * The library's examples, checked. Every ```ts (and ```js) fence of a Markdown page is one
 * example of the library: it is type-checked against the library's declarations (`import … from
 * 'samegame'` resolves to dist/index.d.ts, built from src/index.ts: what an installed package gives;
 * the repository's strict settings) and then run, transpiled, with Node, offline, in
 * a fresh temporary folder holding a copy of data/ and examples/ and node_modules/samegame (this
 * checkout, as an installed package): the guides' folder (test/helpers/guides.ts). A page's
 * examples run in order in one folder. An example that cannot run here (it needs an API key, a
 * server) says so in its info string, ```ts typecheck-only, and is only type-checked. Examples
 * write only under `out/`: anything else they leave in the folder is a failure.
 */
export interface CodeExample {
  /** Line of the opening fence (1-based). */
  readonly line: number;
  readonly lang: 'ts' | 'js';
  readonly code: string;
  readonly run: boolean;
}

const LANGS: Record<string, 'ts' | 'js'> = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js' };

/** The TypeScript and JavaScript examples of a Markdown text, in order. */
export function codeExamples(markdown: string): CodeExample[] {
  return fencedBlocks(markdown).flatMap((b) => {
    const lang = LANGS[b.words[0]];
    return lang ? [{ line: b.line, lang, code: b.code, run: !b.words.includes('typecheck-only') }] : [];
  });
}

/** The pages of docs/ (and the README) that hold at least one example. */
export function pagesWithExamples(): string[] {
  const pages: string[] = ['README.md'];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.md')) pages.push(join(dir, e.name));
    }
  };
  walk('docs');
  return pages.filter((p) => codeExamples(readFileSync(join(ROOT, p), 'utf8')).length > 0).sort();
}

interface Placed { readonly page: string; readonly example: CodeExample; readonly file: string }

const fileName = (page: string, ex: CodeExample): string =>
  `${page.replace(/[^A-Za-z0-9]+/g, '-')}-${ex.line}.${ex.lang === 'ts' ? 'mts' : 'mjs'}`;

/** Type-check examples (one program for all); the errors, each at its page's line. */
export function typeCheck(placed: readonly Placed[]): BlockFailure[] {
  const program = ts.createProgram(placed.map((p) => p.file), {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, noImplicitOverride: true, noFallthroughCasesInSwitch: true, esModuleInterop: true, skipLibCheck: true,
    resolveJsonModule: true, allowJs: true, checkJs: true, noEmit: true, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
    paths: { samegame: [join(ROOT, 'dist', 'index.d.ts')] },
  });
  const byFile = new Map(placed.map((p) => [p.file, p]));
  const failures: BlockFailure[] = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const p = d.file ? byFile.get(d.file.fileName) : undefined;
    const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (!p || !d.file || d.start === undefined) {
      failures.push({ where: d.file ? relative(ROOT, d.file.fileName) : '(program)', problem: text });
      continue;
    }
    const line = p.example.line + 1 + d.file.getLineAndCharacterOfPosition(d.start).line;
    failures.push({ where: `${p.page}:${line}`, problem: `TS${d.code}: ${text}` });
  }
  return failures;
}

function runNode(file: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], timeout: timeoutMs });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (c) => resolve({ code: c, stderr }));
  });
}

/** The error line of a Node process that failed (`UserError: …`), else its last lines. */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('at ') && !l.startsWith('Node.js v'));
  return lines.find((l) => /^[A-Za-z]*Error\b/.test(l)) ?? lines.slice(-3).join(' | ');
}

/** Run a page's runnable examples in order in one folder (transpiled to .js); stop at the first failure. */
async function runPage(page: string, placed: readonly Placed[], dir: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<BlockFailure[]> {
  const failures: BlockFailure[] = [];
  for (const p of placed) {
    if (!p.example.run) continue;
    const js = ts.transpileModule(p.example.code, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
    const file = join(dir, '.examples', `${p.example.line}.mjs`);
    writeFileSync(file, js);
    const r = await runNode(file, dir, env, timeoutMs);
    if (r.code !== 0) {
      failures.push({ where: `${page}:${p.example.line}`, problem: `exit ${r.code ?? 'killed (timeout)'}: ${errorLine(r.stderr)}` });
      break; // later examples build on this one
    }
  }
  const stray = readdirSync(dir).filter((f) => !['data', 'examples', 'node_modules', '.examples', 'out'].includes(f)).sort();
  if (stray.length > 0) failures.push({ where: page, problem: `written outside out/: ${stray.join(', ')}` });
  return failures;
}

/** Check the examples of these pages (paths relative to the repository): type errors first, then what fails to run. */
export async function checkExamples(pages: readonly string[], timeoutMs = 60_000): Promise<{ examples: number; typeErrors: BlockFailure[]; runFailures: BlockFailure[] }> {
  const folders = pages.map((page) => {
    const { dir, env } = guideFolder();
    const placed = codeExamples(readFileSync(join(ROOT, page), 'utf8')).map((example) => {
      const file = join(dir, fileName(page, example));
      writeFileSync(file, example.code);
      return { page, example, file };
    });
    return { page, dir, env, placed };
  });
  const typeErrors = typeCheck(folders.flatMap((f) => f.placed));
  const runFailures: BlockFailure[] = [];
  for (const f of folders) {
    // The sources were for the type check; the folder is the examples' working folder.
    for (const p of f.placed) rmSync(p.file);
    mkdirSync(join(f.dir, '.examples'));
    runFailures.push(...(await runPage(f.page, f.placed, f.dir, f.env, timeoutMs)));
  }
  return { examples: folders.reduce((n, f) => n + f.placed.length, 0), typeErrors, runFailures };
}
