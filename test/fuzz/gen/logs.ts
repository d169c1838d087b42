/**
 * Published-log CSVs (the Akata et al. round log, `--format akata`) from a seeded generator: two
 * files (framings "one" and "two") of matches between players with printable but hostile names,
 * written with benign variations (CRLF, BOM, every field quoted, the optional columns) whose cells
 * must come out exactly as the generator counts them — cooperations, decisions and matches per
 * model, framing and opponent —, and hostile variations the contract says must be refused (a
 * reserved or control-character name, a row given twice, totals that contradict the points,
 * payoffs that fit no cell, a round gap, invalid UTF-8, a newline in a name) or read with the
 * short match left out (a match cut after round 5).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decisionsTable } from '../../../src/core/decisions.js';
import { readLogDecisions } from '../../../src/sources/logs/index.js';
import { mustRefuse, stream, type FuzzCase } from './common.js';

const NAMES = ['GPT-4', 'a,b', 'say "hi"', 'שלום', 'model 🦜', '=SUM(A1)', 'constructor', 'x<y>&z'];
const POINTS = { CC: [8, 8], CD: [0, 10], DC: [10, 0], DD: [5, 5] } as const;
type Move = 'C' | 'D';
interface Match { p1: string; p2: string; moves: [Move, Move][] }
const HEADER = ['round', 'player1', 'player2', 'answer1', 'answer2', 'points1', 'points2', 'total1', 'total2'];
const q = (v: string, all: boolean) => (all || /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** Matches of the given pairs (both framings have the same pairs: each model–game needs both framings). */
function matches(r: ReturnType<typeof stream>, rounds: number, pairs: ReadonlyArray<readonly [string, string]>): Match[] {
  return pairs.map(([p1, p2]) => ({
    p1, p2,
    moves: Array.from({ length: rounds }, () => [r.next() < 0.6 ? 'C' : 'D', r.next() < 0.6 ? 'C' : 'D'] as [Move, Move]),
  }));
}

/** The rows of a file: one per round, letters J (C) and F (D), points and running totals. */
function rows(ms: readonly Match[]): string[][] {
  const out: string[][] = [];
  for (const m of ms) {
    let t1 = 0, t2 = 0;
    m.moves.forEach(([a, b], i) => {
      const [x, y] = POINTS[`${a}${b}`];
      out.push([String(i + 1), m.p1, m.p2, a === 'C' ? 'J' : 'F', b === 'C' ? 'J' : 'F', String(x), String(y), String(t1 += x), String(t2 += y)]);
    });
  }
  return out;
}

const text = (rs: string[][], o: { eol?: string; bom?: boolean; all?: boolean } = {}) =>
  (o.bom ? '\uFEFF' : '') + [HEADER, ...rs].map((f) => f.map((v) => q(v, o.all ?? false)).join(',')).join(o.eol ?? '\n') + (o.eol ?? '\n');

/** Hostile variations of the rows of file one: each must be refused. */
const HOSTILE: readonly [string, (rs: string[][]) => string | Buffer][] = [
  ['a player renamed Pooled', (rs) => text(rs.map((f) => f.map((v, i) => (i === 1 && v === rs[0][1] ? 'Pooled' : v))))],
  ['ESC in a name', (rs) => text(rs.map((f, k) => (k < 10 ? f.map((v, i) => (i === 1 ? `${v}\u001b[31m` : v)) : f)))],
  ['U+2028 in a name', (rs) => text(rs.map((f, k) => (k < 10 ? f.map((v, i) => (i === 2 ? `${v}\u2028` : v)) : f)))],
  ['U+FFFE in a name', (rs) => text(rs.map((f, k) => (k < 10 ? f.map((v, i) => (i === 2 ? `${v}\ufffe` : v)) : f)))],
  ['a newline in a quoted name', (rs) => text(rs.map((f, k) => (k < 10 ? f.map((v, i) => (i === 1 ? `${v}\nx` : v)) : f)))],
  ['a 300-character name', (rs) => text(rs.map((f, k) => (k < 10 ? f.map((v, i) => (i === 1 ? 'n'.repeat(300) : v)) : f)))],
  ['a row given twice', (rs) => text([rs[0], ...rs])],
  ['a total off by one', (rs) => text(rs.map((f, k) => (k === 3 ? f.map((v, i) => (i === 8 ? String(Number(v) + 1) : v)) : f)))],
  ['payoffs that fit no cell', (rs) => text(rs.map((f, k) => (k === 2 ? f.map((v, i) => (i === 5 ? '7' : v)) : f)))],
  ['a round missing', (rs) => text(rs.filter((_, k) => k !== 4))],
  ['invalid UTF-8', (rs) => Buffer.concat([Buffer.from(text(rs.slice(0, 3))), Buffer.from([0x31, 0x2c, 0xff, 0xfe, 0x0a])])],
  ['binary garbage', () => Buffer.from(Array.from({ length: 700 }, (_, i) => (i * 7919) % 256))],
  ['header only', () => `${HEADER.join(',')}\n`],
];

