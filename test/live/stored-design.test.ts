/**
 * The stored design of a run read through one reader (src/live/store/stored-design.ts): the design
 * `samegame run` stores reads back as it was written; a document that is not a JSON object, or a
 * field of another shape, is StoreFault naming the field (one line), never another error; the
 * readers that go on without a design (run kind, design facts, selective facts) read such a store
 * as they did.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../src/live/design/design.js';
import { prepareSession } from '../../src/live/runner/session.js';
import { StoreFault, storeGuard, type SqliteFailure } from '../../src/live/store/integrity.js';
import { storedRunKind } from '../../src/live/store/run-kind.js';
import { readableDesign, repeatedDesign, storedDesign } from '../../src/live/store/stored-design.js';
import { designFacts } from '../../src/analyses/compare/design-facts.js';
import { selectiveFacts } from '../../src/analyses/selective/facts.js';
import { UserError } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';

/** What the store's one guard makes of an error thrown while a store is used (storeGuard; its mapper is private to it). */
function storeError(path: string, e: unknown, how?: SqliteFailure): unknown {
  try { storeGuard(path, () => { throw e; }, how); } catch (x) { return x; }
  return undefined;
}

const stored = (file: string, text = readFileSync(join(ROOT, file), 'utf8')) => prepareSession(parseDesign(text, join(ROOT, file)), {}).json;
const REPEATED = `name: r
models: [{ id: a, provider: simulated }]
games: [prisoners-dilemma]
framings: [business]
trials: 2
play: { rounds: 3, opponents: [self, always-defect] }`;
const json = (designJson: string) => ({ designJson });
const fault = (designJson: string): string => {
  try {
    storedDesign(json(designJson));
  } catch (e) {
    expect(e).toBeInstanceOf(StoreFault);
    return (e as Error).message;
  }
  throw new Error('read without a fault');
};

describe('the design a run stores reads back', () => {
  it('two-framing, context-enrichment and repeated designs, as samegame run writes them', () => {
    for (const file of ['data/designs/same-game.yaml', 'data/designs/hospital-transfer-sim.yaml', 'data/designs/akata-pd-sim.yaml']) {
      const text = stored(file);
      expect(storedDesign(json(text))).toEqual(JSON.parse(text));
    }
    const enrichment = stored('data/designs/hospital-transfer-sim.yaml');
    expect(storedRunKind(undefined, enrichment)).toBe('enrichment');
    expect(selectiveFacts(enrichment)?.spec.formats.length).toBeGreaterThanOrEqual(2);
    const repeated = stored('r.yaml', REPEATED);
    expect(storedRunKind(undefined, repeated)).toBe('repeated');
    const d = repeatedDesign(storedDesign(json(repeated)));
    expect([d.play?.rounds, d.models.map((m) => m.id), d.games.map((g) => g.id)]).toEqual([3, ['a'], ['prisoners-dilemma']]);
  });
});

describe('a design samegame could not have written', () => {
  it('is StoreFault naming what is wrong, and one line of the store as storeError says it', () => {
    expect(fault('{broken')).toBe('the run\'s design is not JSON');
    expect(fault('null')).toBe('the run\'s design is not a JSON object');
    expect(fault('[1]')).toBe('the run\'s design is not a JSON object');
    expect(fault('{"models":{}}')).toBe('the run\'s design: models is not a list');
    expect(fault('{"models":[{"id":3}]}')).toBe('the run\'s design: models[0].id is not a string');
    expect(fault('{"games":["pd",{"payoffs":{"C":{"C":[1,1],"D":[0]}}}]}')).toBe('the run\'s design: games[1].payoffs.C.D is not a pair');
    expect(fault('{"enrichment":{"direction":{"higher":1}}}')).toBe('the run\'s design: enrichment.direction.higher is not a string');
    expect(fault('{"play":{"rounds":2.5}}')).toBe('the run\'s design: play.rounds is not an integer');
    expect(fault('{"synthetic":"yes"}')).toBe('the run\'s design: synthetic is not true or false');
    const u = storeError('s.sqlite', new StoreFault('the run\'s design is not JSON'));
    expect(u).toBeInstanceOf(UserError);
    expect((u as Error).message).toBe('s.sqlite: the trial store is damaged or not one samegame wrote (the run\'s design is not JSON)');
  });

  it('a repeated run needs its play block, opponents, models, games with payoffs, framings and trials', () => {
    const full = JSON.parse(stored('r.yaml', REPEATED)) as Record<string, unknown>;
    const without = (k: string, v?: unknown) => () => repeatedDesign(storedDesign(json(JSON.stringify({ ...full, [k]: v }))));
    expect(without('play')).toThrow('the run\'s design has no play block with its rounds');
    expect(without('models')).toThrow('the run\'s design has no models');
    expect(without('trials')).toThrow('the run\'s design has no trials');
    expect(without('games', ['prisoners-dilemma'])).toThrow('the run\'s design names a game without its payoffs');
  });

  it('the readers that go on without it: one-shot, empty facts, no enrichment', () => {
    for (const bad of ['{broken', 'null', '{"models":{}}']) {
      expect(readableDesign(json(bad))).toBeUndefined();
      expect(storedRunKind(null, bad)).toBe('one-shot');
      expect(designFacts(bad)).toMatchObject({ models: [], games: [], framings: [], simulated: [] });
      expect(selectiveFacts(bad)).toBeUndefined();
    }
    // A runs table without design_json (a store samegame did not write): no design, read as one-shot.
    expect(storedRunKind(undefined, undefined as unknown as string)).toBe('one-shot');
  });

  it('any text: a StoredDesign or one line of StoreFault, never another error (property)', () => {
    const text = fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)));
    fc.assert(fc.property(text, (t) => {
      try {
        expect(typeof storedDesign(json(t))).toBe('object');
      } catch (e) {
        expect(e).toBeInstanceOf(StoreFault);
        expect((e as Error).message.split('\n')).toHaveLength(1);
      }
      expect(['one-shot', 'repeated', 'enrichment']).toContain(storedRunKind(undefined, t));
      designFacts(t);
      selectiveFacts(t);
    }), { numRuns: 400 });
  });

  it('a stored design with one field replaced by any JSON value: read, or StoreFault naming that field (property)', () => {
    const doc = JSON.parse(stored('data/designs/hospital-transfer-sim.yaml')) as Record<string, unknown>;
    const field = fc.constantFrom('name', 'synthetic', 'names', 'trials', 'scoring', 'models', 'games', 'framings', 'enrichment', 'play');
    fc.assert(fc.property(field, fc.jsonValue({ maxDepth: 3 }), (k, v) => {
      const t = JSON.stringify({ ...doc, [k]: v });
      try {
        storedDesign(json(t));
      } catch (e) {
        expect(e).toBeInstanceOf(StoreFault);
        expect((e as Error).message).toMatch(new RegExp(`^the run's design: ${k}\\b`));
      }
    }), { numRuns: 300 });
  });
});
