#!/usr/bin/env node
/**
 * Generates the committed fuzz corpus under test/fuzz/: malformed (and a few valid) rates files,
 * designs and damaged trial stores. Deterministic: the same script writes the same files.
 *
 *     npx tsc -p . && node test/fuzz/generate.mjs
 *
 * test/fuzz/corpus.test.ts runs every case through the CLI. The corpus is committed so a failure
 * names a file anyone can open; regenerate only to add cases.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

// mulberry32: a small seeded generator, so the corpus is the same on every machine.
let state = 0x5a3e_9a3e;
const rand = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

function fresh(dir) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

// ---------------------------------------------------------------- rates files
const SHIPPED = readFileSync(join(ROOT, 'data/lore-heydari-2024/rates.csv'), 'utf8');
const LINES = SHIPPED.trimEnd().split('\n');
const HEADER = LINES[0].split(',');
/** The shipped file without provenance columns: model,game,framing,n,rate. */
const SMALL = ['model,game,framing,n,rate', ...LINES.slice(1).map((l) => {
  const m = /^([^,]*),("[^"]*"|[^,]*),([^,]*),([^,]*),([^,]*),/.exec(l);
  return m.slice(1, 6).join(',');
})];
const csvField = (s) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

function ratesCases() {
  const cases = [];
  const add = (name, text) => cases.push({ name, text });
  const rows = SMALL.slice(1);
  const withRow = (i, f) => [SMALL[0], ...rows.map((r, j) => (j === i ? f(r.split(',')) : r))].join('\n') + '\n';
  const setField = (col, v) => (parts) => { const p = [...parts]; p[col] = v; return p.map(csvField).join(','); };

  add('valid-small', SMALL.join('\n') + '\n');
  add('valid-crlf', SMALL.join('\r\n') + '\r\n');
  add('valid-bom', '\uFEFF' + SMALL.join('\n') + '\n');
  add('cr-only-bad-rate', SMALL.map((l, i) => (i === 11 ? l.replace(/[^,]*$/, 'abc') : l)).join('\r') + '\r');
  add('empty', '');
  add('header-only', SMALL[0] + '\n');
  add('blank-lines-only', '\n\n\n');
  add('binary-garbage', Array.from({ length: 512 }, () => String.fromCharCode(Math.floor(rand() * 256))).join(''));
  add('utf16le', Buffer.from('\uFEFF' + SMALL.join('\n'), 'utf16le').toString('latin1'));
  add('long-field', withRow(0, setField(0, 'M'.repeat(100_000))));
  add('unterminated-quote', withRow(3, (p) => `"${p.join(',')}`));
  add('only-one-framing', [SMALL[0], ...rows.filter((r) => r.includes('business'))].join('\n') + '\n');
  add('duplicate-row', [...SMALL, rows[0]].join('\n') + '\n');
  add('semicolon-delimited', SMALL.map((l) => l.replace(/,/g, ';')).join('\n') + '\n');
  for (const [i, col] of ['model', 'game', 'framing', 'n', 'rate'].entries()) {
    add(`missing-column-${col}`, SMALL.map((l) => l.split(',').filter((_, j) => j !== i).join(',')).join('\n') + '\n');
    add(`duplicate-column-${col}`, SMALL.map((l) => { const p = l.split(','); return [...p, p[i]].join(','); }).join('\n') + '\n');
  }
  add('both-rate-and-cooperate-empty', SMALL.map((l, i) => (i === 0 ? `${l},cooperate` : i === 4 ? l.replace(/[^,]*$/, ',') : `${l},`)).join('\n') + '\n');
  add('provenance-shipped-header', [HEADER.join(','), ...LINES.slice(1)].join('\n') + '\n');

  const badRates = ['', 'abc', '-0.1', '1.5', '1e-3', '0x1', 'NaN', 'Infinity', '0.5.5', ' ', '１', '0,5', '.', '+', '1/3', '99999999999999999999'];
  const badNs = ['0', '-3', '1.5', '3e2', '9007199254740993', 'abc', '', '0x12c', '+300', '300 ', ' 300', '٣٠٠'];
  const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', '<img src=x onerror=alert(1)>', '</script>', 'a & b', '"quoted"',
    'שלום', '🙂🙂', 'A / B', 'Pooled', 'All', '', ' ', 'x\u0000y', '\u001b[31mRED\u001b[0m', 'X\u001fY', 'del\u007f', 'c1\u0085', 'tab\there',
    'line\nbreak', 'bidi\u202Eevil', 'zw\u200Bj', '\uFFFE', '=cmd|calc', '{{x}}', '%s%s%n', '../../etc/passwd'];
  // Each kind of bad value on a few different rows.
  for (const v of badRates) for (let k = 0; k < 2; k++) add(`bad-rate-${cases.length}`, withRow(Math.floor(rand() * rows.length), setField(4, v)));
  for (const v of badNs) for (let k = 0; k < 2; k++) add(`bad-n-${cases.length}`, withRow(Math.floor(rand() * rows.length), setField(3, v)));
  for (const v of names) {
    const col = pick([0, 1, 2]);
    // Rename the level everywhere it occurs, so the table stays complete when the name is acceptable.
    const old = rows[Math.floor(rand() * rows.length)].split(',')[col];
    add(`name-${cases.length}`, [SMALL[0], ...rows.map((r) => { const p = r.split(','); if (p[col] === old) p[col] = v; return p.map(csvField).join(','); })].join('\n') + '\n');
  }
  // Structural damage at random places.
  const damage = [
    (t) => t.replace(/,/, ''), (t) => t.replace(/\n/, ',,\n'), (t) => t.slice(0, Math.floor(t.length / 2)),
    (t) => t.replace(/business/g, 'Business'), (t) => t.replace(/friend-sharing/, 'friend sharing'),
    (t) => t.split('\n').reverse().join('\n'), (t) => t.replace(/\n/g, '\n\n'), (t) => t.replace(/"/g, ''),
    (t) => t.replace(/(\d)\.(\d)/, '$1,$2'), (t) => `${t}extra,row\n`, (t) => t.replace(/^model/, 'Model'),
    (t) => t.replace(/300/g, '3'), (t) => t.toUpperCase(), (t) => t.replace(/,/g, '\t'),
  ];
  while (cases.length < 160) {
    const f = pick(damage);
    const g = pick(damage);
    add(`damaged-${cases.length}`, g(f(SMALL.join('\n') + '\n')));
  }
  return cases;
}

