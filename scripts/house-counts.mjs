/**
 * The counts of the house, read off src/: how far the code is from one route per input (one store
 * opener, one reader of stored designs, one pipeline, one store-error guard, statistic names from
 * the Table 3 registry, one home per numerical function). It reports; it
 * never fails (exit 0 whatever the counts). `node scripts/house-counts.mjs` prints one line per
 * count — the number, its name, the target and how it is counted; `--list` adds where each is;
 * `--root DIR` counts DIR/src instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// `--root DIR`: count another tree (its src/), as the script's own test does on fixtures.
const rootAt = process.argv.indexOf('--root');
const ROOT = rootAt > 0 ? process.argv[rootAt + 1] : join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

const tsFiles = (dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts')).map((f) => join(dir, f)).sort();
const FILES = tsFiles(SRC).map((abs) => ({ rel: relative(ROOT, abs), text: readFileSync(abs, 'utf8') }));
const lines = (f) => f.text.split('\n');
const inCommands = (f) => f.rel.startsWith('src/commands/');

/** Every line of `files` matching `re`, as "file:line". */
function linesMatching(files, re) {
  const out = [];
  for (const f of files) lines(f).forEach((l, i) => { if (re.test(l)) out.push(`${f.rel}:${i + 1}`); });
  return out;
}

/** The commands of the CLI: the files of src/cli/ that import a command file of the same name (NAME.js, or NAME-*.js: meta-outputs.js). */
function commandNames() {
  const names = [];
  for (const f of FILES.filter((x) => x.rel.startsWith('src/cli/'))) {
    const name = f.rel.slice('src/cli/'.length, -'.ts'.length);
    if (f.text.includes(`commands/${name}.js`) || f.text.includes(`commands/${name}-`)) names.push(name);
  }
  return names;
}

/** The command a file of src/commands/ belongs to: NAME.ts and NAME-*.ts belong to NAME (the longest name that fits). */
function commandOf(base, names) {
  return names.filter((n) => base === n || base.startsWith(`${n}-`)).sort((a, b) => b.length - a.length)[0];
}

/**
 * Files of one command that import (statically, as types, or dynamically) a file of another command, and files of the pipeline every
 * command shares (src/commands/pipeline/) that import a command's file: commands depend on the pipeline, never the reverse.
 */
