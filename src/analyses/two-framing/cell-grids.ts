/**
 * The planned cells of a two-framing input that the cell_count check holds it to, by the kind of
 * design the cells come from (docs/methods.md §21).
 */
import type { CellTable } from '../../core/cells.js';
import { levels } from '../../core/cells.js';

/** The model × game × framing cells the table lacks, named "model / game / framing". */
export function missingCells(table: CellTable): string[] {
  const present = new Set(table.cells.map((c) => JSON.stringify([c.key.model, c.key.game, c.key.framing])));
  const out: string[] = [];
  const [models, games, framings] = (['model', 'game', 'framing'] as const).map((f) => levels(table, f));
  for (const m of models) for (const g of games) for (const f of framings) {
    if (!present.has(JSON.stringify([m, g, f]))) out.push(`${m} / ${g} / ${f}`);
  }
  return out;
}

/** How many cells a table should have, and which planned cells it lacks. */
export interface CellGrid {
  readonly description: string;
  readonly expected: (table: CellTable) => { readonly expected: number; readonly missing: readonly string[] };
}

export type CellGridId = 'crossed' | 'as-played';

/** The "model / game" pairs of a table with at least one cell (in any framing). */
function playedPairs(table: CellTable): Set<string> {
  return new Set(table.cells.map((c) => JSON.stringify([c.key.model, c.key.game])));
}

/**
 * The planned grids (docs/methods.md §21): a one-shot design crosses models × games × framings;
 * repeated play (the opponent folded into the game) crosses the framings with the model–game–
 * opponent combinations as actually played, since each model meets the opponents it met.
 */
export const CELL_GRIDS: Readonly<Record<CellGridId, CellGrid>> = {
  crossed: {
    description: 'cells = models × games × framings of the input',
    expected: (table) => ({
      expected: levels(table, 'model').length * levels(table, 'game').length * levels(table, 'framing').length,
      missing: missingCells(table),
    }),
  },
  'as-played': {
    description: 'cells = (model, game, opponent) combinations played × framings of the input: each played combination in every framing',
    expected(table) {
      const present = new Set(table.cells.map((c) => JSON.stringify([c.key.model, c.key.game, c.key.framing])));
      const pairs = [...playedPairs(table)].map((p) => JSON.parse(p) as [string, string]);
      const framings = levels(table, 'framing');
      const missing = pairs.flatMap(([m, g]) => framings.filter((f) => !present.has(JSON.stringify([m, g, f]))).map((f) => `${m} / ${g} / ${f}`));
      return { expected: pairs.length * framings.length, missing };
    },
  },
};