// ---------------------------------------------------------------- designs
const BASE_DESIGN = `name: fuzz-base
models:
  - { id: Sim-1, provider: simulated }
  - { id: Sim-2, provider: simulated, options: { lambda: 2 } }
games: [stag-hunt, prisoners-dilemma]
framings: [business, friend-sharing]
trials: 2
prices: { input: 1, output: 2 }
`;
const ENRICHMENT = readFileSync(join(ROOT, 'data/designs/hospital-transfer-sim.yaml'), 'utf8');

function designCases() {
  const cases = [];
  const add = (name, text) => cases.push({ name, text });
  const rep = (a, b) => BASE_DESIGN.replace(a, b);
  add('valid-base', BASE_DESIGN);
  add('valid-enrichment', ENRICHMENT);
  add('empty', '');
  add('null', 'null\n');
  add('list', '- a\n- b\n');
  add('scalar', '42\n');
  add('tabs', BASE_DESIGN.replace(/ {2}/g, '\t'));
  add('unclosed-flow', rep('[stag-hunt, prisoners-dilemma]', '[stag-hunt, prisoners-dilemma'));
  add('alias-bomb', ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...Array.from({ length: 8 }, (_, i) =>
    `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`)].join('\n') + '\n');
  add('alias-bomb-in-design', `${BASE_DESIGN}description: &d [*x]\n`.replace('name: fuzz-base', 'x: &x [1,2,3]\nname: fuzz-base'));
  add('duplicate-key', `${BASE_DESIGN}trials: 3\n`);
  add('binary', Array.from({ length: 300 }, () => String.fromCharCode(Math.floor(rand() * 256))).join(''));
  add('deep-nesting', `name: x\nmodels: ${'['.repeat(500)}${']'.repeat(500)}\n`);
  add('long-name', rep('fuzz-base', 'n'.repeat(50_000)));
  const edits = [
    ['trials: 2', 'trials: 0'], ['trials: 2', 'trials: -1'], ['trials: 2', 'trials: 2.5'], ['trials: 2', 'trials: "two"'],
    ['trials: 2', 'trials: .nan'], ['trials: 2', 'trials: .inf'], ['trials: 2', 'trials:'], ['trials: 2', ''],
    ['provider: simulated }', 'provider: nosuch }'], ['provider: simulated }', 'provider: constructor }'],
    ['provider: simulated }', 'provider: simulated, base_url: "not a url" }'], ['{ id: Sim-1,', '{ id: "Sim 1",'],
    ['{ id: Sim-1,', '{ id: Sim-2,'], ['{ id: Sim-1,', '{ id: "",'], ['{ id: Sim-1,', '{ id: "__proto__",'], ['{ id: Sim-1,', '{ id: "<b>x</b>",'],
    ['stag-hunt,', 'no-such-game,'], ['stag-hunt,', 'stag-hunt, stag-hunt,'], ['[stag-hunt, prisoners-dilemma]', '[]'],
    ['[business, friend-sharing]', '[]'], ['[business, friend-sharing]', '[business, business]'], ['[business, friend-sharing]', '[nosuch]'],
    ['[business, friend-sharing]', '[{ id: jf, family: label-perturbation, labels: [J, J] }]'],
    ['[business, friend-sharing]', '[{ id: jf, family: label-perturbation, labels: [J] }]'],
    ['[business, friend-sharing]', '[{ id: jf, family: nosuch }]'],
    ['{ input: 1, output: 2 }', '{ input: -1, output: 2 }'], ['{ input: 1, output: 2 }', '{ input: 1e308, output: 1e308 }'],
    ['{ input: 1, output: 2 }', '{ input: "1", output: 2 }'], ['{ input: 1, output: 2 }', '{ input: 1 }'],
    ['options: { lambda: 2 }', 'options: { lambda: -2 }'], ['options: { lambda: 2 }', 'options: { lambda: "x" }'],
    ['options: { lambda: 2 }', 'options: { nosuch: 1 }'], ['options: { lambda: 2 }', 'options: [1]'],
    ['name: fuzz-base', 'name: ""'], ['name: fuzz-base', 'name: [a]'], ['name: fuzz-base', 'nosuch: 1\nname: fuzz-base'],
    ['models:', 'models: []\nx:'], ['prisoners-dilemma]', 'prisoners-dilemma, { id: g, payoffs: { C: { C: [1, 1] } } }]'],
    ['prisoners-dilemma]', 'prisoners-dilemma, { id: g, payoffs: { C: { C: [1, 1], D: [0, "five"] }, D: { C: [5, 0], D: [1, 1] } } }]'],
    ['prisoners-dilemma]', 'prisoners-dilemma, { id: g, payoffs: { C: { C: [1e308, 1], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } } }]'],
    ['trials: 2', 'trials: 2\nscoring: nosuch'], ['trials: 2', 'trials: 2\ndecoding: { temperature: 9 }'],
    ['trials: 2', 'trials: 2\ndecoding: { max_tokens: 0 }'], ['trials: 2', 'trials: 2\ndecoding: { seed: -1 }'],
    ['trials: 2', 'trials: 2\nkind: nosuch'],
  ];
  for (const [a, b] of edits) add(`edit-${cases.length}`, rep(a, b));
  const enrichmentEdits = [
    [/registered_direction: \{ higher: regional, lower: local \}/, 'registered_direction: { higher: regional, lower: regional }'],
    [/template: \[role,/, 'template: [nosuch, role,'], [/actions: \[TRANSFER, RETAIN\]/, 'actions: [SAME, SAME]'],
    [/payoffs: \{ T: 5, R: 3, P: 1, S: 0 \}/, 'payoffs: { T: "x", R: 3, P: 1, S: 0 }'], [/trials: 10/, 'trials: -5'],
    [/kind: context-enrichment/, 'kind: nosuch'], [/worlds:/, 'worlds: []\nold_worlds:'], [/\{C\}/, '{Q}'],
  ];
  for (const [a, b] of enrichmentEdits) add(`enrichment-${cases.length}`, ENRICHMENT.replace(a, b));
  while (cases.length < 70) {
    const lines = BASE_DESIGN.split('\n');
    const i = Math.floor(rand() * lines.length);
    const j = Math.floor(rand() * Math.max(1, lines[i].length));
    lines[i] = lines[i].slice(0, j) + pick([':', '{', '}', '[', ']', '&a', '*a', '!!binary', '"', "'", '#', '- ', '|', '%']) + lines[i].slice(j);
    add(`mutated-${cases.length}`, lines.join('\n'));
  }
  return cases;
}

