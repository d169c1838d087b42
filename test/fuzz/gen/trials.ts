/**
 * Per-trial files (--trials, CSV and JSONL) from a seeded generator: a random design of cells and
 * decisions, written with benign variations (CRLF, BOM, column order, provenance columns,
 * cooperate 0/1, quoting, hostile-but-printable names) whose counts must come out exactly, and
 * hostile variations (duplicate or control-character headers, duplicate JSON keys, objects where a
 * name goes, a cluster column on some lines only, deep nesting, a directory, garbage) for which
 * only the contract is judged.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readInput } from '../../../src/sources/input.js';
import { stream, type FuzzCase } from './common.js';

const NAMES = ['GPT-4', 'constructor', '__proto__', 'a,b', 'say "hi"', 'שלום', 'model 🦜', '=SUM(A1)', 'x<y>&z'];
const GAMES = ["Prisoner's Dilemma", 'Stag Hunt', 'Harmony'];
const FRAMINGS = ['business', 'friend-sharing'] as const;

interface Trial { model: string; game: string; framing: string; action: 'C' | 'D' }

const csvField = (v: string, quoteAll: boolean) => (quoteAll || /[",\r\n]/.test(v) || v !== v.trim() ? `"${v.replace(/"/g, '""')}"` : v);

function design(r: ReturnType<typeof stream>): Trial[] {
  const models = [...new Set([r.pick(NAMES), r.pick(NAMES)])];
  const games = [...new Set([r.pick(GAMES), r.pick(GAMES)])];
  const out: Trial[] = [];
  for (const model of models) for (const game of games) for (const framing of FRAMINGS) {
    const n = 1 + r.int(6);
    for (let i = 0; i < n; i++) out.push({ model, game, framing, action: r.next() < 0.5 ? 'C' : 'D' });
  }
  // Rows in a random order: the reader groups them.
  for (let i = out.length - 1; i > 0; i--) { const j = r.int(i + 1); [out[i], out[j]] = [out[j], out[i]]; }
  return out;
}

/** The independent count: x C's of n per cell, from the trials as generated. */
function countsOf(trials: readonly Trial[]): Map<string, { x: number; n: number }> {
  const m = new Map<string, { x: number; n: number }>();
  for (const t of trials) {
    const k = JSON.stringify([t.model, t.game, t.framing]);
    const c = m.get(k) ?? { x: 0, n: 0 };
    c.n++; if (t.action === 'C') c.x++;
    m.set(k, c);
  }
  return m;
}

function benignText(trials: readonly Trial[], r: ReturnType<typeof stream>, jsonl: boolean): string {
  const coop = r.next() < 0.3;
  const provenance = r.next() < 0.5;
  const cols = ['model', 'game', 'framing', coop ? 'cooperate' : 'action', ...(provenance ? ['source'] : [])];
  if (r.next() < 0.5) cols.reverse();
  const value = (t: Trial, c: string) => (c === 'cooperate' ? (t.action === 'C' ? '1' : '0') : c === 'source' ? 'table 2, p. 3' : t[c as keyof Trial]);
  const eol = r.next() < 0.3 ? '\r\n' : '\n';
  const bom = r.next() < 0.2 ? '\uFEFF' : '';
  if (jsonl) return bom + trials.map((t) => JSON.stringify(Object.fromEntries(cols.map((c) => [c, c === 'cooperate' ? Number(value(t, c)) : value(t, c)])))).join(eol) + eol;
  const quoteAll = r.next() < 0.3;
  return bom + [cols.join(','), ...trials.map((t) => cols.map((c) => csvField(value(t, c), quoteAll)).join(','))].join(eol) + eol;
}

