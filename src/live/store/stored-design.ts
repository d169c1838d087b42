/**
 * The design a run was made from, as the store keeps it (runs.design_json: the resolved design of
 * src/live/design/types.ts as JSON, written when the run is opened), read in one place: the run
 * kind, an analysis's cell order and facts, the scoring, a repeated run's matches and payoffs and
 * a batch run's models all read it through storedDesign.
 *
 * A StoredDesign is the part of `Design` these readers read, every field optional: a store's run
 * may predate a field, and a field is read only where the run uses it. A field that is present has
 * its type; a document that is not a JSON object, or a field of another shape, is a store samegame
 * could not have written (StoreFault: one line naming the field, integrity.ts). A reader that goes on
 * without the design (the facts of an analysis, the run kind) says so where it reads it (readableDesign).
 */
import type { Design, DesignModel, EnrichmentCondition, EnrichmentFormat, EnrichmentSpec } from '../design/types.js';
import type { Framing } from '../prompts/index.js';
import type { PlaySpec } from '../repeated/types.js';
import type { Game } from '../types.js';
import { StoreFault } from './integrity.js';

type Some<T, K extends keyof T> = { readonly [P in K]?: T[P] };

/** A model as stored: its id, provider, model name, base URL (without credentials) and key variable. */
export type StoredModel = Some<DesignModel, 'id' | 'provider' | 'model' | 'baseUrl' | 'apiKeyEnv'>;
/** A game as resolved (id, name, payoffs), or its id alone (a canonical game). */
export type StoredGame = string | Some<Game, 'id' | 'name' | 'payoffs'>;
/** A framing as resolved (its id), or its id alone. */
export type StoredFraming = string | Some<Framing, 'id'>;
/** The context-enrichment block: what the selective analysis reads back (scenario, actions, conditions, direction, formats). */
export interface StoredEnrichment extends Some<EnrichmentSpec, 'kind' | 'scenario' | 'actions' | 'publishedReference'> {
  readonly conditions?: readonly Some<EnrichmentCondition, 'id' | 'function'>[];
  readonly direction?: Some<EnrichmentSpec['direction'], 'higher' | 'lower'>;
  readonly formats?: readonly Some<EnrichmentFormat, 'id'>[];
}

/** What a run stored of its design (the fields of `Design` its readers read). */
export interface StoredDesign extends Some<Design, 'name' | 'synthetic' | 'names' | 'trials' | 'scoring'> {
  readonly models?: readonly StoredModel[];
  readonly games?: readonly StoredGame[];
  readonly framings?: readonly StoredFraming[];
  readonly enrichment?: StoredEnrichment;
  /** The play block of a repeated game, as resolved (repeatedDesign checks what the repeated reader needs). */
  readonly play?: Partial<PlaySpec>;
}

/** What is wrong with a value at a path (`models[0].id is not a string`), or undefined. */
type Check = (v: unknown, at: string) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const kind = (what: string, ok: (v: unknown) => boolean): Check => (v, at) => (ok(v) ? undefined : `${at} is not ${what}`);
const text = kind('a string', (v) => typeof v === 'string');
const integer = kind('an integer', (v) => Number.isInteger(v));
const flag = kind('true or false', (v) => typeof v === 'boolean');
const list = (item: Check): Check => (v, at) => {
  if (!Array.isArray(v)) return `${at} is not a list`;
  for (const [i, x] of v.entries()) { const bad = item(x, `${at}[${i}]`); if (bad) return bad; }
  return undefined;
};
/** An object whose listed fields, where present, pass their checks. */
const fields = (shape: Readonly<Record<string, Check>>): Check => (v, at) => {
  if (!isObject(v)) return `${at} is not an object`;
  for (const [k, check] of Object.entries(shape)) {
    const bad = v[k] === undefined ? undefined : check(v[k], at === '' ? k : `${at}.${k}`);
    if (bad) return bad;
  }
  return undefined;
};
const textOr = (shape: Readonly<Record<string, Check>>): Check => (v, at) => (typeof v === 'string' ? undefined : fields(shape)(v, at));
const texts = (v: unknown, at: string) => (isObject(v) ? list(text)(Object.values(v), at) : `${at} is not an object`);
const pair = (item: Check): Check => (v, at) => (Array.isArray(v) && v.length === 2 ? list(item)(v, at) : `${at} is not a pair`);
/** A 2×2 payoff matrix: payoffs[row][column] = [row player, column player]. */
const payoffs = fields({ C: fields({ C: pair(kind('a number', Number.isFinite)), D: pair(kind('a number', Number.isFinite)) }),
  D: fields({ C: pair(kind('a number', Number.isFinite)), D: pair(kind('a number', Number.isFinite)) }) });

const DESIGN = fields({
  name: text, synthetic: flag, names: texts, trials: integer, scoring: text,
  models: list(fields({ id: text, provider: text, model: text, baseUrl: text, apiKeyEnv: text })),
  games: list(textOr({ id: text, name: text, payoffs })),
  framings: list(textOr({ id: text })),
  enrichment: fields({
    kind: text, scenario: text, actions: pair(text), publishedReference: text,
    conditions: list(fields({ id: text, function: text })), direction: fields({ higher: text, lower: text }), formats: list(fields({ id: text })),
  }),
  play: fields({ rounds: integer, opponents: list(fields({ kind: text })) }),
});

/** The document last read, and what it read as: the readers of one run (its kind, facts, scoring) parse it once. */
let last: { readonly json: string; readonly read: StoredDesign | StoreFault } | undefined;

function readDesign(json: string): StoredDesign | StoreFault {
  let doc: unknown;
  try { doc = JSON.parse(json); } catch { return new StoreFault('the run\'s design is not JSON'); }
  if (!isObject(doc)) return new StoreFault('the run\'s design is not a JSON object');
  const bad = DESIGN(doc, '');
  return bad ? new StoreFault(`the run's design: ${bad}`) : doc as StoredDesign;
}

/** The run's design as stored, checked; a store samegame could not have written throws StoreFault naming what is wrong. */
export function storedDesign(run: { readonly designJson: string }): StoredDesign {
  if (last === undefined || last.json !== run.designJson) last = { json: run.designJson, read: readDesign(run.designJson) };
  if (last.read instanceof StoreFault) throw last.read;
  return last.read;
}

/** The run's design as stored, or undefined where it is not one samegame wrote: for a reader that goes on without it. */
export function readableDesign(run: { readonly designJson: string }): StoredDesign | undefined {
  try {
    return storedDesign(run);
  } catch (e) {
    if (e instanceof StoreFault) return undefined;
    throw e;
  }
}

/**
 * A repeated run's design: a play block with its rounds and opponents, and the models, games (as
 * resolved), framings and matches per cell its matches are planned from; StoreFault otherwise.
 */
export function repeatedDesign(d: StoredDesign): Design {
  if (!Number.isInteger(d.play?.rounds)) throw new StoreFault('the run\'s design has no play block with its rounds');
  const missing = [['play.opponents', d.play?.opponents], ['models', d.models], ['games', d.games], ['framings', d.framings], ['trials', d.trials]]
    .find(([, v]) => v === undefined)?.[0];
  if (missing !== undefined) throw new StoreFault(`the run's design has no ${String(missing)}`);
  if (d.games!.some((g) => typeof g === 'string' || g.payoffs === undefined)) throw new StoreFault('the run\'s design names a game without its payoffs');
  return d as Design;
}