// ---------------------------------------------------------------- stores
const SCHEMA = `
CREATE TABLE runs (id INTEGER PRIMARY KEY, design_name TEXT NOT NULL, design_hash TEXT NOT NULL UNIQUE, design_json TEXT NOT NULL,
  tool_version TEXT NOT NULL, started TEXT NOT NULL);
CREATE TABLE trials (run_id INTEGER NOT NULL REFERENCES runs(id), model TEXT NOT NULL, game TEXT NOT NULL, framing TEXT NOT NULL,
  rep INTEGER NOT NULL, factors TEXT NOT NULL, prompt TEXT NOT NULL, request TEXT NOT NULL, response TEXT, text TEXT,
  action TEXT CHECK (action IN ('C', 'D')), p_cooperate REAL, scoring TEXT, model_snapshot TEXT, input_tokens INTEGER,
  output_tokens INTEGER, latency_ms REAL, status TEXT NOT NULL CHECK (status IN ('ok', 'invalid', 'error')), error TEXT,
  attempts INTEGER NOT NULL, PRIMARY KEY (run_id, model, game, framing, rep));
CREATE INDEX trials_cells ON trials (run_id, model, game, framing, factors, rep, status, action, p_cooperate);`;

const DESIGN_JSON = JSON.stringify({
  name: 'fuzz-store', synthetic: true, trials: 6, scoring: 'sample',
  models: [{ id: 'Sim-1', provider: 'simulated' }, { id: 'Sim-2', provider: 'simulated' }],
  games: [{ id: 'stag-hunt', name: 'Stag Hunt' }, { id: 'prisoners-dilemma', name: "Prisoner's Dilemma" }],
  framings: [{ id: 'business', family: 'business' }, { id: 'friend-sharing', family: 'friend-sharing' }],
});

