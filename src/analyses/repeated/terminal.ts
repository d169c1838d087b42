import { fixed, interval } from '../../core/format.js';
import { textTable } from '../two-framing/index.js';
import type { CellRow } from './tables.js';
import { shown, type DisplayNames } from '../../core/display-names.js';

/** cells.csv as the terminal shows it: cooperation per cell with its interval, three decimals. */
export function cellsText(rows: readonly CellRow[], factors: readonly string[] = [], names?: DisplayNames): string {
  return `Cooperation per cell (95 % cluster-bootstrap intervals, match as cluster)\n${textTable(['Model', 'Game', 'Framing', 'Opponent', ...factors, 'Matches', 'Cooperation', '95% CI'],
    rows.map((r) => [...[r.model, r.game, r.framing, r.opponent].map((id) => shown(names, id)), ...factors.map((f) => r.factors[f]), String(r.matches), fixed(r.cooperation), Number.isFinite(r.lo) ? interval(r.lo, r.hi) : '— (1 match)']))}`;
}
