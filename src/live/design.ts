/**
 * Designs: read a design YAML, validate it (errors name the file, the line, the path in the
 * document and what was expected), resolve games and framings, and expand it into the trials a
 * run performs, in a fixed order (model, game, framing, rep).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import type { z } from 'zod';
import { UserError } from '../log/errors.js';
import { liveMsg } from '../log/messages-live.js';
import { canonicalGame, payoffProblems, samePayoffs } from './games.js';
import { RESERVED_LEVELS } from '../estimands/names.js';
import { designSchema, type DesignDocument } from './design-schema.js';
import { labelPairProblem, promptFamily, renderFraming, type Framing, type LabelPair } from './prompts/index.js';
import { simulatedOptionsSchema } from './providers/simulated.js';
import type { Decoding, Game, ModelSpec, Scoring, TrialSpec } from './types.js';
import { parseEnrichment, type EnrichmentSpec } from './enrichment.js';
import { expandEnrichment } from './enrichment-render.js';

export interface DesignPrices {
  /** US dollars per 1M input tokens. */
  readonly input: number;
  /** US dollars per 1M output tokens. */
  readonly output: number;
}

/** A model of a design: its spec, its decoding (design decoding merged with its own) and prices. */
export interface DesignModel extends ModelSpec {
  readonly decoding: Decoding;
  readonly prices?: DesignPrices;
}

/** A validated, resolved design. */
export interface Design {
  readonly name: string;
  readonly description?: string;
  /** True when the design's data are synthetic (simulated models): outputs must say so. */
  readonly synthetic: boolean;
  readonly models: readonly DesignModel[];
  readonly games: readonly Game[];
  readonly framings: readonly Framing[];
  /** Trials per model × game × framing cell. */
  readonly trials: number;
  readonly scoring: Scoring;
  /** Present for `kind: context-enrichment` designs (src/live/enrichment.ts): conditions × worlds × formats. */
  readonly enrichment?: EnrichmentSpec;
}

export type Path = ReadonlyArray<PropertyKey>;
export interface Problem { path: Path; message: string }

