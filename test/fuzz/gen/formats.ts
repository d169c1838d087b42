/**
 * Log-format descriptions (`--format DESCRIPTION.yaml`) from a seeded generator: the built-in
 * akata format written out as YAML with benign variations (key order, comments, flow or block
 * style, quoting) that must read a log exactly as the built-in does, and hostile variations the
 * contract says must be refused with the description's file named: a bad number in the payoff
 * matrix (.nan, .inf, "5", a 3-tuple), a reserved or control-character constant, a label map
 * without D, a column not in the header, a field of another shape, an alias bomb, a duplicate
 * key, deep nesting, a document that is not a mapping.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decisionsTable } from '../../../src/core/decisions.js';
import { readLogDecisions } from '../../../src/sources/logs/index.js';
import { mustRefuse, stream, type FuzzCase } from './common.js';

type Field = [string, string];
/** The akata format as YAML fields, in order (each value as YAML text). */
const BASE: Field[] = [
  ['name', 'my-akata'],
  ['shape', 'round'],
  ['columns', '[round, player1, player2, answer1, answer2, points1, points2, total1, total2]'],
  ['match', 'consecutive'],
  ['round', '{ column: round }'],
  ['game', '{ constant: prisoners-dilemma }'],
  ['framing', '{ file_stem: true }'],
  ['seats', '\n  - { model: { column: player1 }, opponent: { column: player2 }, action: answer1, payoff: points1, total: total1 }\n  - { model: { column: player2 }, opponent: { column: player1 }, action: answer2, payoff: points2, total: total2 }'],
  ['actions', '\n  payoffs: { C: { C: [8, 8], D: [0, 10] }, D: { C: [10, 0], D: [5, 5] } }'],
];
const yaml = (fs: readonly Field[]) => fs.map(([k, v]) => `${k}: ${v}`).join('\n') + '\n';
const set = (fs: readonly Field[], key: string, value: string): Field[] => fs.map(([k, v]) => [k, k === key ? value : v]);
const payoffs = (dd: string) => `\n  payoffs: { C: { C: [8, 8], D: [0, 10] }, D: { C: [10, 0], D: ${dd} } }`;

const HOSTILE: readonly [string, (fs: Field[]) => string][] = [
  ['payoff .nan', (fs) => yaml(set(fs, 'actions', payoffs('[.nan, 5]')))],
  ['payoff .inf', (fs) => yaml(set(fs, 'actions', payoffs('[5, .inf]')))],
  ['payoff "5"', (fs) => yaml(set(fs, 'actions', payoffs('["5", 5]')))],
  ['a payoff 3-tuple', (fs) => yaml(set(fs, 'actions', payoffs('[5, 5, 5]')))],
  ['an ambiguous matrix', (fs) => yaml(set(fs, 'actions', payoffs('[8, 8]')))],
  ['game constant All', (fs) => yaml(set(fs, 'game', '{ constant: All }'))],
  ['game constant with ESC', (fs) => yaml(set(fs, 'game', '{ constant: "pd\\e[31m" }'))],
  ['a 300-character framing constant', (fs) => yaml(set(fs, 'framing', `{ constant: ${'f'.repeat(300)} }`))],
  ['a label map without D', (fs) => yaml(set(fs, 'actions', '\n  labels: { prisoners-dilemma: { J: C, F: C } }'))],
  ['a column not in the header', (fs) => yaml(set(fs, 'round', '{ column: rnd }'))],
  ['a total without a payoff', (fs) => yaml(set(fs, 'seats', '\n  - { model: { column: player1 }, opponent: { column: player2 }, action: answer1, total: total1 }\n  - { model: { column: player2 }, opponent: { column: player1 }, action: answer2, total: total2 }'))],
  ['shape match with a round', (fs) => yaml(set(fs, 'shape', 'match'))],
  ['an unknown field', (fs) => `${yaml(fs)}extra: 1\n`],
  ['a duplicate key', (fs) => `${yaml(fs)}name: again\n`],
  ['an alias bomb', (fs) => `${yaml(fs)}notes: &a [x, x, x, x, x, x, x, x, x, x]\nz: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\ny: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nx: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`],
  ['deep nesting', () => `${'['.repeat(5000)}${']'.repeat(5000)}\n`],
  ['not a mapping', () => '- a\n- b\n'],
  ['empty', () => ''],
];

/** Benign variations: fields shuffled, a comment, quoted scalars. */
function benign(r: ReturnType<typeof stream>): string {
  const fs = [...BASE];
  for (let i = fs.length - 1; i > 0; i--) { const j = r.int(i + 1); [fs[i], fs[j]] = [fs[j], fs[i]]; }
  const quoted = r.next() < 0.5 ? set(fs, 'shape', '"round"') : fs;
  return `# a description written by hand\n${yaml(quoted)}`;
}

const HEADER = 'round,player1,player2,answer1,answer2,points1,points2,total1,total2\n';
/** Two matches of 4 rounds (J is C, F is D); file two's second match ends in mutual defection. */
const LOG = (two: boolean) => HEADER + ['A,B', 'B,C'].flatMap((pair, k) => {
  let t1 = 0, t2 = 0;
  const rounds = [[8, 8], [0, 10], [10, 0], two && k === 1 ? [5, 5] : [8, 8]];
  return rounds.map(([x, y], i) => `${i + 1},${pair},${x === 8 || x === 0 ? 'J' : 'F'},${y === 8 || y === 0 ? 'J' : 'F'},${x},${y},${t1 += x},${t2 += y}`);
}).join('\n') + '\n';

const cells = (paths: string[], format: string) => {
  const t = decisionsTable(readLogDecisions(paths, format).decisions);
  return JSON.stringify(t.cells.map((c) => [c.key, [...(c.obs as { sums: Float64Array }).sums]]));
};

export function formatCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const a = join(dir, 'one.csv'), b = join(dir, 'two.csv');
  writeFileSync(a, LOG(false));
  writeFileSync(b, LOG(true));
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `format-${i}`);
    mkdirSync(d);
    const hostile = r.next() < 0.6 ? r.pick(HOSTILE) : undefined;
    const f = join(d, 'f.yaml'), out = join(d, 'out');
    writeFileSync(f, hostile ? hostile[1]([...BASE]) : benign(r));
    cases.push({
      name: `report through a fuzzed log format #${i} (${hostile ? hostile[0] : 'benign'})`,
      argv: ['report', '--trials', a, '--trials', b, '--format', f, '--base', 'one', '--alt', 'two', '--reps', '20', '-q', '--out', out],
      outputs: [out],
      after: hostile ? mustRefuse(hostile[0], f) : undefined,
      accepted: hostile ? undefined : () => (cells([a, b], f) === cells([a, b], 'akata') ? [] : ['the description reads the log otherwise than the built-in format']),
    });
  }
  return cases;
}
