/**
 * The schema of a log format (YAML): how the rows of a published game log become decisions of
 * repeated play. Cross-field rules (which fields each shape needs, columns named in the header, an
 * unambiguous payoff matrix) are checked in description.ts, so this schema stays representable as
 * JSON Schema for editors (data/log-formats/log-format.schema.json).
 */
import { z } from 'zod';
import { displayNamesSchema } from '../../core/display-names.js';

const column = z.string().min(1).describe('a column of the header');

/** A value of the decision: a column, a constant, a template over columns, or the file's stem. */
export const valueSpecSchema = z.union([
  z.strictObject({ column }).describe('the value of a column, as written'),
  z.strictObject({ constant: z.string().min(1) }).describe('the same value on every row'),
  z.strictObject({
    template: z.string().min(1).describe('text with {column} placeholders, e.g. "{game} ({payoff_type})"'),
    values: z.record(z.string(), z.record(z.string(), z.string())).optional()
      .describe('per column, what each of its values becomes in the template; a value not listed is an error'),
  }).describe('a template over columns'),
  z.strictObject({ file_stem: z.literal(true) }).describe('the file name without directory and extension'),
]);

const action = z.enum(['C', 'D', 'invalid']).describe('C (cooperate), D (defect) or invalid (the round is recorded, without an action)');

const seatSchema = z.strictObject({
  model: valueSpecSchema.describe('who decides'),
  opponent: valueSpecSchema.describe('whom the seat plays: the other player, a fixed strategy, the model itself'),
  action: column.describe('the column of the action label (in shape match: a list column, one label per round)'),
  payoff: column.optional().describe('the column of the seat\'s payoff (shape match: a list column)'),
  opponent_payoff: column.optional().describe('shape decision: the column of the other seat\'s payoff (needed to decode by payoffs)'),
  seat: valueSpecSchema.optional().describe('shape decision: the seat (1 or 2); default 1'),
  opponent_action: column.optional().describe('shape decision: the column of the other seat\'s label (default: the other seat\'s row of the same round)'),
  factors: z.record(z.string(), valueSpecSchema).optional().describe('factor levels that depend on the seat'),
  total: column.optional().describe(
    'the column of the seat\'s running total of payoffs (shapes decision and round): each round\'s total must be the previous total plus its payoff'),
});

const payoffPair = z.tuple([z.number(), z.number()]).describe('[row player payoff, column player payoff]');
const payoffRow = z.strictObject({ C: payoffPair, D: payoffPair });

export const actionsSchema = z.union([
  z.strictObject({
    payoffs: z.strictObject({ C: payoffRow, D: payoffRow })
      .describe('payoffs[seat 1 action][seat 2 action] = [seat 1, seat 2]: each row\'s payoffs must be one cell'),
    consistent_labels: z.boolean().optional().describe('a label must mean the same action throughout a file (default true)'),
  }).describe('decode the actions from the payoffs of the row'),
  z.strictObject({
    labels: z.record(z.string(), z.record(z.string(), action)).describe('per game, label → action'),
    by: valueSpecSchema.optional().describe('the value that chooses the label map (default: the game)'),
    skip: z.record(z.string(), z.string()).optional().describe('games left out, each with the reason shown in the notes'),
  }).describe('decode the actions by a label map per game'),
]);

export const logFormatSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  kind: z.string().min(1).optional().describe('what the decisions are, shown in the outputs (default: "<name> log")'),
  looks_like: z.string().min(1).optional().describe('how to name a file of this format when it is given without --format ("a FAIRGAME results file")'),
  delimiter: z.string().length(1).optional().describe('field delimiter (default ",")'),
  shape: z.enum(['decision', 'round', 'match']).describe('one row per decision, per round (one column set per seat), or per match (list columns)'),
  columns: z.array(column).min(1).describe('columns the header must have'),
  optional_columns: z.array(column).optional().describe('columns a file may have besides (read by no rule)'),
  match: z.union([
    z.literal('row').describe('each row is one match (shape match)'),
    z.literal('consecutive').describe('consecutive rows of one pair whose round counts up from 1'),
    valueSpecSchema.describe('a value identifying the match'),
  ]),
  round: valueSpecSchema.optional().describe('the round, from 1 (shapes decision and round; in shape match the position in the list)'),
  game: valueSpecSchema,
  framing: valueSpecSchema,
  factors: z.record(z.string(), valueSpecSchema).optional().describe('further factor levels of every decision of the row'),
  played_rounds: column.optional().describe(
    ('the column of the number of rounds the match played (read on its first row): the match must have exactly that many, and is then complete however ' +
      'early it stopped')),
  max_rounds: column.optional().describe('the column of the most rounds the match could last (read on its first row): more is refused'),
  seats: z.array(seatSchema).min(1).max(2).describe('shape decision: one entry; shapes round and match: seat 1, seat 2'),
  actions: actionsSchema,
  short_matches: z.enum(['drop', 'keep']).optional().describe(
    ('a short match (fewer rounds than the longest of its game): left out (drop, the default) or kept — kept in a store\'s export, whose matches end ' +
      'early when an answer is invalid; --short-matches overrides it')),
  notes: z.array(z.string()).optional().describe('notes shown with every reading'),
  names: displayNamesSchema().optional()
    .describe('display names: id → the name the paper gives it (models, games, framings, opponents), shown in figures, reports and LaTeX'),
  scripted: z.array(z.string().min(1)).optional()
    .describe('players that are fixed strategies or scripts, not models: analysed as opponents only (analyze --players all includes them)'),
});

export type ValueSpec = z.infer<typeof valueSpecSchema>;
export type SeatSpec = z.infer<typeof seatSchema>;
export type ActionsSpec = z.infer<typeof actionsSchema>;
/** A validated log format description. */
export type LogFormat = z.infer<typeof logFormatSchema>;

/** The JSON Schema of a log format description (data/log-formats/log-format.schema.json). */
export function logFormatJsonSchema(): Record<string, unknown> {
  const s = z.toJSONSchema(logFormatSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...s, title: 'samegame log format',
    description: 'How the rows of a published game log become decisions of repeated play (samegame, docs/reference/log-format.md).' };
}
