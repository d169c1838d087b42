/**
 * What the tables of repeated play read of their input, from decisions (a repeated run's store) or
 * from per-match aggregates (a log, through the query engine or aggregated in memory; `analyze
 * --aggregates`): the display-name targets, the chosen players, the factors, the last round, the
 * two-framing cell table, the cells of the repeated analysis and the count of decisions.
 */
import type { CellTable } from '../../core/cells.js';
import { aggregateFramingCells } from '../../core/aggregates.js';
import type { RepeatedAggregates } from '../../core/aggregate-decisions.js';
import { inRounds, type RepeatedDecisions, type RoundRange } from '../../core/decisions.js';
import type { DisplayNames } from '../../core/display-names.js';
import type { NameTargets } from '../../core/display-names.js';
import { nameTargets } from '../../sources/names-file.js';
import { checkRoundRange as repeatedCheckRounds, roundsPastLast } from '../../sources/logs/index.js';
import { foldExtraFactors } from '../../sources/trials.js';
import { repeated, scriptedNote, type PlayerChoice, type RepeatedCell } from '../../analyses/repeated/index.js';

export type RepeatedInput = RepeatedDecisions | RepeatedAggregates;

const isAggregated = (i: RepeatedInput): i is RepeatedAggregates => 'aggregates' in i;
const FIELDS = ['model', 'game', 'framing', 'opponent'] as const;

/** The ids of the input by what they are, for the display names. */
export function inputNameTargets(input: RepeatedInput): NameTargets {
  if (!isAggregated(input)) return nameTargets(input.decisions, FIELDS, (d, f) => d[f as 'model'] as string);
  return nameTargets(input.aggregates.cells.values(), FIELDS, (c, f) => c.key[FIELDS.indexOf(f as typeof FIELDS[number])]);
}

/** The chosen players (repeated.players on decisions; on aggregates, the scripted players' cells left out the same way). */
export function choosePlayersOf(input: RepeatedInput, players: PlayerChoice | undefined, names: DisplayNames): RepeatedInput {
  if (!isAggregated(input)) return repeated.players(input, players, names);
  const scripted = new Set(input.scripted ?? []);
  if (players === 'all' || scripted.size === 0) return input;
  const models = input.aggregates.models();
  const present = (input.scripted ?? []).filter((m) => models.includes(m)); // in the order the format lists them
  if (present.length === 0 || present.length === models.length) return input;
  const aggregates = input.aggregates.withoutModels(scripted);
  return { ...input, aggregates, decisionCount: aggregates.decisions,
    notes: [...(input.notes ?? []), scriptedNote(present, names)] };
}

/** Some decision is valid. */
export const anyValid = (input: RepeatedInput): boolean =>
  (isAggregated(input) ? input.aggregates.anyValid() : input.decisions.some((d) => d.action !== null));

/** The decision factors of the input. */
export const knownFactors = (input: RepeatedInput): string[] =>
  (isAggregated(input) ? [...input.aggregates.factors] : [...new Set(input.decisions.flatMap((d) => Object.keys(d.factors ?? {})))]);

/** The chosen rounds hold a decision; else UserError naming the rounds there are. */
export function checkRounds(input: RepeatedInput, rounds: RoundRange | undefined): void {
  if (!isAggregated(input)) { repeatedCheckRounds(input.path, input.decisions, rounds); return; }
  const last = input.aggregates.lastRound();
  if (rounds && last > 0 && rounds.from > last) roundsPastLast(input.path, rounds, last);
}

/** The two-framing table (opponent and chosen factors folded into the game) and its valid decisions in the rounds kept. */
export function framingTableOf(input: RepeatedInput, rounds: RoundRange | undefined, factors: readonly string[]): { table: CellTable; valid: number } {
  if (!isAggregated(input)) {
    return { table: repeated.framingTable(input.decisions, rounds, factors),
      valid: input.decisions.filter((d) => d.action !== null && inRounds(d.round, rounds)).length };
  }
  const { table } = aggregateFramingCells(input.aggregates, rounds, factors);
  let valid = 0;
  for (const c of table.cells) valid += c.obs.kind === 'binary' ? c.obs.n : c.obs.kind === 'clustered' ? c.obs.sizes.reduce((s, v) => s + v, 0) : 0;
  return { table: foldExtraFactors(table), valid };
}

/** The cells of the repeated analysis. */
export const repeatedCellsOf = (input: RepeatedInput, factors: readonly string[]): RepeatedCell[] =>
  (isAggregated(input) ? repeated.aggregateCells(input.aggregates, factors) : repeated.cells(input.decisions, factors));

