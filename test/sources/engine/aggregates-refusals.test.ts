/**
 * Counts an aggregates table cannot hold and rounds the in-memory aggregation cannot place: a count past 2^32 − 1 in one row, or
 * rows of one match whose counts add up past it, are refused in one line naming the file and the row (not a RangeError); a clean
 * table is read without the row-numbered search for a bad row; a cell's counts keep their values when a larger one widens the cell's
 * pool; `aggregateDecisions` refuses a round that is not a whole number from 1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchAggregates, roundAt, sortedMatches, stateAt } from '../../../src/core/aggregates.js';
import { aggregateDecisions } from '../../../src/core/aggregate-decisions.js';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import { UserError } from '../../../src/core/errors.js';
import { readAggregatesFile } from '../../../src/sources/engine/index.js';

const header = 'model,game,framing,opponent,match,round,previous,decisions,valid,cooperations';
const dir = mkdtempSync(join(tmpdir(), 'samegame-agg-refusals-'));
let files = 0;
const read = async (rows: string[]) => {
  const f = join(dir, `a${files++}.csv`);
  writeFileSync(f, [header, ...rows].join('\n') + '\n');
  return readAggregatesFile(f, 'a.csv').then(() => undefined, (e: unknown) => e);
};

describe('aggregates table counts past 2^32 − 1', () => {
  it('reads a count of 2^32 − 1 in one row', async () => {
    const f = join(dir, 'max.csv');
    writeFileSync(f, [header, 'm,pd,base,tft,g0,1,,1,1,0', 'm,pd,base,tft,g1,1,,4294967295,0,0'].join('\n') + '\n');
    const [cell] = (await readAggregatesFile(f, 'a.csv')).sortedCells();
    expect(sortedMatches(cell).map(([id, m]) => [id, roundAt(m, 1, 0)])).toEqual([['g0', 1], ['g1', 4294967295]]);
  });

  it('refuses 2^32 in one row at its row and column', async () => {
    const e = await read(['m,pd,base,tft,g0,1,,1,1,0', 'm,pd,base,tft,g1,1,,4294967296,0,0']);
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toBe('a.csv: row 2: column "decisions": "4294967296" is not valid here (docs/reference/aggregates.md)');
  });

  it('refuses the rows of one match-round that add up past it, naming the match\'s first row', async () => {
    const e = await read(['m,pd,base,tft,g0,1,,1,1,0', 'm,pd,base,tft,g1,1,,3000000000,0,0', 'm,pd,base,tft,g1,1,CC,3000000000,0,0']);
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message)
      .toBe('a.csv: row 2: match "g1" (begun here): its counts add up past 4294967295, the most one match of an aggregates table holds');
  });

  it('refuses the valid decisions after one state that add up past it over the rounds', async () => {
    const rows = [1, 2].map((r) => `m,pd,base,tft,g7,${r},CC,3000000000,3000000000,0`);
    const e = await read(['m,pd,base,tft,g0,1,,1,1,0', 'm,pd,base,tft,g0,2,CC,1,1,1', ...rows]);
    expect((e as Error).message)
      .toBe('a.csv: row 3: match "g7" (begun here): its counts add up past 4294967295, the most one match of an aggregates table holds');
  });
});

describe('a cell\'s counts, held in the narrowest width that holds them', () => {
  it('keeps every count when a larger one widens the cell (8 to 16 to 32 bits), summed or added', () => {
    const agg = new MatchAggregates([]);
    const key = ['m', 'pd', 'base', 'tft'];
    const match = (d: number, states: number) => [states, 0, 0, 0, 0, 0, 0, 0, 0, 0, d, d, 1];
    agg.addMatch(key, 'g1', match(255, 7));
    agg.addMatch(key, 'g2', match(256, 255));
    agg.addMatch(key, 'g1', match(65280, 1)); // g1 summed: 65535 decisions, 8 after state ''
    agg.addMatch(key, 'g3', match(65536, 0));
    agg.addMatch(key, 'g4', match(4294967295, 3));
    const [cell] = agg.sortedCells();
    expect(sortedMatches(cell).map(([id, m]) => [id, roundAt(m, 1, 0), roundAt(m, 1, 1), roundAt(m, 1, 2), stateAt(m, 0, 0)]))
      .toEqual([['g1', 65535, 65535, 2, 8], ['g2', 256, 256, 1, 255], ['g3', 65536, 65536, 1, 0], ['g4', 4294967295, 4294967295, 1, 3]]);
    expect(agg.decisions).toBe(255 + 256 + 65280 + 65536 + 4294967295);
  });
});

describe('cells merged over a factor', () => {
  it('refuses one match whose counts summed over the merged levels pass 2^32 - 1, in one line naming it (no RangeError)', () => {
    const agg = new MatchAggregates(['persona']);
    const match = (d: number) => [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, d, d, 1];
    agg.addMatch(['m', 'pd', 'base', 'tft', 'a'], 'g1', match(3_000_000_000));
    agg.addMatch(['m', 'pd', 'base', 'tft', 'b'], 'g1', match(3_000_000_000));
    expect(agg.sortedCells(['persona'])).toHaveLength(2); // kept apart: each within the bound
    let e: unknown;
    try { agg.sortedCells([]); } catch (x) { e = x; }
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toBe('match "g1" of "m", "pd", "base", "tft": its counts summed over the factor levels merged into this cell '
      + 'add up past 4294967295, the most one match holds (keep the factor apart, or split the log)');
  });
});

describe('aggregateDecisions', () => {
  const decision = (round: number): RepeatedDecision => ({
    model: 'm', game: 'pd', framing: 'base', opponent: 'tft', match: 'g1', round, seat: 1, action: 'C', opponentAction: 'D',
  });
  for (const round of [0, -1, 1.5, Number.NaN]) {
    it(`refuses round ${round}`, () => {
      expect(() => aggregateDecisions([decision(1), decision(round)], [])).toThrow(new RangeError(`match g1: round ${round} is not a round (a whole number from 1)`));
    });
  }
  it('places round 2 after round 1 (the reference of the refusals)', () => {
    const [cell] = aggregateDecisions([decision(1), decision(2)], []).sortedCells();
    expect(sortedMatches(cell).map(([, m]) => [roundAt(m, 1, 0), roundAt(m, 2, 0), roundAt(m, 2, 2)])).toEqual([[1, 1, 1]]);
  });
});
