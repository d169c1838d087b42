import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { TrialStore } from '../../src/live/store/store.js';
import type { TrialRecord } from '../../src/live/types.js';
import { UserError } from '../../src/core/errors.js';
import { storeMsg } from '../../src/live/store/messages.js';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'sg-store-')); dirs.push(d); return d; };
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

const RUN = { name: 'd', hash: 'h1', json: '{}', toolVersion: '0.0.0', started: '2025-01-01T00:00:00Z' };

function rec(over: Partial<TrialRecord>): TrialRecord {
  return {
    runId: 1, model: 'm', game: 'pd', framing: 'b', rep: 0, factors: {}, prompt: 'p', request: '{}', response: '{}',
    text: 'C', action: 'C', pCooperate: null, scoring: null, modelSnapshot: 'snap', inputTokens: 1, outputTokens: 1,
    latencyMs: 1, status: 'ok', error: null, attempts: 1, ...over,
  };
}

describe('TrialStore', () => {
  it('uses WAL with synchronous = FULL while a writer has it open, and a rollback journal at rest', () => {
    const path = join(tmp(), 's.sqlite');
    const s = TrialStore.open(path);
    // journal_mode and synchronous: read through the store's own connection.
    const own = (s as unknown as { db: Database.Database }).db;
    expect(own.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(own.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
    s.close();
    // At rest the file is one file in rollback mode (header bytes 18–19 = 1): read-only readers need no -wal/-shm.
    expect([...readFileSync(path).subarray(18, 20)]).toEqual([1, 1]);
    expect(existsSync(`${path}-wal`) || existsSync(`${path}-shm`)).toBe(false);
  });

  it('resumes the run of the same design hash and starts a new run for another', () => {
    const s = TrialStore.open(join(tmp(), 's.sqlite'));
    const a = s.openRun(RUN);
    const b = s.openRun(RUN);
    const c = s.openRun({ ...RUN, hash: 'h2' });
    expect([a.resumed, b.resumed, c.resumed]).toEqual([false, true, false]);
    expect(b.run.id).toBe(a.run.id);
    expect(c.run.id).not.toBe(a.run.id);
    s.close();
  });

  it('never replaces a completed trial; replaces an errored one and adds up its attempts', () => {
    const s = TrialStore.open(join(tmp(), 's.sqlite'));
    s.openRun(RUN);
    const k = { model: 'm', game: 'pd', framing: 'b', rep: 0 };
    expect(s.write(rec({ status: 'error', action: null, text: null, error: 'server 500', attempts: 6 }))).toBe(true);
    expect(s.isComplete(1, k)).toBe(false);
    expect(s.write(rec({ attempts: 2 }))).toBe(true);
    expect(s.isComplete(1, k)).toBe(true);
    expect(s.write(rec({ action: 'D', text: 'D', attempts: 1 }))).toBe(false);
    const [t] = [...s.trials(1)];
    expect([t.action, t.status, t.attempts, t.error]).toEqual(['C', 'ok', 8, null]);
    s.close();
  });

  it('counts cells in SQL: valid C, valid D, invalid, error per (model, game, framing, factors)', () => {
    const s = TrialStore.open(join(tmp(), 's.sqlite'));
    s.openRun(RUN);
    // Cell (m, pd, b): reps 0–5 = C, C, D, invalid, error, C → 3 C, 1 D, 1 invalid, 1 error.
    const plan: Partial<TrialRecord>[] = [
      { action: 'C' }, { action: 'C' }, { action: 'D' }, { action: null, status: 'invalid' },
      { action: null, status: 'error' }, { action: 'C' },
    ];
    plan.forEach((p, rep) => s.write(rec({ rep, ...p })));
    // Cell (m, pd, s) with a factor: two logprob-scored trials.
    s.write(rec({ framing: 's', rep: 0, factors: { world: 'x' }, pCooperate: 0.25 }));
    s.write(rec({ framing: 's', rep: 1, factors: { world: 'x' }, action: 'D', pCooperate: 0.75 }));
    expect(s.cellCounts(1)).toEqual([
      { model: 'm', game: 'pd', framing: 'b', factors: {}, validC: 3, validD: 1, invalid: 1, error: 1, scored: 0, unscored: 4 },
      { model: 'm', game: 'pd', framing: 's', factors: { world: 'x' }, validC: 1, validD: 1, invalid: 0, error: 0, scored: 2, unscored: 0 },
    ]);
    const probs = [...s.cellProbabilities(1)];
    expect(probs).toHaveLength(1);
    expect(probs[0].framing).toBe('s');
    expect([...probs[0].values]).toEqual([0.25, 0.75]);
    expect(s.statusCounts(1)).toEqual({ ok: 6, invalid: 1, error: 1 });
    expect(s.factorNames()).toEqual(['world']);
    s.close();
  });

  it('stores factors with sorted keys so equal factor sets group together', () => {
    const s = TrialStore.open(join(tmp(), 's.sqlite'));
    s.openRun(RUN);
    s.write(rec({ rep: 0, factors: { b: '2', a: '1' } }));
    s.write(rec({ rep: 1, factors: { a: '1', b: '2' } }));
    expect(s.cellCounts(1)).toHaveLength(1);
    s.close();
  });

  it('refuses a missing file and a file that is not a store, with one message naming it', () => {
    const d = tmp();
    expect(() => TrialStore.openExisting(join(d, 'none.sqlite'))).toThrow(new UserError(storeMsg.noSuchStore(join(d, 'none.sqlite'))));
    const other = join(d, 'other.sqlite');
    new Database(other).exec('CREATE TABLE x (a)');
    expect(() => TrialStore.openExisting(other)).toThrow(new UserError(storeMsg.notAStore(other)));
    const text = join(d, 'text.sqlite');
    writeFileSync(text, 'hello, not a database at all, just some text that is long enough');
    expect(() => TrialStore.openExisting(text)).toThrow(UserError);
  });
});