function crossCommandImports() {
  const names = commandNames();
  const out = [];
  for (const f of FILES.filter(inCommands)) {
    const inPipeline = f.rel.startsWith('src/commands/pipeline/');
    const own = inPipeline ? undefined : commandOf(f.rel.slice('src/commands/'.length, -'.ts'.length), names);
    if (own === undefined && !inPipeline) continue;
    const sibling = inPipeline ? /(?:from|import\()\s*'\.\.\/([a-z0-9-]+)\.js'/g : /(?:from|import\()\s*'\.\/([a-z0-9-]+)\.js'/g;
    const others = new Set();
    for (const m of f.text.matchAll(sibling)) {
      const theirs = commandOf(m[1], names);
      if (theirs !== undefined && theirs !== own) others.add(m[1]);
    }
    if (others.size) out.push(`${f.rel} → ${[...others].sort().join(', ')}`);
  }
  return out;
}

/** The names of the parameters of a declaration's first parameter list typed as functions (`use: (store) => T`, `fn: () => T`). */
function functionParams(text) {
  const open = text.indexOf('(');
  if (open < 0) return [];
  const params = [];
  let depth = 0;
  let current = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if ('({[<'.includes(c)) depth++;
    else if (')}]'.includes(c) || (c === '>' && text[i - 1] !== '=')) depth--;
    if (depth === 0) { params.push(current); break; }
    if (depth === 1 && c === ',') { params.push(current); current = ''; } else if (i > open) current += c;
  }
  return params.map((p) => /^\s*([A-Za-z0-9_$]+)\??\s*:\s*\(/.exec(p)?.[1]).filter((n) => n !== undefined);
}

/**
 * The store-error mappers and their wrappers among the exported top-level functions and consts: a mapper calls storeError( or says a
 * store's failure line; a wrapper hands storeGuard a function it was given (a parameter typed as a function, passed or called in the
 * guard's arguments), so its callers get the guard through it. A function that guards its own work (storeGuard on a function of its
 * own) is the guard's user, not a second guard.
 */
function storeErrorExports() {
  const start = /^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class|interface|type|abstract)\s+([A-Za-z0-9_$]+)/;
  const maps = /\bstoreError\(|storeMsg\.store(?:Unreadable|Damaged|WalReadOnly|Refused)\b/;
  const out = [];
  for (const f of FILES) {
    const ls = lines(f);
    for (let i = 0; i < ls.length; i++) {
      const m = /^export\s+(?:async\s+)?(?:function|const|let)\s/.test(ls[i]) ? start.exec(ls[i]) : null;
      if (!m) continue;
      let end = i + 1;
      while (end < ls.length && !start.test(ls[end]) && !ls[end].startsWith('/**')) end++;
      const body = ls.slice(i, end).join('\n').replace(start, '');
      const guarded = [...body.matchAll(/\bstoreGuard\(/g)].map((g) => body.slice(g.index));
      const wraps = functionParams(body).some((p) => guarded.some((g) => new RegExp(`\\b${p.replace(/\$/g, '\\$')}\\b`).test(g)));
      if (maps.test(body) || wraps) out.push(`${f.rel}:${i + 1} ${m[1]}`);
    }
  }
  return out;
}

/**
 * The statistic names of the Table 3 registry (src/stats/table3.ts), read off its text: each column's
 * and variant's `column` (with its `_lo` and `_hi`), the names of its raw and conservative values
 * (`cell`, `cellConservative`, `group`, `groupConservative`) and the family robustness `FAMILY_R`.
 */
function registryNames() {
  const text = FILES.find((f) => f.rel === 'src/stats/table3.ts').text;
  const names = new Set();
  for (const m of text.matchAll(/\b(column|cell|cellConservative|group|groupConservative):\s*'([A-Za-z0-9_]+)'/g)) {
    names.add(m[2]);
    if (m[1] === 'column') { names.add(`${m[2]}_lo`); names.add(`${m[2]}_hi`); }
  }
  for (const m of text.matchAll(/\bFAMILY_R\s*=\s*'([A-Za-z0-9_]+)'/g)) names.add(m[1]);
  return names;
}

/**
 * Words that are also statistic names but mean something else where these lines say them: a
 * bootstrap statistic's kind of bounds (StatKind 'shift'), an adaptive run's stop target, an effect
 * measure of `samegame meta`, a preregistered hypothesis's estimand (the plan schema's words; every
 * line of src/analyses/preregistration/, PREREGISTRATION) and a payoff letter (T, R, P, S). A line is
 * left out when it matches one of these.
 */
const PREREGISTRATION = 'src/analyses/preregistration/';
const OTHER_VOCABULARIES = [
  /\bStatKind\b|\bkind\s*(?:!==|===|:)\s*'shift'|\bofKind\(/,
  /\btarget\b|\bStopTarget\b|z\.enum\(\['rate', 'shift'\]\)/,
  /\bmeasure\b|\bEffectMeasure\b|\bEFFECT_MEASURES\b|\beffect:|\bstudyEffects\(/,
  /names: \['C', 'D', 'T', 'R', 'P', 'S'\]/,
];

/** String literals ('…', "…", `…` without interpolation) spelling a registry statistic name, outside the registry and comments. */
function statisticLiterals() {
  const names = registryNames();
  const out = [];
  for (const f of FILES.filter((x) => x.rel !== 'src/stats/table3.ts' && !x.rel.startsWith(PREREGISTRATION))) {
    lines(f).forEach((l, i) => {
      if (/^\s*(?:\*|\/\/|\/\*)/.test(l) || OTHER_VOCABULARIES.some((re) => re.test(l))) return;
      for (const m of l.matchAll(/(['"`])([A-Za-z0-9_]+)\1/g)) if (names.has(m[2])) out.push(`${f.rel}:${i + 1} ${m[0]}`);
    });
  }
  return out;
}

const COUNTS = [
  ['TrialStore.openExisting in commands/', 0, 'lines of src/commands/ that call TrialStore.openExisting',
    () => linesMatching(FILES.filter(inCommands), /TrialStore\.openExisting\b/)],
  ['dryRun: true literals', 0, 'lines of src/ with the literal `dryRun: true` (a command computing its tables without writing them, to add figures)',
    () => linesMatching(FILES, /\bdryRun\s*:\s*true\b/)],
  ['writeFilesAtomic in commands/', 1, 'files of src/commands/ that call writeFilesAtomic( (imports not counted)',
    () => FILES.filter((f) => inCommands(f) && /\bwriteFilesAtomic\(/.test(f.text)).map((f) => f.rel)],
  ['command files importing another command', 0,
    'files of src/commands/ that belong to a CLI command (NAME.ts, NAME-*.ts; the commands are the src/cli/NAME.ts that import commands/NAME.js or '
    + 'NAME-*.js) and import a file of another command, and files of src/commands/pipeline/ that import a command\'s file (static, type-only or '
    + 'dynamic import)',
    crossCommandImports],
  ['store-error exports', 1, 'exported top-level functions and consts of src/ that map a store failure (call storeError( or build a store '
    + 'failure line: storeMsg.storeUnreadable/storeDamaged/storeWalReadOnly/storeRefused) or wrap the guard (hand storeGuard( a function they '
    + 'were given): the mappers and their wrappers',
  storeErrorExports],
  ['statistic-name literals outside the registry', 0,
    'string literals in src/ (comments left out) spelling a name of the Table 3 registry (src/stats/table3.ts: columns and variants with their _lo/_hi, '
    + 'raw and conservative value names, FAMILY_R), outside the registry; lines where the word names a StatKind, a stop target, an effect measure, '
    + 'a preregistered estimand or a payoff letter are left out',
  statisticLiterals],
  ['stored-design readers outside the store module', 0,
    'lines of src/ outside src/live/store/ that parse a run\'s stored design themselves (JSON.parse of a designJson) instead of reading it through '
    + 'live/store/stored-design.ts',
    () => linesMatching(FILES.filter((f) => !f.rel.startsWith('src/live/store/')), /JSON\.parse\([^)]*designJson/)],
  ['logGamma definitions', 1, 'declarations in src/ of a function, const or let named logGamma',
    () => linesMatching(FILES, /(?:\bfunction\s+logGamma\b|\b(?:const|let)\s+logGamma\s*=)/)],
  ['lines over 160 characters in src/', 0,
    'lines of src/**/*.ts longer than 160 characters (counted in characters, not bytes, as test/architecture.test.ts does)',
    () => FILES.flatMap((f) => lines(f).flatMap((l, i) => ([...l].length > 160 ? [`${f.rel}:${i + 1} (${[...l].length})`] : [])))],
];

const list = process.argv.includes('--list');
for (const [name, target, how, find] of COUNTS) {
  const found = find();
  console.log(`${String(found.length).padStart(4)}  ${name} (target ${target}) — ${how}`);
  if (list) for (const w of found) console.log(`        ${w}`);
}
