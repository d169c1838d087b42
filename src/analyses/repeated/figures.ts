import { MAX_SERIES, reactionsChart, roundsChart, type RepeatedChartOptions } from '../../render/charts/repeated.js';
import type { Figure } from '../../render/figure.js';
import { shown, type DisplayNames } from '../../core/display-names.js';
import { canonicalGameName } from '../../core/games.js';
import { intervalLabel, MIN_MATCHES, type RepeatedAnalysis } from './analysis.js';
import { repeatedMsg } from './messages.js';
import { reactionRows, roundRows } from './tables.js';
import type { CellKey } from './layout.js';
import { SELF } from './framing-table.js';

/** A game by its display name: the names file's, else the canonical game's ("prisoners-dilemma" → "Prisoner's Dilemma"), else its id. */
export const gameShown = (names: DisplayNames | undefined, game: string): string =>
  (names !== undefined && Object.prototype.hasOwnProperty.call(names, game) ? shown(names, game) : canonicalGameName(game));

/** Which of game and framing differ between the cells (a panel title names only those; the others are said once, `constantParts`). */
export interface PanelParts { readonly game: boolean; readonly framing: boolean }
export const panelParts = (cells: readonly { readonly key: CellKey }[]): PanelParts => ({
  game: new Set(cells.map((c) => c.key.game)).size > 1, framing: new Set(cells.map((c) => c.key.framing)).size > 1,
});

/** The game and framing every cell shares, by their display names ("Prisoner's Dilemma, framing experiment_pd"); '' when both vary. */
export function constantParts(cells: readonly { readonly key: CellKey }[], names?: DisplayNames): string {
  const parts = panelParts(cells), k = cells[0]?.key;
  if (!k) return '';
  return [...(parts.game ? [] : [gameShown(names, k.game)]), ...(parts.framing ? [] : [`framing ${shown(names, k.framing)}`])].join(', ');
}

/**
 * The panel of a cell: its model, and its game and framing where they differ between cells (all three without `parts`), and the levels
 * of chosen factors ("persona=a-b"), by their display names.
 */
export const panelOf = (k: CellKey, factors: Readonly<Record<string, string>> = {}, names?: DisplayNames, parts: PanelParts = { game: true,
  framing: true }) => [shown(names, k.model), ...(parts.game ? [gameShown(names, k.game)] : []), ...(parts.framing ? [shown(names, k.framing)] : []),
  ...Object.entries(factors).map(([f, v]) => `${f}=${v}`)].join(' — ');

/** The opponent as the figures name it: "self" for a model's matches against itself, else its display name. */
const opponentOf = (k: CellKey, names?: DisplayNames) => (k.opponent === k.model || k.opponent === SELF ? SELF : shown(names, k.opponent));

/**
 * Each cell's panel: its model's (game, framing) panel, split into parts of at most MAX_SERIES
 * opponents ("… — opponents 9–16 of 20") when the model met more.
 */
function panelsOf(a: RepeatedAnalysis): { panel: Map<string, string>; panels: string[] } {
  // keyed by JSON [model panel, opponent]
  const names = a.settings.names, parts = panelParts(a.cells);
  const byPanel = new Map<string, string[]>();
  for (const c of a.cells) {
    const p = panelOf(c.key, c.factors, names, parts), op = opponentOf(c.key, names);
    const list = byPanel.get(p) ?? [];
    if (!list.includes(op)) list.push(op);
    byPanel.set(p, list);
  }
  const panel = new Map<string, string>();
  const panels: string[] = [];
  for (const [p, ops] of byPanel) {
    const parts = Math.ceil(ops.length / MAX_SERIES);
    for (let i = 0; i < parts; i++) {
      const name = parts === 1 ? p : `${p} — opponents ${i * MAX_SERIES + 1}–${Math.min(ops.length, (i + 1) * MAX_SERIES)} of ${ops.length}`;
      panels.push(name);
      for (const op of ops.slice(i * MAX_SERIES, (i + 1) * MAX_SERIES)) panel.set(JSON.stringify([p, op]), name);
    }
  }
  return { panel, panels };
}

/**
 * A figure's subtitle as what it draws: the interval method when every point has an interval; how
 * many points have none when some lack one; that none is drawn when none can be (every point from
 * fewer than MIN_MATCHES matches).
 */
export function drawnLabel(a: RepeatedAnalysis, rows: readonly { readonly lo: number; readonly hi: number }[], what: string): string {
  const without = rows.filter((r) => !Number.isFinite(r.lo) || !Number.isFinite(r.hi)).length;
  if (without === 0) return intervalLabel(a);
  return without === rows.length ? repeatedMsg.noIntervalDrawn(what, MIN_MATCHES)
    : repeatedMsg.someIntervalsDrawn(intervalLabel(a), without, rows.length, what, MIN_MATCHES);
}

/** Cooperation by round per opponent (with bands) and the reaction profile, one panel per model. */
export function repeatedFigures(a: RepeatedAnalysis): Figure[] {
  const names = a.settings.names, parts = panelParts(a.cells);
  const { panel, panels } = panelsOf(a);
  const where = (r: CellKey & { factors: Readonly<Record<string, string>> }) => ({
    panel: panel.get(JSON.stringify([panelOf(r, r.factors, names, parts), opponentOf(r, names)]))!, opponent: opponentOf(r, names),
  });
  const o = { panels, opponents: [...new Set(a.cells.map((c) => opponentOf(c.key, names)))] };
  const rounds = roundRows(a).map((r) => ({ ...where(r), round: r.round, cooperation: r.cooperation, lo: r.lo, hi: r.hi, n: r.n }));
  const reactions = reactionRows(a).map((r) => ({ ...where(r), previous: r.previous, p_cooperate: r.p_cooperate, lo: r.lo, hi: r.hi, n: r.n }));
  const shared = constantParts(a.cells, names);
  const subtitle = (rows: readonly { lo: number; hi: number }[], what: string) => `${shared ? `${shared}: ` : ''}${drawnLabel(a, rows, what)}`;
  const intervals = (rows: readonly { lo: number; hi: number }[]) => rows.some((r) => Number.isFinite(r.lo) && Number.isFinite(r.hi));
  return [roundsChart(rounds, { ...o, subtitle: subtitle(rounds, 'round rates'), intervals: intervals(rounds) } satisfies RepeatedChartOptions),
    reactionsChart(reactions, { ...o, subtitle: subtitle(reactions, 'reaction rates'), intervals: intervals(reactions) })];
}
