// The repeated cells made of per-match aggregates hold their whole counts in the narrowest unsigned integers (8, 16 or 32 bits)
// that hold the cell's largest per-match total; their values are those the decisions give directly (layout.ts `repeatedCells`,
// one decision at a time into doubles), match by match, whatever the width.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateDecisions } from '../../../src/core/aggregate-decisions.js';
import type { RepeatedDecision } from '../../../src/core/decisions.js';
import type { Action } from '../../../src/core/games.js';
import { aggregateRepeatedCells } from '../../../src/analyses/repeated/aggregate-cells.js';
import { repeatedCells } from '../../../src/analyses/repeated/layout.js';

/** Two seats of `rounds` rounds per match, moves from the list (null invalid), cycled. */
function decisionsOf(matches: readonly { model: string; rounds: number; moves: readonly (Action | null)[] }[]): RepeatedDecision[] {
  const out: RepeatedDecision[] = [];
  matches.forEach((m, i) => {
    for (let round = 1; round <= m.rounds; round++) {
      const a = m.moves[(2 * round) % m.moves.length], b = m.moves[(2 * round + 1) % m.moves.length];
      const base = { model: m.model, game: 'pd', framing: 'base', opponent: 'self', match: `g${i}`, round };
      out.push({ ...base, seat: 1, action: a, opponentAction: b }, { ...base, seat: 2, action: b, opponentAction: a });
    }
  });
  return out;
}

const byCell = (cells: ReturnType<typeof repeatedCells>) => new Map(cells.map((c) => [JSON.stringify(c.key), c]));

describe('aggregateRepeatedCells', () => {
  it('counts in the narrowest width that holds the largest per-match total, equal to the decisions\' own columns', () => {
    const move = fc.constantFrom<Action | null>('C', 'D', null);
    const match = fc.record({ model: fc.constantFrom('a', 'b'), rounds: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 120, max: 200 })),
      moves: fc.array(move, { minLength: 1, maxLength: 7 }) });
    fc.assert(fc.property(fc.array(match, { minLength: 1, maxLength: 6 }), (matches) => {
      const decisions = decisionsOf(matches);
      const direct = byCell(repeatedCells(decisions));
      const cells = aggregateRepeatedCells(aggregateDecisions(decisions, []));
      expect(cells.length).toBe(direct.size);
      for (const c of cells) {
        const d = direct.get(JSON.stringify(c.key))!;
        expect(c.horizon).toBe(d.horizon);
        let max = 0;
        c.columns.sizes.forEach((v, k) => c.matches.forEach((id, j) => {
          const at = d.matches.indexOf(id);
          expect([v[j], c.columns.sums[k][j]]).toEqual([d.columns.sizes[k][at], d.columns.sums[k][at]]);
          max = Math.max(max, v[j], c.columns.sums[k][j]);
        }));
        const want = max <= 0xff ? Uint8Array : max <= 0xffff ? Uint16Array : Uint32Array;
        for (const v of [...c.columns.sizes, ...c.columns.sums]) expect(v).toBeInstanceOf(want);
      }
    }), { numRuns: 30 });
  });

  it('a match of 200 rounds and two valid seats (400 decisions) widens its cell to 16 bits, exactly', () => {
    const cells = aggregateRepeatedCells(aggregateDecisions(decisionsOf([{ model: 'a', rounds: 200, moves: ['C', 'D', 'D'] }]), []));
    const all = cells[0].columns.sizes[0];
    expect(all).toBeInstanceOf(Uint16Array);
    expect(all[0]).toBe(400); // 200 rounds × 2 seats, every move valid
    // seat moves cycle C, D, D over 2·round and 2·round + 1: (2r mod 3, 2r + 1 mod 3); cooperations where an index is 0
    let coop = 0;
    for (let r = 1; r <= 200; r++) coop += ((2 * r) % 3 === 0 ? 1 : 0) + ((2 * r + 1) % 3 === 0 ? 1 : 0);
    expect(cells[0].columns.sums[0][0]).toBe(coop);
  });
});
