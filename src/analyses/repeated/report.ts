import { fixed, interval } from '../../core/format.js';
import type { RepeatedDecisions } from '../../core/decisions.js';
import { num, type Block, type Section } from '../../render/html.js';
import { fewNote, intervalLabel, thinNote, type RepeatedAnalysis } from './analysis.js';
import { matchBrowser } from './browser.js';
import { cellRows, endGameRows, reactionRows } from './tables.js';
import { PREVIOUS, type CellKey } from './layout.js';
import { shown } from '../../core/display-names.js';
import { MODEL_STATS, type ModelRow } from './models.js';

const rate = (x: number) => num(fixed(x));
const iv = (lo: number, hi: number, note = '') => num(Number.isFinite(lo) ? `${interval(lo, hi)}${note ? ' *' : ''}` : '—');
/** The chosen factors: their column names, and a row's levels, placed after the opponent. */
const factorNames = (a: RepeatedAnalysis) => a.settings.factors ?? [];
const levelsOf = (a: RepeatedAnalysis, f: Readonly<Record<string, string>>) => factorNames(a).map((n) => f[n]);
/** A row's model, game, framing and opponent by their display names. */
const keyCells = (a: RepeatedAnalysis, r: CellKey) => [r.model, r.game, r.framing, r.opponent].map((id) => shown(a.settings.names, id));

/** Summary of the source and of the cells, with its notes (a game left out and why …). */
export function repeatedSummarySection(a: RepeatedAnalysis, input: RepeatedDecisions): Section {
  const matches = a.cells.reduce((s, c) => s + c.matches.length, 0);
  const valid = cellRows(a).reduce((s, r) => s + r.decisions, 0);
  const blocks: Block[] = [
    { kind: 'text', text: (`${input.decisionCount ?? input.decisions.length} decisions (${valid} valid) of ${a.cells.length} cells ` +
      '(model × game × framing × ' +
      `opponent), ${matches} match–cell pairs. ${intervalText(a)}`) },
    { kind: 'facts', items: [['Source', input.path], ['SHA-256', input.sha256], ['Kind', input.kind], ['Synthetic', input.synthetic ? 'yes' : 'no']] },
  ];
  const notes = [...(input.notes ?? []), ...(thinNote(a) ? [`${thinNote(a)!} (shown —).`] : []), ...(fewNote(a) ? [`${fewNote(a)!} (marked *).`] : [])];
  if (notes.length) blocks.push({ kind: 'list', items: notes });
  return { id: 'repeated-summary', heading: 'Repeated play', blocks };
}

/** How the intervals were made, for the summary. */
function intervalText(a: RepeatedAnalysis): string {
  if (a.settings.interval === 'cluster-bootstrap') return (`Every interval is a 95 % percentile interval of a cluster bootstrap with the match as the ` +
    `cluster: each replicate redraws a cell's matches with replacement, all rounds of a drawn match together (B = ${a.settings.reps}, ` +
    `seed ${a.settings.seed}).`);
  return ('Every interval is a 95 % small-sample cluster-robust interval with the match as the cluster (CR2 variance, Satterthwaite degrees of freedom: ' +
    'with matches of equal length, the t interval on G − 1 degrees of freedom of the match means; near 0 or 1 the Clopper–Pearson interval on the effective ' +
    'sample size; docs/methods.md §8.4, §21).');
}

/** cells.csv as a table: cooperation over all rounds per cell. */
export function repeatedCellsSection(a: RepeatedAnalysis): Section {
  return {
    id: 'repeated-cells', heading: 'Cooperation per cell',
    blocks: [{
      kind: 'table', id: 'repeated-cells-table',
      columns: ['Model', 'Game', 'Framing', 'Opponent', ...factorNames(a), num('Matches'), num('Decisions'), num('Cooperation'), num('95 % interval'), 'Note'],
      rows: cellRows(a).map((r) => [...keyCells(a, r), ...levelsOf(a, r.factors), num(String(r.matches)), num(String(r.decisions)), rate(r.cooperation),
        iv(r.lo, r.hi, r.note), r.note]),
    }],
  };
}

const MODEL_HEADINGS = ['Cooperation', 'Round 1', 'Last round', 'after CC', 'after CD', 'after DC', 'after DD'];

