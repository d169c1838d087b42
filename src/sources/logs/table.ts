/**
 * Published logs as the input of the two-framing commands (reproduce, report, audit, coverage):
 * the decisions become a cell table through `framingCells` (the table `analyze` reads too), clustered by match. The opponent is
 * a factor of the cell when some model meets more than one; when every cell keeps one decision per
 * match (`--rounds 1` with the two seats in different cells) the decisions are independent and the
 * cells are plain counts, which the audit and coverage need.
 */
import { resolve } from 'node:path';
import { framingCells, inRounds, roundsText, type RepeatedDecision, type RoundRange } from '../../core/decisions.js';
import { UserError } from '../../core/errors.js';
import { checkPlannedFramings } from '../rates-csv.js';
import { foldExtraFactors, type TrialsInput } from '../trials.js';
import { inStableOrder } from '../cell-order.js';
import { byText } from '../../core/aggregates.js';
import { checkRoundRange, parseRoundRange, readLogDecisions, type ShortMatches } from './index.js';
import { sourcesLogsMsg } from './messages.js';

export interface LogInputChoice {
  readonly format: string;
  readonly rounds?: string | RoundRange;
  readonly factors?: readonly string[];
  readonly shortMatches?: ShortMatches;
}

/** A valid decision of the rounds kept. */
const kept = (d: RepeatedDecision, r: RoundRange | undefined) => d.action !== null && inRounds(d.round, r);

/** The first kept decision of each cell, in the order decisionsTable makes the cells. */
function firstOfCells(decisions: readonly RepeatedDecision[], rounds: RoundRange | undefined, factors: readonly string[]): RepeatedDecision[] {
  const first = new Map<string, RepeatedDecision>();
  // A row's rounds repeat their seat's cell: the key is built again only when the seat's cell may change.
  const last: Array<RepeatedDecision | undefined> = [undefined, undefined, undefined];
  for (const d of decisions) {
    if (!kept(d, rounds)) continue;
    const p = last[d.seat];
    if (p && p.model === d.model && p.game === d.game && p.framing === d.framing && p.opponent === d.opponent && p.factors === d.factors) continue;
    last[d.seat] = d;
    let id = `${d.model}\u0000${d.game}\u0000${d.framing}\u0000${d.opponent}`;
    for (const f of factors) id += `\u0000${d.factors?.[f] ?? ''}`;
    if (!first.has(id)) first.set(id, d);
  }
  return [...first.values()];
}

/** The factor names the decisions carry (rows share their factors objects: each is looked at once). */
function factorNames(decisions: readonly RepeatedDecision[]): string[] {
  const names = new Set<string>();
  let last: RepeatedDecision['factors'];
  for (const d of decisions) {
    if (d.factors === last || d.factors === undefined) continue;
    last = d.factors;
    for (const k of Object.keys(d.factors)) names.add(k);
  }
  return [...names];
}

/** Read logs through a format into the per-trial input of the two-framing commands. */
export function readLogTrials(files: readonly string[], choice: LogInputChoice, base: string, alt: string): TrialsInput {
  const rounds = typeof choice.rounds === 'string' ? parseRoundRange(choice.rounds) : choice.rounds;
  const dec = readLogDecisions(files.map((f) => resolve(f)), choice.format, { displayPaths: files, shortMatches: choice.shortMatches });
  checkRoundRange(dec.path, dec.decisions, rounds);
  const factors = [...(choice.factors ?? [])];
  const available = factorNames(dec.decisions);
  for (const f of factors) if (!available.includes(f)) throw new UserError(sourcesLogsMsg.unknownFactor(f, choice.format, available));
  // a log has no design: its matches by id and its cells by model, game, framing, opponent and factor levels (as its aggregates are), whatever
  // its rows' order
  const decisions = [...dec.decisions].sort((a, b) => byText(a.match, b.match) || a.round - b.round || a.seat - b.seat);
  const framed = framingCells(decisions, { rounds, factors });
  if (framed.table.cells.length === 0) throw new UserError(sourcesLogsMsg.noDecisions(dec.path));
  const all = firstOfCells(decisions, rounds, factors);
  const cells = inStableOrder(framed.table.cells.map((c, i) => ({ c, first: all[i] })), ({ first: d }) => ({ model: d.model, game: d.game,
    framing: d.framing, opponent: d.opponent, ...Object.fromEntries(factors.map((f) => [`factor ${f}`, d.factors?.[f] ?? ''])) }),
  ['model', 'game', 'framing', 'opponent', ...factors.map((f) => `factor ${f}`)]);
  const table = { ...framed.table, cells: cells.map((x) => x.c) };
  const independent = framed.independent;
  const firsts = cells.map((x) => x.first);
  const folded = foldExtraFactors(table);
  checkPlannedFramings(dec.path, folded.cells.map((c, i) => ({ line: firsts[i].provenance!.line, file: firsts[i].provenance!.file, key: c.key })), base, alt);
  let trials = 0;
  const perFile = new Map<string, number>(files.map((f) => [f, 0]));
  for (const d of dec.decisions) if (kept(d, rounds)) { trials++; perFile.set(d.provenance!.file, perFile.get(d.provenance!.file)! + 1); }
  const clusters = table.cells.reduce((s, c) => s + (c.obs.kind === 'clustered' ? c.obs.sizes.length : c.obs.kind === 'binary' ? c.obs.n : 0), 0);
  const roundsNote = rounds ? `, rounds ${roundsText(rounds)}` : '';
  return {
    path: dec.path, sha256: dec.sha256, table, extraFactors: factors, outcome: 'action', trials, clusters,
    kind: `${dec.kind}${roundsNote}, ${independent ? 'one decision per match and cell (independent)' : 'clustered by match'}`,
    clusterColumn: independent ? undefined : 'match',
    firstLines: firsts.map((d) => d.provenance!.line),
    provenanceColumns: [{ name: 'file', values: [...perFile].map(([value, rows]) => ({ value, rows })) }],
    logs: { format: choice.format, files, rounds: rounds ? roundsText(rounds) : undefined, shortMatches: choice.shortMatches, notes: dec.notes ?? [] },
    grid: 'as-played', // each model meets the opponents it met: the framings are crossed with the combinations played
  };
}
