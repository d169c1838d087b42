import { fixed, interval } from '../../core/format.js';
import { textTable } from '../two-framing/index.js';
import type { CellRow } from './tables.js';
import { shown, type DisplayNames } from '../../core/display-names.js';
import { intervalMethodName } from '../../core/interval-name.js';

/** cells.csv as the terminal shows it: cooperation per cell with its interval, three decimals; a flagged interval is marked *. */
export function cellsText(rows: readonly CellRow[], factors: readonly string[] = [], names?: DisplayNames, bootstrap = false): string {
  const iv = (r: CellRow) => (Number.isFinite(
    r.lo) ? `${interval(r.lo,
      r.hi)}${r.note ? ' *' : ''}` : `— (${r.matches} match${r.matches === 1 ? '' : 'es'}: ${r.matchValues.map((x) => fixed(x)).join(', ')})`);
  const flagged = rows.some((r) => r.note && Number.isFinite(r.lo));
  const title = `95 % ${intervalMethodName(bootstrap ? { method: 'percentile', clustered: true } : { method: 'cluster-robust' })} intervals, match as cluster`;
  return `Cooperation per cell (${title})\n${textTable(['Model', 'Game', 'Framing', 'Opponent', ...factors, 'Matches', 'Cooperation', '95% CI'],
    rows.map((r) => [...[r.model, r.game, r.framing, r.opponent].map((id) => shown(names, id)), ...factors.map((f) => r.factors[f]), String(r.matches),
      fixed(r.cooperation),
        iv(r)]))}${flagged ? '\n* few matches: an interval from fewer than 9 degrees of freedom (G − 1; cells.csv gives each)' : ''}${rows.some((r) =>
          !Number.isFinite(r.lo)) ? '\n— no interval from fewer than 3 matches: each match\'s cooperation is shown instead' : ''}`;
}
