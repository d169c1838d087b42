/**
 * The planned grid of repeated play (docs/methods.md §21): each model meets the opponents it met,
 * so the cell_count check crosses the framings with the (model, game, opponent) combinations as
 * played instead of crossing models × games (opponent folded) × framings.
 */
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../src/core/games.js';
import type { CellTable } from '../../../src/core/cells.js';
import type { RepeatedDecision, RepeatedDecisions } from '../../../src/core/decisions.js';
import { CELL_GRIDS } from '../../../src/analyses/two-framing/index.js';
import { repeatedTables } from '../../../src/commands/pipeline/repeated.js';

/** A against B only (seat 1 A, seat 2 B), in framings f1 and f2, 3 matches of 2 rounds each; moves from a fixed pattern. */
function llmAgainstLlm(): RepeatedDecisions {
  const decisions: RepeatedDecision[] = [];
  let k = 0;
  for (const framing of ['f1', 'f2']) {
    for (let m = 1; m <= 3; m++) {
      for (let round = 1; round <= 2; round++) {
        const a: Action = (k++ % 3) === 0 ? 'D' : 'C', b: Action = (k++ % 2) === 0 ? 'D' : 'C';
        const match = `${framing}-${m}`;
        decisions.push({ model: 'A', game: 'pd', framing, opponent: 'B', match, round, seat: 1, action: a, opponentAction: b });
        decisions.push({ model: 'B', game: 'pd', framing, opponent: 'A', match, round, seat: 2, action: b, opponentAction: a });
      }
    }
  }
  return { path: '/nowhere/ab.sqlite', sha256: '0', kind: 'test', synthetic: true, decisions };
}

const cell = (model: string, game: string, framing: string): CellTable['cells'][number] => ({ key: { model, game, framing }, obs: { kind: 'binary', x: 1, n: 2 } });

describe('cell grids', () => {
  it('as played: A met B and B met A — 2 combinations × 2 framings = 4 cells; the full cross would want 8', () => {
    const table: CellTable = { factors: ['model', 'game', 'framing'], cells: [
      cell('A', 'pd [opponent=B]', 'f1'), cell('A', 'pd [opponent=B]', 'f2'), cell('B', 'pd [opponent=A]', 'f1'), cell('B', 'pd [opponent=A]', 'f2')] };
    expect(CELL_GRIDS['as-played'].expected(table)).toEqual({ expected: 4, missing: [] });
    const crossed = CELL_GRIDS.crossed.expected(table);
    expect(crossed.expected).toBe(8);
    expect(crossed.missing).toEqual(['A / pd [opponent=A] / f1', 'A / pd [opponent=A] / f2', 'B / pd [opponent=B] / f1', 'B / pd [opponent=B] / f2']);
  });

  it('as played still fails a played combination lacking a framing (a third framing seen elsewhere)', () => {
    const table: CellTable = { factors: ['model', 'game', 'framing'], cells: [
      cell('A', 'pd [opponent=B]', 'f1'), cell('A', 'pd [opponent=B]', 'f2'), cell('A', 'pd [opponent=B]', 'f3'),
      cell('B', 'pd [opponent=A]', 'f1'), cell('B', 'pd [opponent=A]', 'f2')] };
    expect(CELL_GRIDS['as-played'].expected(table)).toEqual({ expected: 6, missing: ['B / pd [opponent=A] / f3'] });
  });

  it('analyze on LLM-against-LLM decisions in two framings: cell_count passes (4 cells of 4) and every check passes', () => {
    const res = repeatedTables(llmAgainstLlm(), { reps: 50, base: 'f1', alt: 'f2' });
    const v = res.twoFraming!.verification;
    const count = v.checks.find((c) => c.name === 'cell_count')!;
    expect(count.value).toBe('4 cells, expected 4');
    expect(count.passed).toBe(true);
    expect(v.passed).toBe(true);
  });
});
