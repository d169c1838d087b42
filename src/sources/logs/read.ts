/**
 * One log file through its format: header checked, values compiled once, each row expanded into
 * the decisions it holds (one, one per seat, or one per seat and round), each with its match and
 * its provenance (file, line, label as written).
 */
import type { RepeatedDecision } from '../../core/decisions.js';
import type { Action } from '../../core/games.js';
import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import { splitRows } from '../rates-csv.js';
import { checkColumnNames, readInputFile } from '../reader-rules.js';
import { fileDecoder, type Decoder, type Move } from './decode.js';
import type { MatchFacts } from './complete.js';
import { MatchTracker } from './matches.js';
import { RowNames, valueField, type NamedValue } from './names.js';
import type { LogFormat } from './schema.js';
import { compileValue, parseList, type LogRow, type RowValue } from './values.js';
import { sourcesLogsMsg } from './messages.js';

export type Decision = { -readonly [K in keyof RepeatedDecision]: RepeatedDecision[K] };

interface Seat {
  readonly model: RowValue;
  readonly opponent: RowValue;
  readonly seat?: RowValue;
  readonly action: { readonly name: string; readonly at: number };
  readonly payoff?: { readonly name: string; readonly at: number };
  readonly opponentPayoff?: { readonly name: string; readonly at: number };
  readonly opponentAction?: { readonly name: string; readonly at: number };
  readonly total?: { readonly name: string; readonly at: number };
  readonly factors: ReadonlyArray<readonly [string, RowValue, NamedValue]>;
  readonly modelName: NamedValue;
  readonly opponentName: NamedValue;
}

interface Compiled {
  readonly format: LogFormat;
  readonly game: RowValue;
  readonly framing: RowValue;
  readonly round?: RowValue;
  readonly factors: ReadonlyArray<readonly [string, RowValue, NamedValue]>;
  readonly seats: readonly Seat[];
  readonly decoder: Decoder;
  readonly matches: MatchTracker;
  readonly names: RowNames;
  readonly gameName: NamedValue;
  readonly framingName: NamedValue;
  readonly played?: { readonly name: string; readonly at: number };
  readonly max?: { readonly name: string; readonly at: number };
}

/** What one file gave: its decisions, its hash and the rows left out by game. */
export interface FileReading {
  readonly sha256: string;
  readonly decisions: Decision[];
  readonly skipped: Map<string, { rows: number; why: string }>;
  /** The totals and lengths the file writes, for checkMatches (complete.ts). */
  readonly facts: MatchFacts;
}

const factorList = (specs: Readonly<Record<string, Parameters<typeof compileValue>[0]>> | undefined, h: ReadonlyMap<string, number>, file: string,
  place: string) =>
  Object.entries(specs ?? {}).map(([k, v]) => [k, compileValue(v, h, file), { level: 'factor', field: valueField(v, `${place}factors.${k}`) }] as const);

function compile(format: LogFormat, header: ReadonlyMap<string, number>, file: string): Compiled {
  const col = (name: string | undefined) => (name === undefined ? undefined : { name, at: header.get(name)! });
  const match = format.match;
  return {
    format,
    game: compileValue(format.game, header, file),
    framing: compileValue(format.framing, header, file),
    round: format.round ? compileValue(format.round, header, file) : undefined,
    factors: factorList(format.factors, header, file, ''),
    names: new RowNames(),
    gameName: { level: 'game', field: valueField(format.game, 'game') },
    framingName: { level: 'framing', field: valueField(format.framing, 'framing') },
    played: col(format.played_rounds), max: col(format.max_rounds),
    seats: format.seats.map((s, i): Seat => ({
      model: compileValue(s.model, header, file), opponent: compileValue(s.opponent, header, file),
      modelName: { level: 'model', field: valueField(s.model, `seats[${i}].model`) },
      opponentName: { level: 'opponent', field: valueField(s.opponent, `seats[${i}].opponent`) },
      seat: s.seat ? compileValue(s.seat, header, file) : undefined,
      action: col(s.action)!, payoff: col(s.payoff), opponentPayoff: col(s.opponent_payoff), opponentAction: col(s.opponent_action), total: col(s.total),
      factors: factorList(s.factors, header, file, `seats[${i}].`),
    })),
    decoder: fileDecoder(format.actions, header, file),
    matches: new MatchTracker(file, typeof match === 'object' ? compileValue(match, header, file) : match,
      format.round && 'column' in format.round ? format.round.column : 'round'),
  };
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
function payoffNumber(row: LogRow, field: string, text: string): number {
  const t = text.trim();
  if (t === '') throw new UserError(msg.missingField(row.file, row.line, field));
  if (!NUMBER.test(t)) throw new UserError(msg.notANumber(row.file, row.line, field, t));
  return Number(t);
}

function roundNumber(row: LogRow, field: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 1_000_000) throw new UserError(sourcesLogsMsg.badRound(row.file, row.line, field, text));
  return n;
}

