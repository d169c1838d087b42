/**
 * How a label becomes C or D: a label map per game, or decoded from the row's payoffs under the
 * declared payoff matrix (docs/methods.md, "Reading published logs"). A label or a pair of payoffs
 * that fits no rule is a UserError naming file, line and field: a log that contradicts its own
 * game is refused, not averaged.
 */
import type { Action } from '../../core/games.js';
import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import type { ActionsSpec } from './schema.js';
import { compileValue, specColumns, type LogRow, type RowValue } from './values.js';
import { sourcesLogsMsg } from './messages.js';

/** A decoded move: C, D, or null for a label the format maps to invalid. */
export type Move = Action | null;

/** Decoding by label: the map a row uses (or 'skip' with the reason, or an error). */
export interface LabelDecoder {
  readonly kind: 'labels';
  /** The row's label map, or the reason it is left out. */
  mapOf(row: LogRow, game: string): { readonly key: string; readonly map: Readonly<Record<string, 'C' | 'D' | 'invalid'>> } | { readonly skip: string;
    readonly key: string };
  decode(row: LogRow, field: string, label: string, key: string, map: Readonly<Record<string, 'C' | 'D' | 'invalid'>>): Move;
}

/** Decoding by payoffs: the pair of moves whose cell holds (own, other) payoffs. */
export interface PayoffDecoder {
  readonly kind: 'payoffs';
  decode(row: LogRow, field: string, own: number, other: number): readonly [Action, Action];
  /** Checks that a label keeps its meaning within a file (when the format asks for it). */
  remember(row: LogRow, field: string, label: string, move: Action): void;
}

export type Decoder = LabelDecoder | PayoffDecoder;

function labelDecoder(spec: Extract<ActionsSpec, { labels: unknown }>, header: ReadonlyMap<string, number>, file: string): LabelDecoder {
  const by: RowValue | undefined = spec.by ? compileValue(spec.by, header, file) : undefined;
  const byField = spec.by ? (specColumns(spec.by)[0] ?? 'game') : 'game';
  const skip = spec.skip ?? {};
  const known = Object.keys(spec.labels);
  return {
    kind: 'labels',
    mapOf(row, game) {
      const key = by ? by(row) : game;
      if (Object.prototype.hasOwnProperty.call(skip, key)) return { skip: skip[key], key };
      if (!Object.prototype.hasOwnProperty.call(spec.labels, key)) throw new UserError(sourcesLogsMsg.noLabelMap(row.file, row.line, byField, key, known));
      return { key, map: spec.labels[key] };
    },
    decode(row, field, label, key, map) {
      if (label === '' && !Object.prototype.hasOwnProperty.call(map, label)) throw new UserError(msg.missingField(row.file, row.line, field));
      if (!Object.prototype.hasOwnProperty.call(map, label)) throw new UserError(sourcesLogsMsg.unknownLabel(row.file, row.line, field, label, key,
        Object.keys(map)));
      const a = map[label];
      return a === 'invalid' ? null : a;
    },
  };
}

const CELLS = [['C', 'C'], ['C', 'D'], ['D', 'C'], ['D', 'D']] as const;

function payoffDecoder(spec: Extract<ActionsSpec, { payoffs: unknown }>): PayoffDecoder {
  const m = spec.payoffs;
  const shown = CELLS.map(([r, c]) => `${r}${c} ${m[r][c][0]}/${m[r][c][1]}`).join(', ');
  const seen = new Map<string, { move: Action; line: number }>();
  const consistent = spec.consistent_labels ?? true;
  return {
    kind: 'payoffs',
    decode(row, field, own, other) {
      for (const [r, c] of CELLS) if (m[r][c][0] === own && m[r][c][1] === other) return [r, c];
      throw new UserError(sourcesLogsMsg.payoffsFitNoCell(row.file, row.line, field, own, other, shown));
    },
    remember(row, field, label, move) {
      if (!consistent) return;
      const s = seen.get(label);
      if (!s) seen.set(label, { move, line: row.line });
      else if (s.move !== move) throw new UserError(sourcesLogsMsg.labelChanged(row.file, row.line, field, label, s.move, s.line, move));
    },
  };
}

/** The decoder of one file (payoff decoding remembers labels per file). */
export function fileDecoder(spec: ActionsSpec, header: ReadonlyMap<string, number>, file: string): Decoder {
  return 'payoffs' in spec ? payoffDecoder(spec) : labelDecoder(spec, header, file);
}
