/**
 * The run kind in the runs table: written when a run opens, set for the runs of an older store by
 * migration 3 (from the stored design), inferred the same way when a read-only store predates it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TrialStore } from '../../src/live/store/store.js';
import { STORE_VERSION, storeVersion } from '../../src/live/store/migrations.js';
import { designKind, storedRunKind } from '../../src/live/store/run-kind.js';
import { writeStore } from '../helpers/store.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-kind-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cell = [{ model: 'm', game: 'g', framing: 'f', actions: ['C' as const] }];
const designs = [{ name: 'a' }, { name: 'b', play: { rounds: 3 } }, { name: 'c', enrichment: { kind: 'context-enrichment' } }];

describe('the run kind', () => {
  it('is inferred from the design: play → repeated, enrichment → enrichment, else one-shot; an unreadable design reads one-shot', () => {
    expect(designs.map(designKind)).toEqual(['one-shot', 'repeated', 'enrichment']);
    expect(storedRunKind(null, '{not json')).toBe('one-shot');
    expect(storedRunKind('repeated', '{}')).toBe('repeated');
    expect(storedRunKind('sideways', JSON.stringify({ play: {} }))).toBe('repeated');
  });

  it('a store written before the column: read-only users infer it; a run opening the store migrates it and every run has its kind', () => {
    const path = join(dir, 'old.sqlite');
    for (const d of designs) writeStore(path, d, cell);
    const raw = new Database(path);
    expect(storeVersion(raw)).toBe(0);
    raw.close();
    const ro = TrialStore.openExisting(path);
    expect(ro.runs().map((r) => r.kind)).toEqual(['one-shot', 'repeated', 'enrichment']);
    ro.close();
    const rw = TrialStore.open(path);
    const { run } = rw.openRun({ name: 'd', hash: 'h-d', json: JSON.stringify({ name: 'd', play: { rounds: 2 } }), toolVersion: 't', started: 's', kind: 'repeated' });
    expect(run.kind).toBe('repeated');
    expect(storeVersion(rw.database)).toBe(STORE_VERSION);
    expect(rw.database.prepare('SELECT kind FROM runs ORDER BY id').pluck().all()).toEqual(['one-shot', 'repeated', 'enrichment', 'repeated']);
    expect(() => rw.database.prepare("UPDATE runs SET kind = 'sideways' WHERE id = 1").run()).toThrow(/CHECK constraint/);
    rw.close();
  });

  it('the recorded kind wins over the design (a run is what it was recorded as)', () => {
    const path = join(dir, 'new.sqlite');
    const s = TrialStore.open(path);
    s.openRun({ name: 'e', hash: 'h-e', json: '{}', toolVersion: 't', started: 's', kind: 'enrichment' });
    s.close();
    const ro = TrialStore.openExisting(path);
    expect(ro.runs()[0].kind).toBe('enrichment');
    ro.close();
  });
});