const field = (row: LogRow, c: { name: string; at: number }) => {
  const v = row.fields[c.at].trim();
  if (v === '') throw new UserError(msg.missingField(row.file, row.line, c.name));
  return v;
};
/** A label as written, '' when empty: a label map may list the empty label (an export's invalid answer); decode refuses it otherwise. */
const labelText = (row: LogRow, c: { name: string; at: number }) => row.fields[c.at].trim();

/** One round of a row: its number and, per seat, the label and the payoffs (own, other). */
interface RoundCells { readonly round: number; readonly labels: string[]; readonly own: (number | undefined)[]; readonly other: (number | undefined)[] }

/** The rounds of a row: one (shapes decision, round), or one per list entry (shape match). */
function roundsOf(c: Compiled, row: LogRow): RoundCells[] {
  const roundField = c.format.round && 'column' in c.format.round ? c.format.round.column : 'round';
  if (c.format.shape !== 'match') {
    const round = roundNumber(row, roundField, c.round!(row));
    const labels = c.seats.map((s) => (c.decoder.kind === 'labels' ? labelText : field)(row, s.action));
    const own = c.seats.map((s) => (s.payoff ? payoffNumber(row, s.payoff.name, field(row, s.payoff)) : undefined));
    const other = c.format.shape === 'decision'
      ? c.seats.map((s) => (s.opponentPayoff ? payoffNumber(row, s.opponentPayoff.name, field(row, s.opponentPayoff)) : undefined))
      : [own[1], own[0]];
    return [{ round, labels, own, other }];
  }
  const listOf = (col: { name: string; at: number }) => {
    const l = parseList(field(row, col));
    if (typeof l === 'string') throw new UserError(sourcesLogsMsg.notAList(row.file, row.line, col.name, l));
    return l;
  };
  const labels = c.seats.map((s) => listOf(s.action));
  if (labels[0].length === 0) throw new UserError(sourcesLogsMsg.noRounds(row.file, row.line, c.seats[0].action.name));
  const pays = c.seats.map((s) => (s.payoff ? listOf(s.payoff).map((v) => payoffNumber(row, s.payoff!.name, v)) : undefined));
  c.seats.forEach((s, i) => {
    const lens: Array<[string, number]> = [[s.action.name, labels[i].length]];
    if (s.payoff) lens.push([s.payoff.name, pays[i]!.length]);
    for (const [name, n] of lens) {
      if (n !== labels[0].length) throw new UserError(sourcesLogsMsg.listLengths(row.file, row.line, name, n, labels[0].length, c.seats[0].action.name));
    }
  });
  return labels[0].map((_, r) => ({
    round: r + 1, labels: labels.map((l) => l[r]),
    own: pays.map((p) => p?.[r]), other: [pays[1]?.[r], pays[0]?.[r]],
  }));
}

/** The moves of one round, per seat, and the other seat's move where the row gives it. */
function movesOf(c: Compiled, row: LogRow, rc: RoundCells, labelMap: { key: string; map: Readonly<Record<string, 'C' | 'D' | 'invalid'>> } | undefined,
  seat: number): { own: Move[]; other: (Move | undefined)[] } {
  const d = c.decoder;
  if (d.kind === 'labels') {
    const own = c.seats.map((s, i) => d.decode(row, s.action.name, rc.labels[i], labelMap!.key, labelMap!.map));
    const other = c.format.shape === 'decision'
      ? c.seats.map((s) => (s.opponentAction ? d.decode(row, s.opponentAction.name, labelText(row, s.opponentAction), labelMap!.key, labelMap!.map)
        : undefined))
      : [own[1], own[0]];
    return { own, other };
  }
  if (c.format.shape === 'decision') {
    const s = c.seats[0];
    // The matrix is [seat 1, seat 2]: a seat-2 row's (own, other) payoffs are (seat 2, seat 1).
    const [a, b] = seat === 1 ? d.decode(row, s.payoff!.name, rc.own[0]!, rc.other[0]!) : d.decode(row, s.payoff!.name, rc.other[0]!,
      rc.own[0]!).slice().reverse() as [Action, Action];
    d.remember(row, s.action.name, rc.labels[0], a);
    if (s.opponentAction) d.remember(row, s.opponentAction.name, field(row, s.opponentAction), b);
    return { own: [a], other: [b] };
  }
  const [a, b] = d.decode(row, c.seats[0].payoff!.name, rc.own[0]!, rc.own[1]!);
  const moves: Action[] = [a, b];
  c.seats.forEach((s, i) => d.remember(row, s.action.name, rc.labels[i], moves[i]));
  return { own: moves, other: [b, a] };
}