function validStore(path, { probs = false } = {}) {
  rmSync(path, { force: true });
  const db = new Database(path);
  db.exec(SCHEMA);
  db.prepare('INSERT INTO runs VALUES (1, ?, ?, ?, ?, ?)').run('fuzz-store', 'hash-1', DESIGN_JSON, '0.1.0', '2026-01-01T00:00:00Z');
  const ins = db.prepare(`INSERT INTO trials VALUES (1, ?, ?, ?, ?, '{}', 'prompt', '{}', '{}', ?, ?, ?, ?, 'sim', 100, 5, 1, ?, NULL, 1)`);
  for (const model of ['Sim-1', 'Sim-2']) for (const game of ['stag-hunt', 'prisoners-dilemma']) for (const framing of ['business', 'friend-sharing']) {
    for (let rep = 0; rep < 6; rep++) {
      const p = Math.round(rand() * 1000) / 1000;
      const action = rep === 5 ? null : rand() < 0.5 ? 'C' : 'D';
      ins.run(model, game, framing, rep, action ?? 'unclear', action, probs ? p : null, probs ? 'logprobs' : null, action === null ? 'invalid' : 'ok');
    }
  }
  db.close();
}

function storeCases(dir) {
  const cases = [];
  const make = (name, damage) => {
    const path = join(dir, `${String(cases.length).padStart(3, '0')}-${name}.sqlite`);
    validStore(path, { probs: name.includes('prob') });
    if (damage) damage(path);
    cases.push(path);
  };
  const sql = (q) => (path) => { const db = new Database(path); db.pragma('ignore_check_constraints = ON'); db.pragma('foreign_keys = OFF'); db.exec(q); db.close(); };
  make('valid');
  make('valid-probs');
  make('bad-json-factors', sql("UPDATE trials SET factors = '{not json' WHERE rep = 0"));
  make('factors-array', sql("UPDATE trials SET factors = '[1,2]'"));
  make('factors-number-value', sql(`UPDATE trials SET factors = '{"world":1}'`));
  make('probs-7.5', sql('UPDATE trials SET p_cooperate = 7.5 WHERE rep = 1'));
  make('probs-negative', sql('UPDATE trials SET p_cooperate = -0.5 WHERE rep = 2'));
  make('probs-text', sql("UPDATE trials SET p_cooperate = 'high' WHERE rep = 2"));
  make('drop-column-p', sql('DROP INDEX trials_cells; ALTER TABLE trials DROP COLUMN p_cooperate'));
  make('drop-column-factors', sql('DROP INDEX trials_cells; ALTER TABLE trials DROP COLUMN factors'));
  make('drop-column-design-json', sql('ALTER TABLE runs DROP COLUMN design_json'));
  make('no-trials-table', sql('DROP TABLE trials'));
  make('no-runs-table', sql('DROP TABLE runs'));
  make('no-runs', sql('DELETE FROM runs'));
  make('bad-design-json', sql("UPDATE runs SET design_json = '{broken'"));
  make('design-json-null-literal', sql("UPDATE runs SET design_json = 'null'"));
  make('action-x', sql("UPDATE trials SET action = 'X' WHERE rep = 0"));
  make('status-weird', sql("UPDATE trials SET status = 'weird' WHERE rep = 0"));
  make('model-control-char', sql("UPDATE trials SET model = 'Sim' || char(27) || '[31m' WHERE model = 'Sim-1'"));
  make('model-empty', sql("UPDATE trials SET model = '' WHERE model = 'Sim-1'"));
  make('model-constructor', sql("UPDATE trials SET model = 'constructor' WHERE model = 'Sim-1'"));
  make('orphan-trials', sql('UPDATE trials SET run_id = 7'));
  make('all-errors', sql("UPDATE trials SET status = 'error', action = NULL"));
  const bytes = (f) => (path) => writeFileSync(path, f(readFileSync(path)));
  make('garbage-middle', bytes((b) => { const c = Buffer.from(b); for (let i = 4096; i < Math.min(c.length, 12288); i++) c[i] = Math.floor(rand() * 256); return c; }));
  make('truncated', bytes((b) => b.subarray(0, Math.floor(b.length / 3))));
  make('header-only', bytes((b) => b.subarray(0, 100)));
  make('zero-length', bytes(() => Buffer.alloc(0)));
  make('text-file', bytes(() => Buffer.from('model,game\nA,B\n')));
  make('random-bytes', bytes(() => Buffer.from(Array.from({ length: 4096 }, () => Math.floor(rand() * 256)))));
  return cases;
}

// ---------------------------------------------------------------- write
const ratesDir = join(HERE, 'rates');
const designsDir = join(HERE, 'designs');
const storesDir = join(HERE, 'stores');
fresh(ratesDir);
fresh(designsDir);
fresh(storesDir);
const rates = ratesCases();
rates.forEach((c, i) => writeFileSync(join(ratesDir, `${String(i).padStart(3, '0')}-${c.name.replace(/[^a-z0-9.-]/gi, '_')}.csv`), Buffer.from(c.text, c.name === 'utf16le' || c.name.includes('garbage') ? 'latin1' : 'utf8')));
const designs = designCases();
designs.forEach((c, i) => writeFileSync(join(designsDir, `${String(i).padStart(3, '0')}-${c.name}.yaml`), Buffer.from(c.text, c.name === 'binary' ? 'latin1' : 'utf8')));
const stores = storeCases(storesDir);
console.log(`fuzz corpus: ${rates.length} rates files, ${designs.length} designs, ${stores.length} stores`);
