/** Extra factors folded into the game ("Stag Hunt [round=1]"): the rule every reader that folds applies. */
import type { CellTable } from '../core/cells.js';
import { FACTORS } from './rates-csv.js';

/**
 * The first two keys (by index) that fold into one model × game × framing cell, and the game they
 * would share; undefined when folding keeps every cell apart. Every reader that folds checks this.
 */
export function foldCollision(keys: readonly Readonly<Record<string, string>>[], extra: readonly string[]): { first: number; second: number;
  game: string } | undefined {
  if (extra.length === 0) return undefined;
  const seen = new Map<string, number>();
  for (let i = 0; i < keys.length; i++) {
    const folded = foldKey(keys[i], extra);
    const id = JSON.stringify([folded.model, folded.game, folded.framing]);
    const first = seen.get(id);
    if (first !== undefined) return { first, second: i, game: folded.game };
    seen.set(id, i);
  }
  return undefined;
}

/** A key with its extra factors folded into the game: "Stag Hunt [round=1]". */
export function foldKey(key: Readonly<Record<string, string>>, extra: readonly string[]): Record<string, string> {
  if (extra.length === 0) return { model: key.model, game: key.game, framing: key.framing };
  return { model: key.model, game: `${key.game} [${extra.map((f) => `${f}=${key[f]}`).join('; ')}]`, framing: key.framing };
}

/**
 * The model × game × framing table the two-framing analysis reads: each level combination of the
 * extra factors becomes a game of its own ("Stag Hunt [round=1]"), so each is its own planned contrast.
 */
export function foldExtraFactors(table: CellTable): CellTable {
  const extra = table.factors.filter((f) => !(FACTORS as readonly string[]).includes(f));
  if (extra.length === 0) return table;
  return { factors: [...FACTORS], cells: table.cells.map((c) => ({ ...c, key: foldKey(c.key, extra) })) };
}
