/**
 * The layout rules of docs/architecture.md, as a function over a source tree: every import
 * (`import type` included, and dynamic `import()`) is read and checked. Used by
 * test/architecture.test.ts on src/ and on fixture trees that break one rule each.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/** Layers, lowest first. A file may import its own folder or a lower layer; `live`, `sources`
 * and `render` share a layer but only `sources` may read the trial store in `live`. */
export const LAYERS: Readonly<Record<string, number>> = {
  core: 0, stats: 1, live: 2, render: 2, sources: 3, analyses: 4, commands: 5, cli: 6,
};
/** What cli/ may not import: it parses flags and calls one command function (commands/ reaches the rest). */
const CLI_FORBIDDEN: ReadonlySet<string> = new Set(['live', 'sources', 'analyses']);
/** Same-layer imports that are allowed (from → to). */
const SIDEWAYS: ReadonlySet<string> = new Set([]);

export interface Violation { readonly file: string; readonly spec: string; readonly rule: string }

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Relative imports of one file's text, in order. */
export function importsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (spec !== undefined && spec.startsWith('.')) out.push(spec);
  }
  return out;
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listTs(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const topOf = (rel: string): string => rel.split(sep)[0];

/** Check the tree rooted at `srcRoot` (a folder laid out like src/). */
export function checkTree(srcRoot: string): Violation[] {
  const files = listTs(srcRoot).map((f) => relative(srcRoot, f)).sort();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  const bad: Violation[] = [];
  for (const file of files) {
    const edges: string[] = [];
    for (const spec of importsOf(readFileSync(join(srcRoot, file), 'utf8'))) {
      const target = normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts');
      if (!known.has(target)) { bad.push({ file, spec, rule: 'imports a file that is not in the tree' }); continue; }
      edges.push(target);
      const rule = layerRule(file, target);
      if (rule) bad.push({ file, spec, rule });
    }
    graph.set(file, edges);
  }
  bad.push(...cycles(graph));
  return bad;
}

/** Why `file` may not import `target`, or undefined when it may. */
export function layerRule(file: string, target: string): string | undefined {
  const [from, to] = [topOf(file), topOf(target)];
  if (file === 'index.ts') return undefined; // the library API re-exports from every layer
  if (target === 'index.ts') return 'imports the library index';
  const lf = LAYERS[from];
  const lt = LAYERS[to];
  if (lf === undefined) return `folder src/${from} is not a layer`;
  if (lt === undefined) return `folder src/${to} is not a layer`;
  if (from === 'analyses' && to === 'analyses') {
    const [fa, ta] = [file.split(sep)[1], target.split(sep)[1]];
    if (fa !== ta && target.split(sep).slice(2).join('/') !== 'index.ts') {
      return `analysis ${fa} imports analysis ${ta} other than through its index.ts`;
    }
    return undefined;
  }
  if (from === to) return undefined;
  if (from === 'analyses' && target.split(sep).slice(0, 2).join('/') === 'live/store') {
    return 'an analysis may not import live/store (it reads the trial store through sources/)';
  }
  if (from === 'cli' && CLI_FORBIDDEN.has(to)) return `cli may not import ${to} (it parses flags and calls a command)`;
  if (lt < lf) return undefined;
  if (lt === lf && SIDEWAYS.has(`${from}→${to}`)) return undefined;
  if (from === 'sources' && to === 'live') return undefined;
  return `${from} (layer ${lf}) may not import ${to} (layer ${lt})`;
}

/** One violation per import cycle between files (Tarjan's strongly connected components). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): Violation[] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: Violation[] = [];
  const visit = (v: string): void => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); scc.push(w); } while (w !== v);
      const self = (graph.get(v) ?? []).includes(v);
      if (scc.length > 1 || self) {
        const members = scc.sort();
        out.push({ file: members[0], spec: members.join(' → '), rule: 'import cycle' });
      }
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/** Functions (declarations, methods, arrows, expressions) longer than `max` lines, longest first. */
export async function longFunctions(srcRoot: string, max: number): Promise<{ file: string; name: string; lines: number }[]> {
  const ts = (await import('typescript')).default;
  const out: { file: string; name: string; lines: number }[] = [];
  for (const abs of listTs(srcRoot)) {
    const text = readFileSync(abs, 'utf8');
    const sf = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true);
    const visit = (node: import('typescript').Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        const name = node.name && ts.isIdentifier(node.name) ? node.name.text
          : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : '(anonymous)';
        if (lines > max) out.push({ file: relative(srcRoot, abs), name, lines });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out.sort((a, b) => b.lines - a.lines);
}

/**
 * The input kind is one tagged value (`Source`, sources/input.ts) whose SOURCES entry decides
 * per kind; a command that asks which optional input field or file flag is set decides a kind
 * itself. Found in commands/ and cli/ (which parses flags and calls one command function): an input's optional reader fields (`input.rates`, `.trials?.`,
 * `.digitized?.`, `.logs?.`), and a ternary on whether a file flag was given
 * (`opts.trials !== undefined ? …`, `?? (opts.store …`) or a branch on it (`if (o.trials !== undefined) {`).
 */
const KIND_DECISIONS: readonly RegExp[] = [
  /\b(?:input|read|res\.input)!?\.(?:rates|trials|digitized)\b/,
  /\.(?:rates|trials|digitized|logs)\?\./,
  /\b(?:opts|o)\.(?:data|trials|digitized|store|format)\s*[!=]==?\s*undefined\s*\?/,
  /\?\?\s*\(\s*(?:opts|o)\.(?:data|trials|digitized|store)\b/,
  /\bif\s*\(\s*(?:opts|o)\.(?:data|trials|digitized|store|format)\s*[!=]==?\s*undefined\s*\)\s*(?:\{|return\b)/,
];

export function kindDecisions(srcRoot: string): Violation[] {
  const out: Violation[] = [];
  for (const abs of listTs(srcRoot)) {
    const file = relative(srcRoot, abs);
    if (topOf(file) !== 'commands' && topOf(file) !== 'cli') continue;
    readFileSync(abs, 'utf8').split('\n').forEach((line, i) => {
      if (KIND_DECISIONS.some((re) => re.test(line))) out.push({ file: `${file}:${i + 1}`, spec: line.trim(), rule: 'a command decides an input kind from an optional field (ask SOURCES)' });
    });
  }
  return out;
}

/** Source files longer than `max` lines. */
export function longFiles(srcRoot: string, max: number): { file: string; lines: number }[] {
  return listTs(srcRoot).map((f) => ({ file: relative(srcRoot, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > max).sort((a, b) => b.lines - a.lines);
}

/** Lines longer than `max` characters (code points), as `file:line (length)`. */
export function longLines(srcRoot: string, max: number): string[] {
  const out: string[] = [];
  for (const abs of listTs(srcRoot)) {
    readFileSync(abs, 'utf8').split('\n').forEach((line, i) => {
      const n = [...line].length;
      if (n > max) out.push(`${relative(srcRoot, abs)}:${i + 1} (${n})`);
    });
  }
  return out.sort();
}