function seatNumber(row: LogRow, s: Seat, index: number, format: LogFormat): number {
  if (format.shape !== 'decision') return index + 1;
  if (!s.seat) return 1;
  const v = s.seat(row);
  if (v !== '1' && v !== '2') {
    const spec = format.seats[0].seat!;
    throw new UserError(sourcesLogsMsg.badSeat(row.file, row.line, 'column' in spec ? spec.column : 'seat', v));
  }
  return Number(v);
}

const ROUNDS = /^\d{1,7}$/;
/** What a match's first row says of its length. */
function declared(c: Compiled, row: LogRow): { line: number; played?: number; max?: number } {
  const count = (col: { name: string; at: number } | undefined) => {
    if (!col) return undefined;
    const v = field(row, col);
    if (!ROUNDS.test(v)) throw new UserError(sourcesLogsMsg.notRoundCount(row.file, row.line, col.name, v));
    return Number(v);
  };
  return { line: row.line, played: count(c.played), max: count(c.max) };
}

/** The decisions of one row (none when its game is skipped). */
function rowDecisions(c: Compiled, row: LogRow, reading: FileReading): void {
  const name = (v: RowValue, n: NamedValue) => c.names.check(row, n, v(row));
  const game = name(c.game, c.gameName);
  let labelMap: { key: string; map: Readonly<Record<string, 'C' | 'D' | 'invalid'>> } | undefined;
  if (c.decoder.kind === 'labels') {
    const sel = c.decoder.mapOf(row, game);
    if ('skip' in sel) {
      const s = reading.skipped.get(sel.key) ?? { rows: 0, why: sel.skip };
      s.rows++;
      reading.skipped.set(sel.key, s);
      return;
    }
    labelMap = sel;
  }
  const framing = name(c.framing, c.framingName);
  const rowFactors = c.factors.map(([k, v, n]) => [k, name(v, n)] as const);
  const seats = c.seats.map((s, i) => {
    const factors = [...rowFactors, ...s.factors.map(([k, v, n]) => [k, name(v, n)] as const)];
    // One factors object per seat of the row, shared by its rounds' decisions.
    return { model: name(s.model, s.modelName), opponent: name(s.opponent, s.opponentName), seat: seatNumber(row, s, i, c.format),
      factors: factors.length ? Object.freeze(Object.fromEntries(factors)) : undefined };
  });
  const identity = { game, framing, model: seats[0].model, opponent: seats[0].opponent, factors: rowFactors };
  for (const rc of roundsOf(c, row)) {
    const match = c.matches.matchOf(row, rc.round, identity);
    if (!reading.facts.declared.has(match)) reading.facts.declared.set(match, declared(c, row));
    const moves = movesOf(c, row, rc, labelMap, seats[0].seat);
    seats.forEach((s, i) => {
      c.matches.checkOnce(row, match, rc.round, s.seat);
      const d: Decision = {
        model: s.model, game, framing, opponent: s.opponent, match, round: rc.round, seat: s.seat,
        action: moves.own[i], opponentAction: moves.other[i] ?? null,
        provenance: { file: row.file, line: row.line, label: rc.labels[i] },
      };
      if (rc.own[i] !== undefined) d.payoff = rc.own[i];
      if (s.factors) d.factors = s.factors;
      const total = c.seats[i].total;
      if (total) reading.facts.totals.set(d, { field: total.name, value: payoffNumber(row, total.name, field(row, total)) });
      reading.decisions.push(d);
    });
  }
}

/** Read one log file through its format. */
export function readLogFile(path: string, file: string, format: LogFormat): FileReading {
  const { text, sha256 } = readInputFile(path, file);
  const raw = splitRows(text, file, format.delimiter ?? ',');
  if (raw.length === 0) throw new UserError(msg.emptyTable(file));
  const names = raw[0].fields.map((h) => h.trim());
  checkColumnNames(file, 1, names, format.delimiter === undefined || format.delimiter === ',' ? 'header' : 'delimited');
  for (const col of format.columns) if (!names.includes(col)) throw new UserError(sourcesLogsMsg.missingColumn(file, col, format.name, names));
  const c = compile(format, new Map(names.map((h, i) => [h, i])), file);
  const reading: FileReading = { sha256, decisions: [], skipped: new Map(),
    facts: { totals: new Map(), declared: new Map(), playedField: format.played_rounds, maxField: format.max_rounds } };
  let previous: { line: number; text: string } | undefined;
  for (const r of raw.slice(1)) {
    if (r.fields.length !== names.length) throw new UserError(msg.wrongFieldCount(file, r.line, r.fields.length, names.length));
    // A row given twice: in shapes decision and round a row is one round, never repeated as it stands.
    const text = JSON.stringify(r.fields);
    if (format.shape !== 'match' && previous?.text === text) throw new UserError(sourcesLogsMsg.duplicateRow(file, r.line, previous.line));
    previous = { line: r.line, text };
    rowDecisions(c, { file, line: r.line, fields: r.fields }, reading);
  }
  return reading;
}