/** models.csv as a table: per model, each statistic the mean over its opponents, with its interval. */
export function repeatedModelsSection(a: RepeatedAnalysis, rows: readonly ModelRow[]): Section {
  const value = (v: ModelRow['values'][typeof MODEL_STATS[number]]) =>
    num(Number.isFinite(v.point) ? `${fixed(v.point)} ${Number.isFinite(v.lo) ? interval(v.lo, v.hi) : '—'}` : '—');
  return {
    id: 'repeated-models', heading: 'Per model, over its opponents',
    blocks: [
      { kind: 'text', text: (`Each statistic is the mean over the model's opponents of the rate against that opponent (every opponent weighs the same), ` +
        `with its interval (${intervalLabel(a)}). Round 1 is the first round; the last round is each cell's highest round.`) },
      {
        kind: 'table', id: 'repeated-models-table',
        columns: ['Model', 'Game', 'Framing', ...factorNames(a), num('Opponents'), num('Matches'), ...MODEL_HEADINGS.map(num)],
        rows: rows.map((r) => [...[r.model, r.game, r.framing].map((id) => shown(a.settings.names, id)), ...levelsOf(a, r.factors),
          num(String(r.opponents)), num(String(r.matches)), ...MODEL_STATS.map((s) => value(r.values[s]))]),
      },
    ],
  };
}

/** Reactions (reciprocity, forgiveness) and the end game, per cell. */
export function repeatedReactionsSection(a: RepeatedAnalysis): Section {
  // Keyed by the rows' own key (self-play is `self` in both), so every row has its four cells.
  const keyOf = (r: CellKey & { factors: Readonly<Record<string, string>> }) => JSON.stringify([r.model, r.game, r.framing, r.opponent, ...levelsOf(a,
    r.factors)]);
  const reactions = new Map<string, string[]>();
  for (const r of reactionRows(a)) {
    const text = r.n ? `${fixed(r.p_cooperate)} ${Number.isFinite(r.lo) ? interval(r.lo, r.hi) : '—'} (n ${r.n})` : '—';
    reactions.set(keyOf(r), [...(reactions.get(keyOf(r)) ?? []), text]);
  }
  return {
    id: 'repeated-reactions', heading: 'Reactions and the end game',
    blocks: [
      { kind: 'text', text: ('P(cooperate) after each previous round, written (own move, other\'s move) of the same seat\'s round before: after CC ' +
        '(reciprocity: staying cooperative), CD (forgiveness: cooperating after being defected on), DC, DD. Round 1 has no previous round and enters no ' +
        'reaction. End game: cooperation in the last round minus cooperation in the rounds before it, from the same matches.') },
      {
        kind: 'table', id: 'repeated-reactions-table',
        columns: ['Model', 'Game', 'Framing', 'Opponent', ...factorNames(a), 'after CC', 'after CD', 'after DC', 'after DD'],
        rows: cellRows(a).map((r) => [...keyCells(a, r), ...levelsOf(a, r.factors),
          ...PREVIOUS.map((_, i) => num(reactions.get(keyOf(r))?.[i] ?? '—'))]),
      },
      {
        kind: 'table', id: 'repeated-endgame-table',
        columns: ['Model', 'Game', 'Framing', 'Opponent', ...factorNames(a), num('Last round'), num('Cooperation, last'), num('Before'), num('Drop'),
          num('95 % interval')],
        rows: endGameRows(a).map((r) => [...keyCells(a, r), ...levelsOf(a, r.factors), num(String(r.last_round)), rate(r.cooperation_last),
          rate(r.cooperation_before), rate(r.drop), iv(r.lo, r.hi)]),
      },
    ],
  };
}

/**
 * How a move of the browser tells more: a click shows the prompt and answer of a direct run; a log's decisions have none, so hovering shows where each was
 * read.
 */
function browserHint(input: RepeatedDecisions): string {
  if (input.decisions.some((d) => d.prompt !== undefined || d.answer !== undefined)) return 'Click a move to see the prompt the model was sent and its answer.';
  if (input.decisions.some((d) =>
    d.provenance !== undefined)) return ('These decisions were read from a log, which records no prompt or answer: the moves are not clickable; hover a ' +
      'move to see the file, line and label as written.');
  return 'No prompt or answer was recorded for these decisions.';
}

/** The match browser: pick a cell, every listed match round by round, a decision's prompt and answer on click. */
export function matchBrowserSection(a: RepeatedAnalysis, input: RepeatedDecisions): Section {
  return {
    id: 'matches', heading: 'Matches',
    blocks: [
      { kind: 'text', text: (`Pick a cell to see each of its matches round by round, both seats' moves (C or D; — for an invalid or unknown ` +
        `move). ${browserHint(input)}`) },
      matchBrowser(input.decisions, a.cells, 'match-browser', a.settings.names),
    ],
  };
}
