import { reactionsChart, roundsChart, type RepeatedChartOptions } from '../../render/charts/repeated.js';
import type { Figure } from '../../render/figure.js';
import type { RepeatedAnalysis } from './analysis.js';
import { reactionRows, roundRows } from './tables.js';
import type { CellKey } from './layout.js';
import { SELF } from './framing-table.js';

/** The panel of a cell: its model, game and framing (and the levels of chosen factors, "persona=a-b"). */
export const panelOf = (k: CellKey, factors: Readonly<Record<string, string>> = {}) =>
  [`${k.model} — ${k.game} — ${k.framing}`, ...Object.entries(factors).map(([f, v]) => `${f}=${v}`)].join(' — ');

/** The opponent as the figures name it: "self" for a model's matches against itself. */
const opponentOf = (k: CellKey) => (k.opponent === k.model ? SELF : k.opponent);

function options(a: RepeatedAnalysis): RepeatedChartOptions {
  return {
    panels: [...new Set(a.cells.map((c) => panelOf(c.key, c.factors)))],
    opponents: [...new Set(a.cells.map((c) => opponentOf(c.key)))],
    subtitle: `95 % cluster-bootstrap intervals (match as cluster), B = ${a.settings.reps} replicates, seed ${a.settings.seed}`,
  };
}

/** Cooperation by round per opponent (with bands) and the reaction profile. */
export function repeatedFigures(a: RepeatedAnalysis): Figure[] {
  const o = options(a);
  const rounds = roundRows(a).map((r) => ({ panel: panelOf(r, r.factors), opponent: opponentOf(r), round: r.round, cooperation: r.cooperation, lo: r.lo, hi: r.hi, n: r.n }));
  const reactions = reactionRows(a).map((r) => ({ panel: panelOf(r, r.factors), opponent: opponentOf(r), previous: r.previous, p_cooperate: r.p_cooperate, lo: r.lo, hi: r.hi, n: r.n }));
  return [roundsChart(rounds, o), reactionsChart(reactions, o)];
}
