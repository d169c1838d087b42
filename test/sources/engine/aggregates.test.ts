/**
 * The aggregates route: a log reduced to per-match aggregates by DuckDB equals the row reader's
 * decisions aggregated in memory (the reference: sources/logs/, tested row by row in
 * test/sources/logs/); `samegame sql`'s query run in a separate DuckDB process, its result read by
 * `analyze --aggregates`, gives byte-identical tables to `analyze --trials` on the same log, one-shot
 * (one round per match) and repeated (rounds, reactions, end game, models, Table 2/3); a bad row
 * is named with file, line and field as the row reader names it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { aggregateDecisions } from '../../../src/core/aggregate-decisions.js';
import { repeated } from '../../../src/analyses/repeated/index.js';
import { readLogAggregates, unsupported, withEngine } from '../../../src/sources/engine/index.js';
import { BUILTIN_LOG_FORMATS, parseLogFormat, readLogDecisions } from '../../../src/sources/logs/index.js';
import { ROOT, runCli } from '../../helpers/cli.js';
import { analyze } from '../../../src/index.js';
import { uniforms } from '../../helpers/uniforms.js';

const FORMAT = `
name: per-decision
shape: decision
columns: [id, player, against, round, seat, move, world, persona]
match: { column: id }
round: { column: round }
game: { constant: stag-hunt }
framing: { column: world }
factors: { persona: { column: persona } }
seats:
  - { model: { column: player }, opponent: { column: against }, action: move, seat: { column: seat } }
actions:
  labels: { stag-hunt: { stag: C, hare: D, none: invalid } }
`;

/** A seeded per-decision log: pairs of 4 models, two framings, `rounds` rounds a match, a few invalid moves, one short match. */
function logText(matches: number, rounds: number, seed: number): string {
  const u = uniforms(seed);
  const models = ['m1', 'm2', 'm3', 'm4'];
  const lines = ['id,player,against,round,seat,move,world,persona'];
  for (let k = 0; k < matches; k++) {
    // the pairs (m1, m2), (m2, m3), (m3, m4), (m4, m1) in both framings, met in an order the sorted cells do not follow
    const a = models[(3 * k) % 4], b = models[(3 * k + 1) % 4];
    const world = Math.floor(k / 4) % 2 === 0 ? 'alt' : 'base', persona = u() < 0.5 ? 'kind' : 'cold';
    const p = 0.3 + 0.1 * models.indexOf(a) + (world === 'alt' ? 0.15 : 0);
    const length = rounds > 1 && k === 3 ? rounds - 1 : rounds; // one short match, left out by default
    for (let r = 1; r <= length; r++) {
      const move = (q: number) => (u() < 0.03 ? 'none' : u() < q ? 'stag' : 'hare');
      lines.push(`g${k},${a},${b},${r},1,${move(p)},${world},${persona}`, `g${k},${b},${a},${r},2,${move(0.5)},${world},${persona}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The same decisions as one row per round (shape round: both seats' moves on the row). */
function roundsText(decisionLog: string): string {
  const [, ...rows] = decisionLog.trim().split('\n').map((l) => l.split(','));
  const out = ['id,round,p1,p2,a1,a2,world,persona'];
  for (let i = 0; i < rows.length; i += 2) {
    const [a, b] = [rows[i], rows[i + 1]];
    out.push([a[0], a[3], a[1], b[1], a[5], b[5], a[6], a[7]].join(','));
  }
  return `${out.join('\n')}\n`;
}

const ROUND_FORMAT = `
name: per-round
shape: round
columns: [id, round, p1, p2, a1, a2, world, persona]
match: { column: id }
round: { column: round }
game: { constant: stag-hunt }
framing: { column: world }
factors: { persona: { column: persona } }
seats:
  - { model: { column: p1 }, opponent: { column: p2 }, action: a1 }
  - { model: { column: p2 }, opponent: { column: p1 }, action: a2 }
actions:
  labels: { stag-hunt: { stag: C, hare: D, none: invalid } }
`;

const dir = mkdtempSync(join(tmpdir(), 'samegame-engine-'));
writeFileSync(join(dir, 'dec.yaml'), FORMAT);
writeFileSync(join(dir, 'repeated.csv'), logText(60, 6, 11));
writeFileSync(join(dir, 'oneshot.csv'), logText(300, 1, 12));

/** The cells of aggregates as plain arrays. */
const cellsOf = (agg: Parameters<typeof repeated.aggregateCells>[0], factors: string[] = []) =>
  repeated.aggregateCells(agg, factors).map((c) => [c.key, c.factors, c.matches, c.horizon, c.columns.sizes.map((v) => [...v]), c.columns.sums.map((v) => [...v])]);

/** Run a query in a separate DuckDB process (node with @duckdb/node-api), writing its result as CSV. */
function runElsewhere(query: string, out: string): void {
  const api = pathToFileURL(join(ROOT, 'node_modules/@duckdb/node-api/lib/index.js')).href;
  const script = `import { DuckDBInstance } from '${api}';
const db = await DuckDBInstance.create(':memory:'); const c = await db.connect();
await c.run("COPY (" + process.env.Q + ") TO '" + process.env.OUT + "' (FORMAT csv, HEADER true)");`;
  const env = { ...process.env, Q: query.trim().replace(/;$/, ''), OUT: out };
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

const tables = (out: string) => Object.fromEntries(readdirSync(join(out, 'reports')).filter((f) => /\.(csv|tex)$/.test(f))
  .map((f) => [f, readFileSync(join(out, 'reports', f), 'utf8')]));

describe('the query engine', () => {
  it('compiles the per-decision format, not payoff decoding or consecutive matches (read in memory instead)', () => {
    expect(unsupported(parseLogFormat(FORMAT, 'dec.yaml'))).toBeUndefined();
    expect(unsupported(BUILTIN_LOG_FORMATS.akata)).toBe('match: consecutive');
    expect(unsupported(BUILTIN_LOG_FORMATS.fairgame)).toBe('shape match (list columns)');
  });

  for (const name of ['repeated.csv', 'oneshot.csv']) {
    it(`${name}: DuckDB's aggregates equal the row reader's decisions aggregated in memory, short matches dropped or kept`, async () => {
      const f = parseLogFormat(FORMAT, 'dec.yaml');
      for (const shortMatches of ['drop', 'keep'] as const) {
        const rows = readLogDecisions([join(dir, name)], f, { displayPaths: [name], shortMatches });
        const engine = await readLogAggregates([join(dir, name)], f, { displayPaths: [name], shortMatches });
        expect(engine).toBeDefined();
        const mem = aggregateDecisions(rows.decisions, ['persona']);
        expect(engine!.aggregates.decisions).toBe(rows.decisions.length);
        expect(cellsOf(engine!.aggregates)).toEqual(cellsOf(mem));
        expect(cellsOf(engine!.aggregates, ['persona'])).toEqual(cellsOf(mem, ['persona']));
      }
    });
  }

  it('in passes over the matches (a bucket of them at a time), the aggregates and their notes are those of one pass', async () => {
    const f = parseLogFormat(FORMAT, 'dec.yaml');
    const file = join(dir, 'repeated.csv');
    const one = await readLogAggregates([file], f, { displayPaths: ['repeated.csv'] });
    const seen: Array<[string, number, number]> = [];
    const logger = { info: () => {}, warn: () => {}, progress: (label: string, done: number, total: number) => { seen.push([label, done, total]); } };
    const many = await readLogAggregates([file], f, { displayPaths: ['repeated.csv'], passDecisions: 50, logger });
    // 60 matches of 6 rounds, two seats (one short): 718 decisions, 15 passes of about 50
    const passes = seen.filter(([label]) => label === 'engine: matches');
    expect(passes.map(([, done]) => done)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect(passes.every(([, , total]) => total === 15)).toBe(true);
    expect(many!.decisionCount).toBe(one!.decisionCount);
    expect(many!.notes).toEqual(one!.notes);
    expect(cellsOf(many!.aggregates, ['persona'])).toEqual(cellsOf(one!.aggregates, ['persona']));
    const rows = readLogDecisions([file], f, { displayPaths: ['repeated.csv'] });
    expect(cellsOf(many!.aggregates)).toEqual(cellsOf(aggregateDecisions(rows.decisions, ['persona'])));
  });

  for (const name of ['repeated.csv', 'oneshot.csv']) {
    it(`${name}: sql → a separate DuckDB process → analyze --aggregates gives the tables of analyze --trials, byte for byte`, async () => {
      const q = await runCli(['sql', '--trials', name, '--format', 'dec.yaml'], { cwd: dir });
      expect(q.stderr).toBe('');
      expect(q.stdout).toMatch(/^WITH src AS/);
      runElsewhere(q.stdout, join(dir, `${name}.agg.csv`));
      // the library's analyze, tables only (the CLI's is the same function with figures); the paths as the query names them
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        const common = { base: 'base', alt: 'alt', figures: false };
        await analyze({ trials: name, format: 'dec.yaml', out: `${name}-trials`, ...common });
        await analyze({ aggregates: `${name}.agg.csv`, out: `${name}-agg`, ...common });
        // --latex-width reaches the aggregates route as it reaches the log's
        await analyze({ trials: name, format: 'dec.yaml', out: `${name}-trials-240`, ...common, latexWidth: 240 });
        await analyze({ aggregates: `${name}.agg.csv`, out: `${name}-agg-240`, ...common, latexWidth: 240 });
      } finally { process.chdir(cwd); }
      const [ta, tb] = [tables(join(dir, `${name}-trials`)), tables(join(dir, `${name}-agg`))];
      expect(Object.keys(ta).sort()).toEqual(Object.keys(tb).sort());
      expect(Object.keys(ta)).toEqual(expect.arrayContaining(['cells.csv', 'rounds.csv', 'reactions.csv', 'endgame.csv', 'models.csv', 'table3.csv']));
      for (const f of Object.keys(ta)) expect(tb[f], f).toBe(ta[f]);
      const [t240, a240] = [tables(join(dir, `${name}-trials-240`)), tables(join(dir, `${name}-agg-240`))];
      expect(t240['cells.tex']).not.toBe(ta['cells.tex']);
      expect(a240['cells.tex']).toBe(t240['cells.tex']);
      // the cells in sorted order, whatever order the log met them in
      const cells = ta['cells.csv'].trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 4).join(','));
      expect(new Set(cells.map((c) => c.split(',')[0])).size).toBe(4);
      expect(cells).toEqual([...cells].sort());
    }, 120_000);
  }

  it('shape round (both seats on one row): the engine\'s aggregates equal the row reader\'s, short matches dropped or kept', async () => {
    const f = parseLogFormat(ROUND_FORMAT, 'round.yaml');
    expect(unsupported(f)).toBeUndefined();
    writeFileSync(join(dir, 'rounds.csv'), roundsText(logText(40, 5, 21)));
    for (const shortMatches of ['drop', 'keep'] as const) {
      const rows = readLogDecisions([join(dir, 'rounds.csv')], f, { displayPaths: ['rounds.csv'], shortMatches });
      const engine = await readLogAggregates([join(dir, 'rounds.csv')], f, { displayPaths: ['rounds.csv'], shortMatches });
      const mem = aggregateDecisions(rows.decisions, ['persona']);
      expect(engine!.aggregates.decisions).toBe(rows.decisions.length);
      expect(cellsOf(engine!.aggregates)).toEqual(cellsOf(mem));
      // reactions present: the previous state is read from the seat's own row and the other seat's column
      expect(cellsOf(mem).some((c) => (c[5] as number[][])[7].some((v) => v > 0))).toBe(true);
    }
  });

  it('a bad row of a JSON-lines or Parquet log is named with file, row (record) and field', async () => {
    const f = parseLogFormat(FORMAT, 'dec.yaml');
    const rows = logText(8, 3, 5).trim().split('\n');
    const header = rows[0].split(',');
    const records = rows.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i], v])));
    const at = records.findIndex((r) => r.id === 'g2' && r.round === '2' && r.seat === '1');
    const named = async (file: string) => {
      try { await readLogAggregates([join(dir, file)], f, { displayPaths: [file] }); } catch (e) { return (e as Error).message; }
      return 'no error';
    };
    const jsonl = (rs: typeof records) => `${rs.map((r) => JSON.stringify(r)).join('\n')}\n`;
    writeFileSync(join(dir, 'bad.jsonl'), jsonl(records.map((r, i) => (i === at ? { ...r, move: 'deer' } : r))));
    expect(await named('bad.jsonl'))
      .toBe(`bad.jsonl: row ${at + 1}: field "move": label "deer" is not an action of "stag-hunt" (known: "stag", "hare", "none")`);
    writeFileSync(join(dir, 'round.jsonl'), jsonl(records.map((r, i) => (i === at ? { ...r, round: '2.5' } : r))));
    expect(await named('round.jsonl')).toBe(`round.jsonl: row ${at + 1}: field "round": "2.5" is not a round (a whole number from 1)`);
    writeFileSync(join(dir, 'dup.jsonl'), jsonl(records.map((r, i) => (i === at + 2 ? { ...r, round: '2', seat: '1' } : r))));
    const dup = records[at + 2];
    expect(dup.id).toBe('g2');
    expect(await named('dup.jsonl')).toBe(`dup.jsonl: row ${at + 3}: field "round": match "g2", round 2, seat 1 is already given on row ${at + 1}`);
    // Parquet: the same refusal, rows numbered in the file's order
    writeFileSync(join(dir, 'bad-src.jsonl'), jsonl(records.map((r, i) => (i === at ? { ...r, seat: '3' } : r))));
    await withEngine('test', async (c) => {
      const from = `read_json('${join(dir, 'bad-src.jsonl')}', format = 'newline_delimited')`;
      await c.run(`COPY (SELECT * FROM ${from}) TO '${join(dir, 'bad.parquet')}' (FORMAT parquet)`);
    });
    expect(await named('bad.parquet')).toBe(`bad.parquet: row ${at + 1}: field "seat": "3" is not a seat (1 or 2)`);
  });

  it('a Parquet log outside an export\'s folders is a log: analyze --trials FILE.parquet --format gives the CSV log\'s tables', async () => {
    await withEngine('test', async (c) => {
      await c.run(`COPY (SELECT * FROM read_csv('${join(dir, 'repeated.csv')}', all_varchar = true)) TO '${join(dir, 'repeated.parquet')}' (FORMAT parquet)`);
    });
    for (const [log, out] of [['repeated.csv', 'pl-csv'], ['repeated.parquet', 'pl-parquet']]) {
      const r = await runCli(['analyze', '--trials', log, '--format', 'dec.yaml', '--base', 'base', '--alt', 'alt', '--out', out, '-q'], { cwd: dir });
      expect(r.stderr, log).not.toMatch(/export/);
      expect(r.code, `${log}: ${r.stderr}`).toBe(0);
    }
    const [a, b] = [tables(join(dir, 'pl-csv')), tables(join(dir, 'pl-parquet'))];
    expect(Object.keys(a)).toEqual(expect.arrayContaining(['cells.csv', 'table3.csv', 'reactions.csv']));
    for (const f of Object.keys(a)) expect(b[f], f).toBe(a[f]);
  });

  it('a bad row of a CSV log is named with file, line and field, as the row reader names it', async () => {
    const bad = logText(8, 3, 5).replace(/\n(g2,m\d,m\d,2,1,)\w+/, '\n$1deer');
    writeFileSync(join(dir, 'bad.csv'), bad);
    const line = bad.split('\n').findIndex((l) => l.includes('deer')) + 1;
    const r = await runCli(['analyze', '--trials', 'bad.csv', '--format', 'dec.yaml', '--out', 'bad-out', '-q'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`samegame: bad.csv:${line}: field "move": label "deer" is not an action of "stag-hunt" (known: "stag", "hare", "none")`);
  });
});