/** `models[1].options.bias["a b"]` from ['models', 1, 'options', 'bias', 'a b']. */
export function formatPath(path: Path): string {
  let s = '';
  for (const k of path) {
    if (typeof k === 'number') s += `[${k}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(String(k))) s += s === '' ? String(k) : `.${String(k)}`;
    else s += `[${JSON.stringify(String(k))}]`;
  }
  return s;
}

/**
 * Zod issues as problems at document paths. A union (a game given by id or as a matrix) reports
 * the branch whose type matched the input, so `games[2].payoffs.C.D` is named, not "invalid input".
 */
export function problems(issues: readonly z.core.$ZodIssue[], base: Path = []): Problem[] {
  const out: Problem[] = [];
  for (const i of issues) {
    const path = [...base, ...i.path];
    if (i.code === 'invalid_union' && i.errors.length > 0) {
      const typed = i.errors.filter((b) => !b.some((e) => e.path.length === 0 && e.code === 'invalid_type'));
      const branch = typed.length > 0 ? typed[typed.length - 1] : i.errors[0];
      out.push(...problems(branch, path));
    } else if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) out.push({ path: [...path, k], message: 'unknown field (check the spelling; see data/designs/design.schema.json)' });
    } else if (i.code === 'invalid_type' && /received undefined$/.test(i.message)) {
      out.push({ path, message: `required field is missing (expected ${i.expected === 'tuple' ? 'a pair [row player, column player]' : i.expected})` });
    } else {
      out.push({ path, message: i.message });
    }
  }
  return out;
}

/** The 1-based line of the deepest node on the path that exists in the document. */
export function lineOf(doc: Document, lc: LineCounter, path: Path): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return undefined;
}

/** A problem for every id that repeats an earlier one, naming where it was first given. */
export function idProblems(kind: string, ids: readonly string[], path: (i: number) => Path): Problem[] {
  const out: Problem[] = [];
  // Tables name their pooled rows "Pooled" and per-model rows "All" (src/estimands/names.ts).
  const reserved: readonly string[] = kind === 'model' ? RESERVED_LEVELS.model : kind === 'game' ? RESERVED_LEVELS.game : [];
  ids.forEach((v, i) => { if (reserved.includes(v)) out.push({ path: path(i), message: liveMsg.reservedId(kind, v) }); });
  const first = new Map<string, number>();
  ids.forEach((v, i) => {
    const f = first.get(v);
    if (f === undefined) first.set(v, i);
    else out.push({ path: path(i), message: liveMsg.duplicateId(kind, v, formatPath(path(f))) });
  });
  return out;
}

/** Cross-field rules the schema cannot express. */
function crossChecks(d: DesignDocument): Problem[] {
  const out: Problem[] = [];
  const unique = (kind: string, ids: string[], path: (i: number) => Path) => out.push(...idProblems(kind, ids, path));
  unique('model', d.models.map((m) => m.id), (i) => ['models', i, 'id']);
  unique('game', d.games.map((g) => (typeof g === 'string' ? g : g.id)), (i) => typeof d.games[i] === 'string' ? ['games', i] : ['games', i, 'id']);
  unique('framing', d.framings.map((f) => (typeof f === 'string' ? f : f.id)), (i) => typeof d.framings[i] === 'string' ? ['framings', i] : ['framings', i, 'id']);
  d.games.forEach((g, i) => {
    if (typeof g === 'string') return;
    for (const [p, what] of payoffProblems(g.payoffs)) out.push({ path: ['games', i, 'payoffs', ...(p === '' ? [] : p.split('.'))], message: what });
    const canon = canonicalGame(g.id);
    if (canon && !samePayoffs(canon.payoffs, g.payoffs)) out.push({ path: ['games', i, 'id'], message: liveMsg.gameIdClash(g.id) });
  });
  d.framings.forEach((f, i) => {
    if (typeof f === 'string' || f.labels === undefined) return;
    const why = labelPairProblem(f.labels);
    if (why) out.push({ path: ['framings', i, 'labels'], message: why });
  });
  const framingIds = d.framings.map((f) => (typeof f === 'string' ? f : f.id));
  const gameIds = d.games.map((g) => (typeof g === 'string' ? g : g.id));
  d.models.forEach((m, i) => {
    if (m.provider !== 'simulated') return;
    const r = simulatedOptionsSchema.safeParse(m.options ?? {});
    if (!r.success) { out.push(...problems(r.error.issues, ['models', i, 'options'])); return; }
    for (const k of Object.keys(r.data.bias)) {
      if (!framingIds.includes(k)) out.push({ path: ['models', i, 'options', 'bias', k], message: liveMsg.unknownBiasKey('framing', k, framingIds) });
    }
    for (const k of Object.keys(r.data.game_bias)) {
      if (!gameIds.includes(k)) out.push({ path: ['models', i, 'options', 'game_bias', k], message: liveMsg.unknownBiasKey('game', k, gameIds) });
    }
  });
  return out;
}

const decoding = (d: DesignDocument['decoding']): Decoding => ({
  ...(d?.temperature === undefined ? {} : { temperature: d.temperature }),
  ...(d?.max_tokens === undefined ? {} : { maxTokens: d.max_tokens }),
  ...(d?.seed === undefined ? {} : { seed: d.seed }),
  ...(d?.top_logprobs === undefined ? {} : { topLogprobs: d.top_logprobs }),
  ...(d?.reasoning_effort === undefined ? {} : { reasoningEffort: d.reasoning_effort }),
});

/** A validated document as a Design: games and framings resolved, decodings merged. */
/** The models of a design document: decodings merged (design, then model), prices resolved. */
export function resolveModels(d: Pick<DesignDocument, 'models' | 'decoding' | 'prices'>, scoring: Scoring): DesignModel[] {
  // Logprob scoring reads the top-k alternatives; seed 001 used k = 20, the most providers return.
  const base = { ...(scoring === 'logprobs' ? { topLogprobs: 20 } : {}), ...decoding(d.decoding) };
  return d.models.map((m) => ({
    id: m.id, provider: m.provider, model: m.model ?? m.id,
    ...(m.base_url === undefined ? {} : { baseUrl: m.base_url }),
    ...(m.api_key_env === undefined ? {} : { apiKeyEnv: m.api_key_env }),
    options: m.options ?? {},
    decoding: { ...base, ...decoding(m.decoding) },
    ...(m.prices ?? d.prices ? { prices: m.prices ?? d.prices } : {}),
  }));
}

function resolve(d: DesignDocument): Design {
  const scoring = d.scoring ?? 'sample';
  return {
    name: d.name,
    ...(d.description === undefined ? {} : { description: d.description }),
    synthetic: d.synthetic ?? false,
    models: resolveModels(d, scoring),
    games: d.games.map((g) => typeof g === 'string'
      ? canonicalGame(g)!
      : { id: g.id, name: g.name ?? g.id, payoffs: g.payoffs }),
    framings: d.framings.map((f) => {
      const fam = typeof f === 'string' ? f : f.family;
      const labels = (typeof f === 'string' ? undefined : f.labels) ?? promptFamily(fam)!.defaultLabels;
      return { id: typeof f === 'string' ? f : f.id, family: fam, labels: [labels[0], labels[1]] as LabelPair };
    }),
    trials: d.trials,
    scoring,
  };
}

/** Validate a design from its YAML text; `file` names it in errors. */
export function parseDesign(text: string, file: string): Design {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new UserError(liveMsg.designYamlSyntax(file, e.linePos?.[0]?.line, e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')));
  }
  const data: unknown = doc.toJS();
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UserError(liveMsg.designNotMapping(file));
  if ('kind' in data) return parseEnrichment(data, doc, lc, file);
  const r = designSchema.safeParse(data);
  const found = r.success ? crossChecks(r.data) : problems(r.error.issues);
  if (found.length > 0) {
    const shown = found.slice(0, 8).map((p) => liveMsg.designField(file, lineOf(doc, lc, p.path), formatPath(p.path), p.message));
    if (found.length > shown.length) shown.push(liveMsg.moreProblems(found.length - shown.length));
    throw new UserError(shown.join('\n'));
  }
  return resolve(r.data!);
}

/** Read and validate a design file. Throws UserError naming the file, line, path and problem. */
export function loadDesign(path: string): Design {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UserError(liveMsg.designUnreadable(path, (e as NodeJS.ErrnoException).code ?? String(e)));
  }
  return parseDesign(text, path);
}

/** The ModelSpec part of a design model (what a TrialSpec carries). */
export function modelSpec(m: DesignModel): ModelSpec {
  return {
    id: m.id, provider: m.provider, model: m.model,
    ...(m.baseUrl === undefined ? {} : { baseUrl: m.baseUrl }),
    ...(m.apiKeyEnv === undefined ? {} : { apiKeyEnv: m.apiKeyEnv }),
    options: m.options,
  };
}

/**
 * Every trial of a design, in the order model, game, framing, rep (reps 0 … trials−1). Each
 * (game, framing) is rendered once; the reps of a cell share the prompt and differ by index.
 */
export function expandDesign(design: Design): TrialSpec[] {
  if (design.enrichment) return expandEnrichment(design, design.enrichment);
  const rendered = new Map<string, ReturnType<typeof renderFraming>>();
  for (const g of design.games) for (const f of design.framings) rendered.set(`${g.id}\u0000${f.id}`, renderFraming(f, g));
  const out: TrialSpec[] = [];
  for (const m of design.models) {
    const model = modelSpec(m);
    for (const game of design.games) {
      for (const f of design.framings) {
        const r = rendered.get(`${game.id}\u0000${f.id}`)!;
        for (let rep = 0; rep < design.trials; rep++) {
          out.push({
            model, game: game.id, framing: f.id, rep, factors: {},
            ...(r.system === undefined ? {} : { system: r.system }),
            prompt: r.prompt, labels: r.labels, actionWords: r.actionWords,
            decoding: m.decoding, scoring: design.scoring,
            context: { game, framing: f.id, factors: {} },
          });
        }
      }
    }
  }
  return out;
}

/** JSON with object keys sorted at every level: the same design always gives the same text. */
export function canonicalJson(x: unknown): string {
  if (x === null || typeof x !== 'object') return JSON.stringify(x);
  if (Array.isArray(x)) return `[${x.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const o = x as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/** SHA-256 (hex) of the design's canonical JSON: comments and key order do not change it. */
export function designHash(design: Design): string {
  return createHash('sha256').update(canonicalJson(design)).digest('hex');
}

/** The prices that apply to a model of the design (its own, else the design's), if any. */
export function pricesFor(design: Design, modelId: string): DesignPrices | undefined {
  return design.models.find((m) => m.id === modelId)?.prices;
}
