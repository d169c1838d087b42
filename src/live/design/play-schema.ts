/**
 * The `play` block of a design: a repeated game (docs/methods.md, "Repeated games"). A design
 * without it is a one-shot design, unchanged. Cross-field rules (opponents naming models of the
 * design, prompts naming framings) are checked in play.ts.
 */
import { z } from 'zod';
import { STRATEGY_IDS } from '../repeated/strategies.js';

export const MAX_ROUNDS = 1000;

const plainId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected an id of letters, digits, ".", "_" or "-", starting with a letter or digit');

const strategyObject = z.strictObject({
  strategy: z.enum(STRATEGY_IDS).describe('a built-in fixed strategy'),
  id: plainId.optional().describe('the opponent id in tables (defaults to the strategy and its parameter, e.g. random-0.3)'),
  p: z.number().min(0).max(1).optional().describe('random: probability of the first option (C)'),
  forgive: z.number().min(0).max(1).optional().describe('generous-tit-for-tat: probability of C after the other\'s D'),
});

const templateObject = z.strictObject({ template: z.string().min(1) });

/** A seat's persona: its text, or an id (the factor level; no "-", which joins the pair) and its text. */
const persona = z.union([
  z.string().min(1),
  z.strictObject({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._]*$/, 'expected an id of letters, digits, "." or "_" (no "-": the stored pair is own-other)'),
    text: z.string().min(1),
  }),
]);

export const playSchema = z.strictObject({
  rounds: z.number().int().min(2).max(MAX_ROUNDS).describe('rounds of every match'),
  opponents: z.array(z.union([plainId, strategyObject])).min(1)
    .describe(`self (the model against itself), the id of another model of the design, or a fixed strategy: ${STRATEGY_IDS.join(', ')}`),
  history: z.union([z.enum(['akata', 'table'],
    { error: 'expected "akata", "table" or {template: TEXT} (with {round} {own} {other} {own_payoff} {other_payoff})' }), templateObject]).optional()
    .describe(('how past rounds enter the prompt: akata (Akata et al.\'s sentences), table, or {template} with {round} {own} {other} {own_payoff} ' +
      '{other_payoff}')),
  horizon: z.union([z.enum(['disclosed', 'hidden']), z.strictObject({ end_probability: z.number().gt(0).lt(1) })]).optional()
    .describe('what the prompt says about the number of rounds (the run always plays `rounds`)'),
  option_order: z.enum(['fixed',
    'shuffle']).optional().describe('order of the two options in the question; shuffle: redrawn each round from (seed, match, round)'),
  on_invalid: z.union([z.literal('forfeit'), z.strictObject({ retry: z.number().int().min(1).max(10) })]).optional()
    .describe('forfeit: record the round invalid and stop the match; {retry: N}: ask again up to N times, then forfeit'),
  prompt: z.union([z.enum(['akata', 'framing']), templateObject]).optional()
    .describe(('the round prompt of built-in framings: akata (Akata et al.\'s, the default), framing (the framing\'s own story with the round block before ' +
      'its answer instruction; always so for a template framing), or {template} with {rules} {horizon} {history} {round} {rounds} {first} {second} {C} {D}')),
  prompts: z.record(z.string(), z.union([z.enum(['akata', 'framing']), templateObject])).optional().describe('round prompts by framing id'),
  personas: z.strictObject({ 1: persona.optional(), 2: persona.optional() }).optional()
    .describe('persona per seat, sent as the system message and stored as the decision factor "persona" (own-other ids)'),
  seed: z.number().int().min(0).optional().describe('seed of the option order and of stochastic strategies (default 0)'),
});

export type PlayDocument = z.output<typeof playSchema>;
