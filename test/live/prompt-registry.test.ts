/**
 * The prompt registry (store version 4): texts stored once by SHA-256, trials referencing them; an
 * older store migrated in place reads back the same trial records; a new run writes each distinct
 * text once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { TrialStore } from '../../src/live/store/store.js';
import { STORE_VERSION, storeVersion } from '../../src/live/store/migrations.js';
import { textSha256 } from '../../src/live/store/registry.js';
import type { TrialRecord } from '../../src/live/types.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROMPTS = { f: 'You and a neighbour share a garden. Do you Help or Keep?', g: 'You and a stranger meet once. Do you Help or Keep?' };

function trial(runId: number, framing: 'f' | 'g', rep: number, status: 'ok' | 'error' = 'ok'): TrialRecord {
  return {
    runId, model: 'm', game: 'pd', framing, rep, factors: {}, prompt: PROMPTS[framing],
    request: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: PROMPTS[framing] }] }),
    response: status === 'error' ? null : JSON.stringify({ id: `r${framing}${rep}`, text: rep % 2 ? 'Help' : 'Keep' }),
    text: status === 'error' ? null : rep % 2 ? 'Help' : 'Keep', action: status === 'error' ? null : rep % 2 ? 'C' : 'D',
    pCooperate: null, scoring: 'sample', modelSnapshot: 'm-1', inputTokens: 10, outputTokens: 1, latencyMs: 2, status,
    error: status === 'error' ? 'server 500: down (after 1 attempt)' : null, attempts: 1,
  };
}

function fill(path: string, migrateFirst: boolean): void {
  const s = TrialStore.open(path);
  if (migrateFirst) s.preparePlay();
  const { run } = s.openRun({ name: 'd', hash: 'h', json: '{"name":"d"}', toolVersion: 't', started: '2026-01-01T00:00:00Z' });
  for (const f of ['f', 'g'] as const) for (let rep = 0; rep < 6; rep++) s.write(trial(run.id, f, rep, rep === 5 ? 'error' : 'ok'));
  s.close();
}

function records(path: string): TrialRecord[] {
  const s = TrialStore.openExisting(path);
  try { return [...s.trials()]; } finally { s.close(); }
}

describe('the prompt registry', () => {
  it('hashes UTF-8 text with SHA-256 (FIPS 180-2 test vector), and one changed sentence is another hash', () => {
    expect(textSha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(textSha256(PROMPTS.f)).not.toBe(textSha256(PROMPTS.f.replace('share a garden', 'share a field')));
  });

  it('migrates a store written without it in one step: same records, texts moved out of the rows, each stored once', () => {
    const path = join(dir, 'old.sqlite');
    fill(path, false);
    const before = records(path);
    expect(before).toHaveLength(12);
    const raw = new Database(path);
    expect(storeVersion(raw)).toBe(0);
    raw.close();
    const rw = TrialStore.open(path);
    rw.preparePlay();
    expect(storeVersion(rw.database)).toBe(STORE_VERSION);
    rw.close();
    expect(records(path)).toEqual(before);
    const db = new Database(path, { readonly: true });
    // 2 prompts, 2 requests, 10 distinct responses (errors have none).
    expect(db.prepare('SELECT count(*) FROM prompts').pluck().get()).toBe(14);
    expect(db.prepare("SELECT count(*) FROM trials WHERE prompt = '' AND request = '' AND response IS NULL").pluck().get()).toBe(12);
    const stored = db.prepare('SELECT hex(p.sha256) AS h, p.text FROM prompts p JOIN trials t ON t.prompt_id = p.id GROUP BY p.id').all() as
      { h: string; text: string }[];
    expect(stored.map((r) => [r.h.toLowerCase(), r.text])).toEqual(Object.values(PROMPTS).map((p) => [textSha256(p), p]));
    // The view trial_records gives SQL readers each trial with its texts, as the records have them.
    const viewed = db.prepare('SELECT prompt, request, response FROM trial_records ORDER BY framing, rep').all();
    expect(viewed).toEqual(before.map((t) => ({ prompt: t.prompt, request: t.request, response: t.response })));
    db.close();
  });

  it('a new store writes each text once and reads back what was written; a retried error replaces its texts', () => {
    const path = join(dir, 'new.sqlite');
    fill(path, true);
    const s = TrialStore.open(path);
    const retried = { ...trial(1, 'f', 5), attempts: 2 };
    expect(s.write(retried)).toBe(true);
    expect(s.write({ ...trial(1, 'f', 5), response: 'other' })).toBe(false);
    s.close();
    const got = records(path);
    expect(got.find((t) => t.framing === 'f' && t.rep === 5)).toEqual({ ...retried, attempts: 3 });
    const old = join(dir, 'old.sqlite');
    expect(got.filter((t) => !(t.framing === 'f' && t.rep === 5))).toEqual(records(old).filter((t) => !(t.framing === 'f' && t.rep === 5)));
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM prompts').pluck().get()).toBe(15);
    expect(db.prepare("SELECT count(*) FROM trials WHERE prompt_id IS NULL OR prompt <> ''").pluck().get()).toBe(0);
    db.close();
    const ro = TrialStore.openExisting(path);
    expect(ro.framingPrompts(1)).toEqual([{ framing: 'f', prompt: PROMPTS.f }, { framing: 'g', prompt: PROMPTS.g }]);
    ro.close();
  });

  it('any prompt, request and response texts read back as written, each stored once under its SHA-256 (property)', () => {
    let n = 0;
    fc.assert(fc.property(fc.array(fc.tuple(fc.string({ unit: 'binary' }), fc.string(), fc.option(fc.string())), { minLength: 1, maxLength: 6 }), (texts) => {
      const path = join(dir, `prop-${n++}.sqlite`);
      const s = TrialStore.open(path);
      s.preparePlay();
      const { run } = s.openRun({ name: 'p', hash: 'p', json: '{}', toolVersion: 't', started: 's' });
      const written = texts.map(([prompt, request, response], rep) => ({ ...trial(run.id, 'f', rep), prompt, request, response }));
      for (const t of written) s.write(t);
      s.close();
      expect(records(path)).toEqual(written);
      const db = new Database(path, { readonly: true });
      const rows = db.prepare('SELECT lower(hex(sha256)) AS h, text FROM prompts').all() as { h: string; text: string }[];
      db.close();
      const distinct = new Set(written.flatMap((t) => [t.prompt, t.request, ...(t.response === null ? [] : [t.response])]));
      expect(rows).toHaveLength(distinct.size);
      for (const r of rows) expect(r.h).toBe(textSha256(r.text));
    }), { numRuns: 40 });
  });
});
