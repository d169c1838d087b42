/**
 * Damaged trial stores from a seeded generator: a valid store with one damage — probabilities
 * that are text or outside [0, 1], reserved or hostile names, factors that are not a JSON object,
 * unknown statuses and actions, dropped tables, a file cut short, flipped bytes. `export` and
 * `plan` must keep the contract; an accepted export holds one line per stored trial (counted by SQL).
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { counts, writeStore } from '../../helpers/store.js';
import { stream, type FuzzCase } from './common.js';

const SQL_DAMAGE: readonly [string, string][] = [
  ['p_cooperate text', "UPDATE trials SET p_cooperate = 'high' WHERE rep = 0"],
  ['p_cooperate 7.5', 'UPDATE trials SET p_cooperate = 7.5 WHERE rep = 1'],
  ['p_cooperate −1', 'UPDATE trials SET p_cooperate = -1 WHERE rep = 0'],
  ['a model named Pooled', "UPDATE trials SET model = 'Pooled' WHERE model = 'M2'"],
  ['a control character in a game', "UPDATE trials SET game = 'G' || char(7) WHERE rep = 0"],
  ['U+2028 in a framing', "UPDATE trials SET framing = 'business' || char(8232) WHERE rep = 2 AND framing = 'business'"],
  ['an empty model', "UPDATE trials SET model = '' WHERE rep = 0 AND model = 'M1'"],
  ['factors not JSON', "UPDATE trials SET factors = '{bad' WHERE rep = 0"],
  ['factors an array', "UPDATE trials SET factors = '[1]' WHERE rep = 1"],
  ['a factor value a number', "UPDATE trials SET factors = '{\"t\":1}' WHERE rep = 1"],
  ['an unknown status', "UPDATE trials SET status = 'weird' WHERE rep = 0"],
  ['an action X', "UPDATE trials SET action = 'X' WHERE rep = 0"],
  ['no runs table', 'DROP TABLE runs'],
  ['no trials table', 'DROP TABLE trials'],
  ['no runs', 'DELETE FROM runs'],
  ['every trial failed', "UPDATE trials SET status = 'error', action = NULL, p_cooperate = NULL"],
  ['text where numbers belong', "UPDATE trials SET input_tokens = 'many', latency_ms = 'slow'"],
];

const FILE_DAMAGE: readonly [string, (path: string, r: ReturnType<typeof stream>) => void][] = [
  ['cut in half', (p) => truncateSync(p, Math.floor(statSync(p).size / 2))],
  ['zero length', (p) => truncateSync(p, 0)],
  ['a text file', (p) => writeFileSync(p, 'model,game\nM,G\n')],
  ['bytes flipped in the middle', (p, r) => {
    const b = readFileSync(p);
    for (let i = 0; i < 64; i++) { const at = 4096 + r.int(Math.max(1, b.length - 4096)); b[at] ^= 0xff; }
    writeFileSync(p, b);
  }],
];

export function storeCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const valid = join(dir, 'valid.sqlite');
  const probs = (x: number) => Array.from({ length: 4 }, (_, i) => (x + i) / 10);
  writeStore(valid, { name: 'x', scoring: 'logprobs' }, ['M1', 'M2'].flatMap((model) => ['business', 'friend-sharing'].map((framing, j) => (
    { model, game: 'G', framing, probs: probs(2 + 3 * j) }))));
  writeStore(join(dir, 'valid-sample.sqlite'), { name: 'y' }, ['M1', 'M2'].flatMap((model) => ['business', 'friend-sharing'].map((framing, j) => (
    { model, game: 'G', framing, actions: counts(1 + j, 5) }))));
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `store-${i}`);
    mkdirSync(d);
    const path = join(d, 'store.sqlite');
    copyFileSync(r.next() < 0.5 ? valid : join(dir, 'valid-sample.sqlite'), path);
    let what: string;
    if (r.next() < 0.75) {
      const [name, sql] = r.pick(SQL_DAMAGE);
      const db = new Database(path);
      db.pragma('foreign_keys = OFF');
      db.pragma('ignore_check_constraints = ON');
      db.exec(sql);
      db.close();
      what = name;
    } else {
      const [name, damage] = r.pick(FILE_DAMAGE);
      damage(path, r);
      what = name;
    }
    const out = join(d, 'trials.jsonl');
    cases.push({
      name: `export (${what}) #${i}`, argv: ['export', path, '--format', 'jsonl', '--out', out, '-q'], outputs: [out],
      accepted: () => {
        const db = new Database(path, { readonly: true });
        const n = db.prepare('SELECT count(*) FROM trials').pluck().get() as number;
        db.close();
        const lines = readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').length;
        return lines === n ? [] : [`exported ${lines} lines, the store holds ${n} trials`];
      },
    });
    cases.push({ name: `plan STORE (${what}) #${i}`, argv: ['plan', path, '--target-halfwidth', '0.2', '--reps', '100', '--max-n', '500'], outputs: [] });
  }
  return cases;
}
