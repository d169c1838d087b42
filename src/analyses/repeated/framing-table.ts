import type { CellTable } from '../../core/cells.js';
import { framingCells, SELF_OPPONENT, type RepeatedDecision, type RoundRange } from '../../core/decisions.js';
import { foldExtraFactors } from '../../sources/trials.js';

/** The opponent level of a model's matches against itself in every table. */
export const SELF = SELF_OPPONENT;

/**
 * The model × game × framing table the two-framing analysis reads from repeated play: the
 * decisions' `framingCells` (clustered by match, the selected rounds only; the same table
 * `reproduce --trials … --format` reads) with each opponent folded into the game
 * ("prisoners-dilemma [opponent=tit-for-tat]", self-play "[opponent=self]"; chosen factors too),
 * so each opponent is a planned contrast of its own.
 */
export function framingTable(decisions: readonly RepeatedDecision[], rounds?: RoundRange, factors?: readonly string[]): CellTable {
  return foldExtraFactors(framingCells(decisions, { rounds, factors }).table);
}
