/**
 * The shipped Akata et al. log read through the built-in `akata` format reproduces the counts of a
 * hand computation from the CSV (test/fixtures/akata-2023/hand_counts.py and its output): cells
 * (cooperation per model × opponent, with their matches), rounds and reactions. The built-in
 * formats pass the description rules; the JSON Schema of descriptions is current.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decisionsTable, type RepeatedDecision } from '../../../src/core/decisions.js';
import { BUILTIN_LOG_FORMATS, formatProblems, logFormatJsonSchema, parseLogFormat, readLogDecisions } from '../../../src/sources/logs/index.js';
import { logFormatSchema } from '../../../src/sources/logs/schema.js';
import { ROOT } from '../../helpers/cli.js';

interface Rate { model: string; opponent: string; n: number; rate: number }
const FIXTURE = join(ROOT, 'test/fixtures/akata-2023/hand_counts.json');
const hand = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
  rows: number; matches: number;
  cells: Array<Rate & { matches: number }>; rounds: Array<Rate & { round: number }>; reactions: Array<Rate & { previous: string }>;
};
const CSV = 'data/akata-2023/experiment_pd.csv';
const dec = readLogDecisions([join(ROOT, CSV)], 'akata', { displayPaths: [CSV] });
const byKey = <T extends { model: string; opponent: string }>(xs: T[], extra: (x: T) => string | number = () => '') =>
  new Map(xs.map((x) => [`${x.model}|${x.opponent === x.model ? 'self' : x.opponent}|${extra(x)}`, x])); // self-play is `self` in the cell table

/** Rate and n per model × opponent of a cell table of the decisions. */
function rates(decisions: readonly RepeatedDecision[], rounds?: { from: number; to: number }) {
  return decisionsTable(decisions, { rounds }).cells.map((c) => {
    const o = c.obs as { sizes: Float64Array; sums: Float64Array };
    const n = o.sizes.reduce((s, x) => s + x, 0);
    return { model: c.key.model, opponent: c.key.opponent, n, rate: o.sums.reduce((s, x) => s + x, 0) / n, matches: o.sizes.length };
  });
}

describe('data/akata-2023 through the akata format', () => {
  it('the hand computation is current (re-run when python3 is available)', () => {
    const py = spawnSync('python3', ['test/fixtures/akata-2023/hand_counts.py', CSV], { cwd: ROOT, encoding: 'utf8' });
    if (py.status !== 0) return; // CI without python3: the committed output is used as is
    expect(JSON.parse(py.stdout)).toEqual(hand);
  });
  it('1,280 decisions in 64 matches of 10 rounds, every decision with its line and letter', () => {
    expect(dec.decisions).toHaveLength(2 * hand.rows);
    expect(new Set(dec.decisions.map((d) => d.match)).size).toBe(hand.matches);
    expect(dec.decisions[0]).toMatchObject({ model: 'act_gpt4', opponent: 'act_gpt4', game: 'prisoners-dilemma', framing: 'experiment_pd', round: 1, seat: 1,
      provenance: { file: CSV, line: 2, label: 'J' } });
  });
  it('cells: cooperation, decisions and matches per model × opponent equal the hand computation', () => {
    const got = rates(dec.decisions);
    expect(got).toHaveLength(hand.cells.length);
    const want = byKey(hand.cells);
    for (const g of got) {
      const w = want.get(`${g.model}|${g.opponent}|`)!;
      expect({ n: g.n, matches: g.matches }).toEqual({ n: w.n, matches: w.matches });
      expect(g.rate).toBeCloseTo(w.rate, 12);
    }
  });
  it('rounds: cooperation per model × opponent × round equals the hand computation', () => {
    const want = byKey(hand.rounds, (r) => r.round);
    let seen = 0;
    for (let round = 1; round <= 10; round++) {
      for (const g of rates(dec.decisions, { from: round, to: round })) {
        const w = want.get(`${g.model}|${g.opponent}|${round}`)!;
        expect(g.n).toBe(w.n);
        expect(g.rate).toBeCloseTo(w.rate, 12);
        seen++;
      }
    }
    expect(seen).toBe(hand.rounds.length);
  });
  it('reactions: cooperation after each (own, other) move of the round before equals the hand computation', () => {
    const prev = new Map<string, RepeatedDecision>();
    for (const d of dec.decisions) prev.set(`${d.match}|${d.seat}|${d.round}`, d);
    const acc = new Map<string, { model: string; opponent: string; previous: string; n: number; c: number }>();
    for (const d of dec.decisions) {
      const p = prev.get(`${d.match}|${d.seat}|${d.round - 1}`);
      if (!p) continue;
      const previous = `${p.action}${p.opponentAction}`;
      const k = `${d.model}|${d.opponent === d.model ? 'self' : d.opponent}|${previous}`; // as byKey names it
      const a = acc.get(k) ?? { model: d.model, opponent: d.opponent, previous, n: 0, c: 0 };
      a.n++; a.c += d.action === 'C' ? 1 : 0;
      acc.set(k, a);
    }
    const want = byKey(hand.reactions, (r) => r.previous);
    expect(acc.size).toBe(want.size);
    for (const [k, a] of acc) {
      expect(a.n).toBe(want.get(k)!.n);
      expect(a.c / a.n).toBeCloseTo(want.get(k)!.rate, 12);
    }
  });
});

