/**
 * The schema of a design file (YAML): what the document may say, field by field. Cross-field
 * rules (unique ids, usable payoffs and labels, simulated options) are checked in design.ts so
 * that this schema stays representable as JSON Schema for editors.
 */
import { displayNamesSchema } from '../../core/display-names.js';
import { z } from 'zod';
import { CANONICAL_GAME_IDS } from '../../core/games.js';
import { FAMILY_IDS } from '../prompts/index.js';
import { BUILTIN_PROVIDERS, type BuiltinProviderId } from '../providers/registry.js';
import { PLUGIN_SPEC_RE } from '../providers/plugin-spec.js';
import { playSchema } from './play-schema.js';
import { designMsg } from './messages.js';
import { stopSchema } from './stop.js';

/**
 * Limits on a design's size, refused when the design is read (before any call or allocation):
 * every trial of a run is planned in memory, so a design holds at most MAX_TRIALS_TOTAL trials
 * (the 1,000,000-trial store of the benchmarks fits twice), and no cell more than
 * MAX_TRIALS_PER_CELL (a binomial rate from 10^6 trials is already known to ±0.001).
 */
export const MAX_TRIALS_PER_CELL = 1_000_000;
export const MAX_TRIALS_TOTAL = 2_000_000;
/** Comprehension probes per model × game × framing at most. */
export const MAX_PROBES_PER_CELL = 10_000;

/** Provider ids a design may name: the keys of the built-in provider Record, in its order. */
export const PROVIDER_IDS = Object.keys(BUILTIN_PROVIDERS) as [BuiltinProviderId, ...BuiltinProviderId[]];

const providerField = z.union([
  z.enum(PROVIDER_IDS),
  z.string().regex(PLUGIN_SPEC_RE, `Invalid option: expected one of ${PROVIDER_IDS.map((p) => JSON.stringify(p)).join('|')}, or a provider module `
    + '(a path such as ./providers/my.mjs, relative to the design, or a package named @scope/name or samegame-provider-*)'),
]).describe('a built-in provider id, or a plug-in module exporting createProvider(model, settings)');

/** Ids of models, games and framings end up in file names and table rows: keep them plain. */
const id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected an id of letters, digits, ".", "_" or "-", starting with a letter or digit');

const payoffPair = z.tuple([z.number(), z.number()]).describe('[row player payoff, column player payoff]');
const payoffRow = z.strictObject({ C: payoffPair, D: payoffPair }).describe('payoffs when the column player plays C and D');

export const customGameSchema = z.strictObject({
  id,
  name: z.string().min(1).optional().describe('name for tables (defaults to the id)'),
  payoffs: z.strictObject({ C: payoffRow, D: payoffRow })
    .describe('payoffs[row action][column action] = [row player, column player]; the prompts address the row player'),
});

const framingObject = z.strictObject({
  id,
  family: z.enum(FAMILY_IDS as [string, ...string[]]).optional().describe('a built-in prompt family (Same Game, Different Story Appendix B)'),
  labels: z.array(z.string()).optional().describe('surface labels [label of C, label of D]; default the family\'s, or [C, D] for a template'),
  template: z.string().min(1).optional()
    .describe(('a story template: {C} {D} (the labels), {payoffs} (every outcome), {you.XY} {other.XY} (single payoffs, X your action, Y the other\'s), ' +
      '{answer}; {{ and }} for literal braces (docs/methods.md §18a)')),
  template_file: z.string().min(1).optional().describe('a file holding the template, relative to the design file'),
}).describe('a framing: {id, family, labels} or {id, labels, template | template_file}');

export const decodingSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional().describe('sampling temperature (anthropic accepts at most 1)'),
  max_tokens: z.number().int().min(1).optional().describe('output tokens per call at most (anthropic: 1024 when not given)'),
  seed: z.number().int().min(0).optional().describe('sent to providers that accept one; seeds the simulated agent'),
  top_logprobs: z.number().int().min(0).max(20).optional().describe('alternatives per output position (logprobs scoring)'),
  reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high']).optional().describe('reasoning effort, for models that take one'),
});

