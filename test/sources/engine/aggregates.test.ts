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
import { aggregateDecisions } from '../../../src/core/aggregates.js';
import { repeated } from '../../../src/analyses/repeated/index.js';
import { readLogAggregates, unsupported } from '../../../src/sources/engine/index.js';
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

  it('a bad row of a CSV log is named with file, line and field, as the row reader names it', async () => {
    const bad = logText(8, 3, 5).replace(/\n(g2,m\d,m\d,2,1,)\w+/, '\n$1deer');
    writeFileSync(join(dir, 'bad.csv'), bad);
    const line = bad.split('\n').findIndex((l) => l.includes('deer')) + 1;
    const r = await runCli(['analyze', '--trials', 'bad.csv', '--format', 'dec.yaml', '--out', 'bad-out', '-q'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`samegame: bad.csv:${line}: field "move": label "deer" is not an action of "stag-hunt" (known: "stag", "hare", "none")`);
  });
});