/** Cells (model, game, framing, opponent) → decisions, cooperations and matches, counted from the matches as generated. */
function expected(files: ReadonlyArray<readonly [string, readonly Match[]]>): Map<string, string> {
  const acc = new Map<string, { n: number; c: number; m: Set<string> }>();
  const add = (model: string, other: string, framing: string, a: Move, id: string) => {
    const k = JSON.stringify([model, 'prisoners-dilemma', framing, model === other ? 'self' : other]);
    const e = acc.get(k) ?? { n: 0, c: 0, m: new Set<string>() };
    e.n++; e.c += a === 'C' ? 1 : 0; e.m.add(id);
    acc.set(k, e);
  };
  for (const [framing, ms] of files) ms.forEach((m, i) => m.moves.forEach(([a, b]) => { add(m.p1, m.p2, framing, a, `${framing}${i}`); add(m.p2, m.p1, framing, b, `${framing}${i}`); }));
  return new Map([...acc].map(([k, e]) => [k, `${e.c}/${e.n} in ${e.m.size}`]));
}

function compare(paths: string[], files: ReadonlyArray<readonly [string, readonly Match[]]>): string[] {
  const t = decisionsTable(readLogDecisions(paths, 'akata').decisions);
  const got = new Map(t.cells.map((c) => {
    const o = c.obs as { sizes: Float64Array; sums: Float64Array };
    return [JSON.stringify([c.key.model, c.key.game, c.key.framing, c.key.opponent]), `${o.sums.reduce((s, x) => s + x, 0)}/${o.sizes.reduce((s, x) => s + x, 0)} in ${o.sizes.length}`];
  }));
  const want = expected(files);
  const problems = [...want].filter(([k, v]) => got.get(k) !== v).map(([k, v]) => `cell ${k}: read ${got.get(k) ?? 'nothing'}, written ${v}`);
  if (got.size !== want.size) problems.push(`read ${got.size} cells, wrote ${want.size}`);
  return problems;
}

export function logCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `log-${i}`);
    mkdirSync(d);
    const rounds = 6 + r.int(5);
    const pairs = Array.from({ length: 2 + r.int(3) }, () => [r.pick(NAMES), r.pick(NAMES)] as const);
    const one = matches(r, rounds, pairs), two = matches(r, rounds, pairs);
    const a = join(d, 'one.csv'), b = join(d, 'two.csv'), out = join(d, 'out');
    const kind = r.next();
    const hostile = kind < 0.5 ? r.pick(HOSTILE) : undefined;
    const cut = !hostile && kind < 0.65;
    const benign = { eol: r.next() < 0.3 ? '\r\n' : '\n', bom: r.next() < 0.2, all: r.next() < 0.3 };
    // A cut match: one more match of the first pair in file one, cut after round 5; it is left out with a warning.
    const oneRows = rows(cut ? [...one, { ...one[0], moves: one[0].moves.slice(0, 5) }] : one);
    writeFileSync(a, hostile ? hostile[1](oneRows) : text(oneRows, benign));
    writeFileSync(b, text(rows(two), benign));
    const kept = one;
    cases.push({
      name: `report a fuzzed Akata log #${i} (${hostile ? hostile[0] : cut ? 'a match cut after round 5' : 'benign'})`,
      argv: ['report', '--trials', a, '--trials', b, '--format', 'akata', '--base', 'one', '--alt', 'two', '--reps', '20', '-q', '--out', out],
      outputs: [out],
      after: hostile ? mustRefuse(hostile[0], a) : undefined,
      accepted: hostile ? undefined : (o) => [
        ...compare([a, b], [['one', kept], ['two', two]]),
        ...(cut && !/the match begun here has 5 rounds/.test(o.stderr) ? ['the short match was left out without a warning'] : []),
      ],
    });
  }
  return cases;
}
