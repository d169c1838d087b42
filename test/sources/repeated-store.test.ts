/**
 * The repeated-store reader over arbitrary damage to a store it reads: any value in the
 * repeated-game columns or the run's design either reads or ends with one UserError, never another
 * error; an intact store reads every non-failed decision.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UserError } from '../../src/core/errors.js';
import { parseDesign } from '../../src/live/design/design.js';
import { ProviderPool } from '../../src/live/providers/registry.js';
import { runMatches } from '../../src/live/repeated/engine.js';
import { prepareSession } from '../../src/live/runner/session.js';
import { TrialStore } from '../../src/live/store/store.js';
import { readRepeatedStore } from '../../src/sources/repeated-store.js';

let dir: string;
let base: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-rstore-'));
  base = join(dir, 'base.sqlite');
  const session = prepareSession(parseDesign(`name: r
models: [{ id: a, provider: simulated }]
games: [prisoners-dilemma]
framings: [business]
trials: 2
play: { rounds: 3, opponents: [self, always-defect] }`, 'r.yaml'), {});
  const store = TrialStore.open(base);
  const { run } = store.openRun({ name: 'r', hash: session.hash, json: session.json, toolVersion: '0', started: 'x' });
  await runMatches({ store, runId: run.id, design: session.design, providers: new ProviderPool() });
  store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('an intact store: every decision, seats agreeing, the fixed strategy\'s moves as stored', () => {
  const d = readRepeatedStore(base);
  expect(d.decisions).toHaveLength(2 * 3 * 2 + 2 * 3); // self: 2 matches × 3 rounds × 2 seats; always-defect: 2 × 3 × 1
  expect(d.decisions.filter((x) => x.opponent === 'always-defect').every((x) => x.opponentAction === 'D')).toBe(true);
  expect(d.kind).toBe('repeated run');
  expect(d.synthetic).toBe(true);
});

it('a stored design samegame could not have written is one line naming the store and the field', () => {
  for (const [design, what] of [['{"play":{"rounds":"3"}}', 'the run\'s design: play.rounds is not an integer'], ['{broken', 'the run\'s design is not JSON'],
    ['{"play":{"rounds":3}}', 'the run\'s design has no play.opponents']]) {
    const path = join(dir, 'design.sqlite');
    copyFileSync(base, path);
    const db = new Database(path);
    db.prepare('UPDATE runs SET design_json = ?').run(design);
    db.close();
    expect(() => readRepeatedStore(path)).toThrow(new UserError(`${path}: the trial store is damaged or not one samegame wrote (${what})`));
    rmSync(path);
  }
});

const column = fc.constantFrom('opponent', 'match_id', 'round', 'seat', 'opponent_move', 'action', 'status', 'game', 'factors');
const value = fc.oneof(fc.constant(null), fc.integer({ min: -3, max: 40 }), fc.string({ maxLength: 6 }), fc.constantFrom('C', 'D', 'ok', 'invalid', 'error', '{}', '{"x":1}'));

it('arbitrary damage reads or ends in one UserError', () => {
  let n = 0;
  fc.assert(fc.property(fc.array(fc.tuple(column, fc.integer({ min: 1, max: 30 }), value), { maxLength: 4 }), fc.option(fc.string({ maxLength: 20 })),
    (edits, designJson) => {
      const path = join(dir, `m${++n}.sqlite`);
      copyFileSync(base, path);
      const db = new Database(path);
      for (const [col, row, v] of edits) {
        try { db.prepare(`UPDATE trials SET ${col} = ? WHERE rowid = ?`).run(v, row); } catch { /* a CHECK or NOT NULL constraint refuses it */ }
      }
      if (designJson !== null) db.prepare('UPDATE runs SET design_json = ?').run(designJson);
      db.close();
      try {
        const d = readRepeatedStore(path);
        for (const x of d.decisions) {
          expect([1, 2]).toContain(x.seat);
          expect(Number.isInteger(x.round) && x.round >= 1).toBe(true);
          expect(x.opponent.length).toBeGreaterThan(0);
          expect([null, 'C', 'D']).toContain(x.action);
          expect([null, 'C', 'D']).toContain(x.opponentAction);
        }
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        expect((e as Error).message.split('\n')).toHaveLength(1);
      } finally {
        rmSync(path, { force: true });
      }
    }), { numRuns: 120 });
});