describe('built-in formats and the description schema', () => {
  it.each(Object.entries(BUILTIN_LOG_FORMATS))('%s passes the schema and the description rules', (_id, f) => {
    expect(logFormatSchema.safeParse(f).success).toBe(true);
    expect(formatProblems(f)).toEqual([]);
  });
  it('data/log-formats/log-format.schema.json is current (regenerate: npx tsc -p . && node scripts/log-format-schema.mjs)', () => {
    expect(readFileSync(join(ROOT, 'data/log-formats/log-format.schema.json'), 'utf8')).toBe(`${JSON.stringify(logFormatJsonSchema(), null, 2)}\n`);
  });
  it.each([
    ['shape: match\nmatch: consecutive', 'x.yaml:3: field "match": shape match has one match per row: write match: row'],
    ['shape: round\nmatch: row', 'x.yaml:3: field "match": match: row is for shape match'],
    ['shape: round\nmatch: consecutive\nactions: { payoffs: { C: { C: [1, 1], D: [0, 2] }, D: { C: [2, 0], D: [1, 1] } } }',
      'x.yaml:4: field "actions.payoffs.D.D": cells CC and DD have the same payoffs'],
    ['shape: round\nmatch: { column: nope }', 'x.yaml:3: field "match.column": column "nope" is not one of the format\'s columns'],
    ['shape: round\nmatch: { template: "{a" }', 'x.yaml:3: field "match.template": template "{a" has an unclosed or empty {placeholder}'],
    ['shape: rows\nmatch: consecutive', 'x.yaml:2: field "shape": Invalid option'],
    ['shape: round\nmatch: consecutive\nextra: 1', 'x.yaml:4: field "extra": unknown field (check the spelling; see data/log-formats/log-format.schema.json)'],
  ])('a description that breaks a rule: %s', (over, want) => {
    const base = `name: x\n${over}\ncolumns: [round, a, b, x, y]\nround: { column: round }\ngame: { constant: g }\nframing: { file_stem: true }\n`
      + 'seats:\n  - { model: { column: a }, opponent: { column: b }, action: a, payoff: x }\n  - { model: { column: b }, opponent: { column: a }, action: b, payoff: y }\n';
    const text = over.includes('actions:') ? base : `${base}actions: { payoffs: { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } } }\n`;
    let m = '';
    try { parseLogFormat(text, 'x.yaml'); } catch (e) { m = (e as Error).message; }
    expect(m).toContain(want);
  });
});

describe('the Akata log read with another built-in format', () => {
  it('is refused in one line that names the missing column and the format the header fits', () => {
    let m = '';
    try { readLogDecisions([join(ROOT, CSV)], 'fairgame', { displayPaths: [CSV] }); } catch (e) { m = (e as Error).message; }
    expect(m).toMatch(new RegExp(`^${CSV.replace(/[.\\/-]/g, '\\$&')}:1: field "[a-z_]+": the header has no such column \\(format fairgame needs "[a-z_]+"\\); this looks like .+: use --format akata$`));
  });
});
