/** Shared pieces of the batch-run tests: the quickstart through a loopback server, and reading a store back. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { askedWords, type Answer } from './loopback-openai.js';
import { ROOT } from './cli.js';

export const QUICKSTART = join(ROOT, 'data/designs/quickstart.yaml');
/** By hand from data/designs/quickstart.yaml: 2 models × 4 games × 4 framings × 25 trials. */
export const QUICKSTART_TRIALS = 2 * 4 * 4 * 25;
export const SENTINEL = 'sk-SENTINEL-7f3a9c2e1b-never-stored';

/** An answer whose P(C) differs by cell (a string hash of model|game|framing), the sampled word by rep. */
export function cellAnswer(prompt: string, key: string): Answer {
  const words = askedWords(prompt) ?? ['C', 'D'];
  const parts = key.split('|');
  let h = 0;
  for (const ch of parts.slice(0, 3).join('|')) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const p = 0.2 + 0.6 * ((h % 97) / 96);
  const rep = Number(parts[3]);
  return { text: words[(rep * 7919 + h) % 10 < p * 10 ? 0 : 1], top: [[words[0], p], [words[1], 1 - p]] };
}

export function batchArgs(store: string, url: string, extra: string[] = []): string[] {
  return ['run', QUICKSTART, '--store', store, '--provider', 'openai-responses', '--base-url', url, '--model', 'loop',
    '--batch', '--poll', '0.01', ...extra];
}

export interface StoreFacts { rows: number; distinct: number; complete: number; chunks: { id: number; state: string; lines: number; bytes: number }[] }

/** Opens read-write: opening recovers the WAL a killed process left. */
export function storeFacts(path: string): StoreFacts {
  const db = new Database(path);
  const rows = db.prepare('SELECT count(*) FROM trials').pluck().get() as number;
  const distinct = db.prepare("SELECT count(DISTINCT model || '|' || game || '|' || framing || '|' || rep) FROM trials").pluck().get() as number;
  const complete = db.prepare("SELECT count(*) FROM trials WHERE status IN ('ok', 'invalid')").pluck().get() as number;
  const hasChunks = db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'batch_chunks'").pluck().get() === 1;
  const chunks = hasChunks ? db.prepare('SELECT id, state, lines, bytes FROM batch_chunks ORDER BY id').all() as StoreFacts['chunks'] : [];
  db.close();
  return { rows, distinct, complete, chunks };
}

/** Keys whose outcomes break "stored once, never requested after its answer": more than one ok, or anything after the ok. */
export function requestedAgain(outcomes: Map<string, string[]>): string[] {
  return [...outcomes].filter(([, o]) => o.filter((x) => x === 'ok').length > 1 || (o.includes('ok') && o.at(-1) !== 'ok')).map(([k]) => k);
}
