/**
 * `samegame export` of a run that asked comprehension probes (docs/methods.md §18c): beside the
 * trials file, a file of their own — trials.csv → trials.probes.csv, trials.jsonl →
 * trials.probes.jsonl, a Parquet folder DIR → DIR.probes.parquet — one record per stored probe
 * with its question, the game's payoff, the number read, the score and the synthetic flag; the
 * trials file holds the decisions only. A run without probes writes no probe file. Expected values
 * from the store itself (probe_trials, read with SQL), which the export must reproduce row by row.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { exportTrials } from '../../src/commands/export-store.js';
import { PROBE_EXPORT_COLUMNS } from '../../src/commands/export-probes.js';
import { UserError } from '../../src/core/errors.js';

const design = (probes: string) => `name: probes-export
models:
  - { id: Sim, provider: simulated, options: { probe_error: 0.3 } }
games: [prisoners-dilemma, stag-hunt]
framings: [business, friend-sharing]
trials: 3
${probes}decoding: { seed: 5 }
`;
const quiet = { info: () => {}, warn: () => {} };

let dir: string;
let store: string;
type Stored = { model: string; game: string; framing: string; rep: number; outcome: string; player: string; expected: number; answer: number | null;
  score: string };
let stored: Stored[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-probes-export-'));
  writeFileSync(join(dir, 'd.yaml'), design('probes: 10\n'));
  store = join(dir, 'd.sqlite');
  await run({ design: join(dir, 'd.yaml'), store, logger: quiet });
  const db = new Database(store, { readonly: true });
  stored = db.prepare('SELECT model, game, framing, rep, outcome, player, expected, answer, score FROM probe_trials ORDER BY model, game, framing, rep')
    .all() as Stored[];
  db.close();
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('CSV: trials.probes.csv beside trials.csv, one row per stored probe, synthetic; the trials file holds the decisions only', async () => {
  // By hand: 1 model × 2 games × 2 framings × 10 probes; × 3 decisions.
  expect(stored).toHaveLength(40);
  expect(new Set(stored.map((p) => p.score))).toEqual(new Set(['correct', 'wrong']));
  const out = join(dir, 'trials.csv');
  const r = await exportTrials({ store, format: 'csv', out, logger: quiet });
  expect(r.trials).toBe(12);
  expect(r.probes).toEqual({ out: join(dir, 'trials.probes.csv'), probes: 40 });
  expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1 + 12);
  const [header, ...rows] = readFileSync(r.probes!.out, 'utf8').trim().split('\n').map((l) => l.split(','));
  expect(header).toEqual([...PROBE_EXPORT_COLUMNS]);
  const col = (row: string[], c: (typeof PROBE_EXPORT_COLUMNS)[number]) => row[header.indexOf(c)];
  expect(rows.map((x) => ({ model: col(x, 'model'), game: col(x, 'game'), framing: col(x, 'framing'), rep: Number(col(x, 'rep')),
    outcome: col(x, 'outcome'), player: col(x, 'player'), expected: Number(col(x, 'expected')), answer: Number(col(x, 'answer')), score: col(x, 'score') })))
    .toEqual(stored);
  expect(rows.every((x) => col(x, 'synthetic') === 'true' && col(x, 'design') === 'probes-export' && col(x, 'status') === 'ok')).toBe(true);
});

it('JSONL: trials.probes.jsonl with the prompt, request and response; Parquet: DIR.probes.parquet, typed', async () => {
  const r = await exportTrials({ store, format: 'jsonl', out: join(dir, 'trials.jsonl'), logger: quiet });
  const lines = readFileSync(join(dir, 'trials.probes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(r.probes?.probes).toBe(40);
  expect(lines.map((l) => [l.outcome, l.player, l.expected, l.answer, l.score])).toEqual(stored.map((p) => [p.outcome, p.player, p.expected, p.answer,
    p.score]));
  expect(lines.every((l) => l.synthetic === true && String(l.prompt).includes('Question: if you choose') && typeof l.request === 'object')).toBe(true);

  const pq = join(dir, 'pq');
  const p = await exportTrials({ store, format: 'parquet', out: pq, logger: quiet });
  expect(p.probes).toEqual({ out: `${pq}.probes.parquet`, probes: 40 });
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const got = (await c.runAndReadAll(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE score = 'correct')::INTEGER AS correct,
    sum(expected)::DOUBLE AS expected, bool_and(synthetic) AS synthetic FROM read_parquet('${pq}.probes.parquet')`)).getRowObjectsJS()[0];
  c.closeSync();
  expect(got).toEqual({ n: 40, correct: stored.filter((s) => s.score === 'correct').length, expected: stored.reduce((t, s) => t + s.expected, 0),
    synthetic: true });
});

it('a run that asked no probes writes no probe file', async () => {
  writeFileSync(join(dir, 'none.yaml'), design(''));
  const none = join(dir, 'none.sqlite');
  await run({ design: join(dir, 'none.yaml'), store: none, logger: quiet });
  const out = join(dir, 'none.csv');
  const r = await exportTrials({ store: none, format: 'csv', out, logger: quiet });
  expect([r.trials, r.probes]).toEqual([12, undefined]);
  expect(existsSync(join(dir, 'none.probes.csv'))).toBe(false);
});

it('Parquet: a directory where the probes file goes is refused in one line before anything is written', async () => {
  const pq = join(dir, 'pq-blocked');
  mkdirSync(`${pq}.probes.parquet`);
  const e = await exportTrials({ store, format: 'parquet', out: pq, logger: quiet }).then(() => undefined, (x: unknown) => x);
  expect(e).toBeInstanceOf(UserError);
  expect((e as Error).message.split('\n')).toHaveLength(1);
  expect((e as Error).message).toContain('pq-blocked.probes.parquet');
  expect(existsSync(pq)).toBe(false);
});