/** Hostile variations of a file (text), or of the path itself. */
const HOSTILE: readonly [string, (t: readonly Trial[], jsonl: boolean) => string][] = [
  ['duplicate header', (t) => `model,game,framing,action,model\n${t.map((x) => `${csvField(x.model, false)},${csvField(x.game, false)},${x.framing},${x.action},other`).join('\n')}\n`],
  ['control character in a header', (t) => `model,game,fram\u0007ing,action\n${t.map((x) => `${csvField(x.model, false)},${csvField(x.game, false)},${x.framing},${x.action}`).join('\n')}\n`],
  ['duplicate JSON key', (t) => t.map((x) => `{"model":${JSON.stringify(x.model)},"model":"other","game":${JSON.stringify(x.game)},"framing":"${x.framing}","action":"${x.action}"}`).join('\n') + '\n'],
  ['object where a name goes', (t) => t.map((x, i) => JSON.stringify({ model: i === 0 ? { name: x.model } : x.model, game: x.game, framing: x.framing, action: x.action })).join('\n') + '\n'],
  ['cluster on later lines only', (t) => t.map((x, i) => JSON.stringify({ model: x.model, game: x.game, framing: x.framing, action: x.action, ...(i > 0 ? { cluster: `k${i % 3}` } : {}) })).join('\n') + '\n'],
  ['nested 200,000 deep', (t) => `${'['.repeat(200_000)}${']'.repeat(200_000)}\n${t.map((x) => JSON.stringify(x)).join('\n')}\n`],
  ['U+2028 in a name', (t) => t.map((x) => JSON.stringify({ ...x, model: `${x.model}\u2028line` })).join('\n') + '\n'],
  ['control character in a name', (t) => t.map((x) => JSON.stringify({ ...x, game: `${x.game}\u001b[31m` })).join('\n') + '\n'],
  ['an action that is not C or D', (t) => t.map((x, i) => JSON.stringify({ ...x, action: i === 1 ? 'maybe' : x.action })).join('\n') + '\n'],
  ['a line cut short', (t, j) => (j ? `${t.map((x) => JSON.stringify(x)).join('\n')}\n{"model":"M","ga` : `model,game,framing,action\n${t.map((x) => `${csvField(x.model, false)},${csvField(x.game, false)},${x.framing},${x.action}`).join('\n')}\nM,G\n`)],
  ['binary garbage', () => Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7919) % 256)).toString('latin1')],
  ['empty', () => ''],
  ['header only', (_t, j) => (j ? '\n' : 'model,game,framing,action\n')],
  ['a game colliding with a folded name', (t) => t.map((x, i) => JSON.stringify({ ...x, game: i % 2 ? 'G [t=1]' : 'G', t: i % 2 ? '' : '1' })).join('\n') + '\n'],
];

export function trialCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `trials-${i}`);
    mkdirSync(d);
    const trials = design(r);
    const jsonl = r.next() < 0.5;
    const file = join(d, jsonl ? 't.jsonl' : 't.csv');
    const out = join(d, 'out');
    const hostile = r.next() < 0.5 ? r.pick(HOSTILE) : undefined;
    const factor = hostile?.[0] === 'a game colliding with a folded name' ? ['--factor', 't'] : [];
    writeFileSync(file, hostile ? hostile[1](trials, jsonl) : benignText(trials, r, jsonl));
    const expected = countsOf(trials);
    cases.push({
      name: `report --trials (${hostile ? hostile[0] : 'benign'}, ${jsonl ? 'jsonl' : 'csv'}) #${i}`,
      argv: ['report', '--trials', file, '--out', out, '--reps', '20', '-q', ...factor],
      outputs: [out],
      accepted: hostile ? undefined : () => compareCounts(file, expected),
    });
  }
  const asDir = join(dir, 'trials-dir');
  mkdirSync(asDir);
  cases.push({ name: 'report --trials DIR', argv: ['report', '--trials', asDir, '--out', join(dir, 'trials-dir-out'), '--reps', '20', '-q'], outputs: [join(dir, 'trials-dir-out')] });
  cases.push({ name: 'report --trials … --cluster model', argv: ['report', '--trials', join(dir, 'trials-0', 't.csv'), '--cluster', 'model', '--out', join(dir, 'cl-out'), '--reps', '20', '-q'], outputs: [join(dir, 'cl-out')] });
  return cases;
}

function compareCounts(file: string, expected: Map<string, { x: number; n: number }>): string[] {
  const got = new Map(readInput({ trials: file }, 'business', 'friend-sharing').table.cells.map((c) => {
    const o = c.obs as { kind: string; x?: number; n?: number };
    return [JSON.stringify([c.key.model, c.key.game, c.key.framing]), o.kind === 'binary' ? { x: o.x!, n: o.n! } : { x: NaN, n: NaN }];
  }));
  const problems: string[] = [];
  for (const [k, e] of expected) {
    const g = got.get(k);
    if (g === undefined || g.x !== e.x || g.n !== e.n) problems.push(`cell ${k}: read ${g ? `${g.x}/${g.n}` : 'nothing'}, written ${e.x}/${e.n}`);
  }
  if (got.size !== expected.size) problems.push(`read ${got.size} cells, wrote ${expected.size}`);
  return problems;
}