export const pricesSchema = z.strictObject({
  input: z.number().min(0).describe('US dollars per 1M input tokens'),
  output: z.number().min(0).describe('US dollars per 1M output tokens'),
  batch_discount: z.number().min(0).max(1).optional()
    .describe('fraction taken off these prices for batch calls (OpenAI, Anthropic, Gemini: 0.5); used by --batch --dry-run, default 0.5'),
});

export const modelSchema = z.strictObject({
  id: id.describe('the name used in tables'),
  provider: providerField,
  model: z.string().min(1).optional().describe('the model name sent to the provider (defaults to id)'),
  base_url: z.url().optional().describe(
    ('API base URL: any server of the provider\'s wire format (an OpenAI-compatible server, a gateway, a regional endpoint; for anthropic and gemini the ' +
      'server root)')),
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected the NAME of an environment variable').optional()
    .describe('environment variable holding the API key (never the key itself)'),
  options: z.record(z.string(), z.unknown()).optional().describe('provider-specific options'),
  decoding: decodingSchema.optional().describe('overrides of the design\'s decoding for this model'),
  prices: pricesSchema.optional().describe('overrides of the design\'s prices for this model'),
  batch: z.boolean().optional().describe('send this model\'s trials through its vendor\'s batch API (as `run --batch` does for every model)'),
});

export const designSchema = z.strictObject({
  name: z.string().min(1).describe('the design\'s name; run stores its trials in runs/NAME.sqlite unless --store says otherwise'),
  description: z.string().optional().describe('free text about the design'),
  synthetic: z.boolean().optional().describe('true when the design\'s data are synthetic (simulated models)'),
  names: displayNamesSchema().optional()
    .describe(('display names of repeated play: id → the name to show for a model, game, framing or opponent in figures, reports, the terminal and LaTeX ' +
      '(CSV and JSON keep the ids and add the names); `run`, `prompts` and `analyze` warn of an id that names nothing in the design (with its line and the ' +
      'nearest id), a warning, not an error')),
  models: z.array(modelSchema).min(1).describe('the models to query'),
  games: z.array(z.union([z.enum(CANONICAL_GAME_IDS as [string, ...string[]]), customGameSchema])).min(1)
    .describe('canonical games by id (Same Game, Different Story Appendix A) or custom 2×2 payoff matrices'),
  framings: z.array(z.union([z.enum(FAMILY_IDS as [string, ...string[]]), framingObject])).min(1)
    .describe('prompt families by id, {id, family, labels}, or story templates {id, labels, template | template_file}'),
  trials: z.number().int().min(1).max(MAX_TRIALS_PER_CELL,
    designMsg.trialsPerCell(MAX_TRIALS_PER_CELL)).describe(
      'trials per model × game × framing cell (with play: matches per model × game × framing × opponent cell)'),
  decoding: decodingSchema.optional().describe('decoding settings of every model (a model\'s own decoding overrides them)'),
  scoring: z.enum(['sample', 'logprobs']).optional().describe('sample: parse the text (default); logprobs: first-token probabilities (docs/methods.md)'),
  prices: pricesSchema.optional().describe('for --dry-run cost estimates'),
  play: playSchema.optional().describe('a repeated game: rounds, opponents, history, horizon (docs/methods.md); trials = matches per cell'),
  stop: stopSchema.optional(),
  probes: z.number().int().min(1).max(MAX_PROBES_PER_CELL).optional()
    .describe(('comprehension probes per model × game × framing, asked before the decisions ("if you choose X and the other player chooses Y, how many ' +
      'points do you get?", the 8 questions in a seeded order per block of 8), stored apart from the decisions (docs/methods.md §18c)')),
});

export type DesignDocument = z.output<typeof designSchema>;

/** The JSON Schema of a design file, for editors (yaml-language-server: $schema=…). */
export function designJsonSchema(): Record<string, unknown> {
  const s = z.toJSONSchema(designSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...s, title: 'samegame design', description: 'A direct-run design: models × games × framings × trials (samegame, docs/architecture.md).' };
}
