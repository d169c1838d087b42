/**
 * The repeated-play tables as LaTeX (reports/models.tex, cells.tex, reactions.tex, endgame.tex):
 * the rows of the CSVs, rates and their interval ends at the report's three decimals (the CSVs
 * keep 12 significant digits), counts whole, names by their display names.
 */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { shown } from '../../core/display-names.js';
import { fixed } from '../../core/format.js';
import { intervalCell, latexTable, leftColumn, rightColumn, type LatexCell, type LatexOptions } from '../../render/latex.js';
import { intervalLabel, type RepeatedAnalysis } from './analysis.js';
import { PREVIOUS } from './layout.js';
import { MODEL_STATS, type ModelRow } from './models.js';
import { cellRows, endGameRows, reactionRows } from './tables.js';

const NA = { number: '' };
/** A rate, a difference or an interval end as the report shows it (three decimals); empty when there is none. */
const v = (x: number): LatexCell => (Number.isFinite(x) ? { number: fixed(x) } : NA);
const t = (x: number): string => (Number.isFinite(x) ? fixed(x) : '');
/** A rate or difference with its interval, compactly ("0.651 [0.639, 0.661]"); the interval left out where there is none. */
const vi = (x: number, lo: number, hi: number): LatexCell => intervalCell(t(x), t(lo), t(hi));

function keyColumns(a: RepeatedAnalysis, opponent: boolean) {
  return [leftColumn('Model'), leftColumn('Game'), leftColumn('Framing'), ...(opponent ? [leftColumn('Opponent')] : []),
    ...(a.settings.factors ?? []).map((f) => leftColumn(f))];
}
function keyCells(a: RepeatedAnalysis, k: { model: string; game: string; framing: string; opponent?: string; factors: Readonly<Record<string,
  string>> }): string[] {
  const ids = [k.model, k.game, k.framing, ...(k.opponent === undefined ? [] : [k.opponent])];
  return [...ids.map((id) => shown(a.settings.names, id)), ...(a.settings.factors ?? []).map((f) => k.factors[f])];
}

const MODEL_HEADINGS: Readonly<Record<typeof MODEL_STATS[number], string>> = {
  cooperation: 'Cooperation', first_round: 'Round 1', last_round: 'Last round', after_CC: 'CC', after_CD: 'CD', after_DC: 'DC', after_DD: 'DD',
};

export function modelsLatex(a: RepeatedAnalysis, rows: readonly ModelRow[], latex: LatexOptions = {}): string {
  return latexTable({
    caption: (`Per model, the mean over its opponents of cooperation, cooperation in round 1 and in the last round, and P(cooperate) after each previous ` +
      `round, each with its interval (${intervalLabel(a)}).`),
    label: 'tab:repeated-models',
    columns: [...keyColumns(a, false), rightColumn('Opponents'), ...MODEL_STATS.map((s) => rightColumn(MODEL_HEADINGS[s],
      s.startsWith('after_') ? 'P(cooperate) after' : undefined))],
    rows: rows.map((x) => [...keyCells(a, x), x.opponents, ...MODEL_STATS.map((s) => vi(x.values[s].point, x.values[s].lo, x.values[s].hi))]),
  }, latex);
}

export function cellsLatex(a: RepeatedAnalysis, latex: LatexOptions = {}): string {
  return latexTable({
    caption: `Cooperation per model and opponent over all rounds, with its interval (${intervalLabel(a)}).`,
    label: 'tab:repeated-cells',
    columns: [...keyColumns(a, true), rightColumn('Matches'), rightColumn('Decisions'), rightColumn('Cooperation')],
    rows: cellRows(a).map((x) => [...keyCells(a, x), x.matches, x.decisions, vi(x.cooperation, x.lo, x.hi)]),
  }, latex);
}

export function reactionsLatex(a: RepeatedAnalysis, latex: LatexOptions = {}): string {
  const byCell = new Map<string, number[]>();
  const id = (x: { model: string; game: string; framing: string; opponent: string; factors: Readonly<Record<string, string>> }) => JSON.stringify([x.model,
    x.game, x.framing, x.opponent, x.factors]);
  for (const x of reactionRows(a)) byCell.set(id(x), [...(byCell.get(id(x)) ?? []), x.n ? x.p_cooperate : NaN]);
  return latexTable({
    caption: 'P(cooperate) after each previous round (own move, the other\'s move) per model and opponent; empty where no decision followed that round.',
    label: 'tab:repeated-reactions',
    columns: [...keyColumns(a, true), ...PREVIOUS.map((p) => rightColumn(p, 'P(cooperate) after'))],
    rows: cellRows(a).map((x) => [...keyCells(a, x), ...PREVIOUS.map((_, i) => v(byCell.get(id(x))?.[i] ?? NaN))]),
  }, latex);
}

export function endGameLatex(a: RepeatedAnalysis, latex: LatexOptions = {}): string {
  return latexTable({
    caption: `The end game: cooperation in the last round, in the rounds before it, and the drop (last − before) with its interval (${intervalLabel(a)}).`,
    label: 'tab:repeated-endgame',
    columns: [...keyColumns(a, true), rightColumn('Last round'),
      rightColumn('last', 'Cooperation'), rightColumn('before', 'Cooperation'), rightColumn('Drop')],
    rows: endGameRows(a).map((x) => [...keyCells(a, x), x.last_round, v(x.cooperation_last), v(x.cooperation_before), vi(x.drop, x.lo, x.hi)]),
  }, latex);
}

/** reports/models.tex, cells.tex, reactions.tex and endgame.tex. */
export function repeatedLatexFiles(reportsDir: string, a: RepeatedAnalysis, models: readonly ModelRow[], latex: LatexOptions = {}): OutputFile[] {
  return [
    { path: join(reportsDir, 'models.tex'), content: modelsLatex(a, models, latex) },
    { path: join(reportsDir, 'cells.tex'), content: cellsLatex(a, latex) },
    { path: join(reportsDir, 'reactions.tex'), content: reactionsLatex(a, latex) },
    { path: join(reportsDir, 'endgame.tex'), content: endGameLatex(a, latex) },
  ];
}
