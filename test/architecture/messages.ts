/**
 * Where a message lives (docs/architecture.md): a message used by one folder of src/ lives beside
 * it, in that folder's messages.ts; src/core/messages/ holds the messages several folders use;
 * no message is unused. Read from the source with the TypeScript parser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

interface MessageKey { readonly file: string; readonly object: string; readonly key: string }
export interface Misplaced { readonly message: string; readonly problem: string }

const tsFiles = (d: string, out: string[] = []): string[] => {
  for (const f of readdirSync(d)) {
    const p = join(d, f);
    if (statSync(p).isDirectory()) tsFiles(p, out); else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
};
const isMessageFile = (rel: string) => rel.startsWith('core/messages/') || /(^|\/)([\w-]+-)?messages\.ts$/.test(rel);

function messageKeys(root: string, rel: string): MessageKey[] {
  const sf = ts.createSourceFile(rel, readFileSync(join(root, rel), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: MessageKey[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of st.declarationList.declarations) {
      let init = d.initializer;
      if (init && ts.isAsExpression(init)) init = init.expression;
      if (!init || !ts.isObjectLiteralExpression(init)) continue;
      for (const p of init.properties) if (p.name) out.push({ file: rel, object: d.name.getText(sf), key: p.name.getText(sf) });
    }
  }
  return out;
}

/** For each file: the (message file, object) pairs it imports, by local alias, and the keys it reads of each. */
function keyReads(root: string, rel: string): { target: string; object: string; key: string }[] {
  const sf = ts.createSourceFile(rel, readFileSync(join(root, rel), 'utf8'), ts.ScriptTarget.Latest, true);
  const alias = new Map<string, { target: string; object: string }>();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause?.namedBindings || !ts.isNamedImports(st.importClause.namedBindings)) continue;
    const target = normalize(join(dirname(rel), (st.moduleSpecifier as ts.StringLiteral).text)).replace(/\.js$/, '.ts');
    for (const el of st.importClause.namedBindings.elements) alias.set(el.name.text, { target, object: (el.propertyName ?? el.name).text });
  }
  const out: { target: string; object: string; key: string }[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression)) {
      const a = alias.get(n.expression.text) ?? { target: rel, object: n.expression.text };
      out.push({ ...a, key: n.name.text });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** Messages of the tree at `root` (a src/ folder) that are unused, or live apart from their one user folder. */
export function misplacedMessages(root: string): Misplaced[] {
  const files = tsFiles(root).map((f) => relative(root, f));
  const keys = files.filter(isMessageFile).flatMap((f) => messageKeys(root, f));
  const users = new Map<string, Set<string>>();
  const id = (file: string, object: string, key: string) => `${file}#${object}.${key}`;
  for (const f of files) {
    for (const r of keyReads(root, f)) {
      const k = id(r.target, r.object, r.key);
      if (!users.has(k)) users.set(k, new Set());
      users.get(k)!.add(f);
    }
  }
  const problems: Misplaced[] = [];
  for (const k of keys) {
    const message = `${k.file}: ${k.object}.${k.key}`;
    const by = [...(users.get(id(k.file, k.object, k.key)) ?? [])];
    const outside = by.filter((f) => f !== k.file);
    if (by.length === 0) { problems.push({ message, problem: 'unused' }); continue; }
    const folders = [...new Set(outside.map((f) => dirname(f)))];
    if (k.file.startsWith('core/messages/')) {
      if (folders.length === 1 && !folders[0].startsWith('core')) problems.push({ message, problem: `used only in ${folders[0]}/: it belongs in ${folders[0]}/messages.ts` });
    } else if (folders.some((d) => d !== dirname(k.file))) {
      problems.push({ message, problem: `used outside ${dirname(k.file)}/ (${folders.join(', ')}): it belongs in core/messages/` });
    }
  }
  return problems;
}
