import type { CellTable } from '../../core/cells.js';
import { decisionsTable, type RepeatedDecision, type RoundRange } from '../../core/decisions.js';
import { foldExtraFactors } from '../../sources/trials.js';

/** The opponent level of a model's matches against itself in the two-framing table. */
export const SELF = 'self';

/**
 * The model × game × framing table the two-framing analysis reads from repeated play: the
 * decisions' cell table (clustered by match, the selected rounds only) with each opponent folded
 * into the game ("prisoners-dilemma [opponent=tit-for-tat]"; chosen factors too), so each opponent is a planned
 * contrast of its own; a model's matches against itself are labelled "self" there, so that every
 * model has the same self-play game.
 */
export function framingTable(decisions: readonly RepeatedDecision[], rounds?: RoundRange, factors?: readonly string[]): CellTable {
  const t = decisionsTable(decisions, { rounds, factors });
  const relabelled: CellTable = {
    factors: t.factors,
    cells: t.cells.map((c) => (c.key.opponent === c.key.model ? { ...c, key: { ...c.key, opponent: SELF } } : c)),
  };
  return foldExtraFactors(relabelled);
}
