/**
 * Replaying stored moves (what a resumed run and each round of batches start from), over arbitrary
 * sets of stored decisions: the history is the longest run of rounds 1, 2, … whose LLM seats are all
 * stored, the match is over at its first invalid decision or after its last round, and the next
 * round asks exactly the LLM seats not yet stored. The reference below is written from that
 * statement, round by round.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../../src/live/design/design.js';
import { planMatches, strategyMove } from '../../../src/live/repeated/plan.js';
import { matchState, movesByMatch, nextRound } from '../../../src/live/repeated/state.js';
import type { StoredMove } from '../../../src/live/store/store.js';
import type { PlayedRound } from '../../../src/live/repeated/prompt.js';

const design = parseDesign(`name: s
models: [{ id: a, provider: simulated }]
games: [prisoners-dilemma]
framings: [business]
trials: 1
play: { rounds: 5, opponents: [self, tit-for-tat] }`, 's.yaml');
const [selfMatch, tftMatch] = planMatches(design);

const move = fc.record({
  round: fc.integer({ min: 1, max: 5 }), seat: fc.constantFrom(1, 2),
  status: fc.constantFrom('ok', 'ok', 'ok', 'invalid', 'error'), action: fc.constantFrom('C', 'D'),
});

describe('matchState over arbitrary stored moves', () => {
  for (const [name, m] of [['self-play', selfMatch], ['against tit-for-tat', tftMatch]] as const) {
    it(name, () => {
      fc.assert(fc.property(fc.array(move, { maxLength: 14 }), (raw) => {
        const seats = m.seat2.kind === 'model' ? [1, 2] : [1];
        // The store keeps one row per (match, round, seat): the last write wins here as an error row would be replaced.
        const rows = new Map<string, StoredMove>();
        for (const x of raw) if (seats.includes(x.seat)) rows.set(`${x.round}:${x.seat}`, { match: m.match, ...x, status: x.status as StoredMove['status'], action: x.status === 'ok' ? x.action as 'C' | 'D' : null });
        const stored = movesByMatch([...rows.values()]).get(m.match);
        const s = matchState(design, m, stored);
        // Reference, round by round.
        const history: PlayedRound[] = [];
        let status = 'open';
        for (let t = 1; t <= 5; t++) {
          const get = (seat: number) => { const r = rows.get(`${t}:${seat}`); return r && r.status !== 'error' ? r : undefined; };
          const s1 = get(1);
          const s2 = m.seat2.kind === 'model' ? get(2) : { status: 'ok', action: strategyMove(design.play!, m.seat2, m.match, t, history) };
          if (!s1 || !s2) break;
          if (s1.status === 'invalid' || s2.status === 'invalid') { status = 'forfeit'; break; }
          history.push({ moves: [s1.action!, s2.action!] });
          if (t === 5) status = 'complete';
        }
        expect(s.history).toEqual(history);
        expect(s.status).toBe(status);
        if (s.status === 'open') {
          const next = nextRound(design, s, stored);
          expect(next.round).toBe(history.length + 1);
          expect(next.specs.map((x) => x.play!.seat)).toEqual(seats.filter((seat) => {
            const r = rows.get(`${next.round}:${seat}`);
            return !r || r.status === 'error';
          }));
          for (const x of next.specs) expect(x.prompt.match(/In round \d+,/g)?.length ?? 0).toBe(history.length);
        }
      }), { numRuns: 400 });
    });
  }
});
