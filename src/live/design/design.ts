/**
 * Designs: read a design YAML, validate it (errors name the file, the line, the path in the
 * document and what was expected), resolve games and framings, and expand it into the trials a
 * run performs, in a fixed order (model, game, framing, rep).
 */
import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { readRegular } from '../../core/input-file.js';
import { framingTemplates, framingWarnings, resolveFraming } from './framings.js';
import { UserError } from '../../core/errors.js';
import { canonicalGame, payoffProblems, samePayoffs } from '../../core/games.js';
import { designSchema, MAX_TRIALS_TOTAL, type DesignDocument } from './schema.js';
import { labelPairProblem, renderFraming } from '../prompts/index.js';
import { simulatedOptionsSchema } from '../providers/simulated.js';
import type { TrialSpec } from '../types.js';
import { parseEnrichment } from './enrichment.js';
import { enrichmentWarnings } from './enrichment-formats.js';
import type { Design, DesignPrices } from './types.js';
import { idProblems, lineOf, problems, type Path, type Problem } from './problems.js';
import { unusedNames, type NameTargets } from '../../core/display-names.js';
import { msg } from '../../core/messages/common.js';
import { parseYamlMapping, problemLine, throwProblems } from '../../core/doc-problems.js';
import { modelSpec, resolveModels } from './models.js';
export type { Design, DesignModel, DesignPrices } from './types.js';
export { formatPath, idProblems, lineOf, problems, type Path, type Problem } from './problems.js';
export { modelSpec, resolveModels } from './models.js';
import { expandEnrichment } from './enrichment-render.js';
import { enrichmentPromptProblems, promptSizeProblems } from './prompt-size.js';
export { MAX_PROMPT_CHARS } from './prompt-size.js';
import { playProblems, resolvePlay, templateProblems } from './play.js';
import { capabilityProblems } from './capabilities.js';
import { designMsg } from './messages.js';
import { kindProblem } from './kind.js';
import { resolveStop, stopProblems } from './stop.js';


/** Cross-field rules the schema cannot express. */
function crossChecks(d: DesignDocument): Problem[] {
  const out: Problem[] = [];
  const unique = (kind: string, ids: string[], path: (i: number) => Path) => out.push(...idProblems(kind, ids, path));
  unique('model', d.models.map((m) => m.id), (i) => ['models', i, 'id']);
  unique('game', d.games.map((g) => (typeof g === 'string' ? g : g.id)), (i) => typeof d.games[i] === 'string' ? ['games', i] : ['games', i, 'id']);
  unique('framing', d.framings.map((f) => (typeof f === 'string' ? f : f.id)), (i) => typeof d.framings[i] === 'string' ? ['framings', i] : ['framings', i,
    'id']);
  d.games.forEach((g, i) => {
    if (typeof g === 'string') return;
    for (const [p, what] of payoffProblems(g.payoffs)) out.push({ path: ['games', i, 'payoffs', ...(p === '' ? [] : p.split('.'))], message: what });
    const canon = canonicalGame(g.id);
    if (canon && !samePayoffs(canon.payoffs, g.payoffs)) out.push({ path: ['games', i, 'id'], message: designMsg.gameIdClash(g.id) });
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
      if (!framingIds.includes(k)) out.push({ path: ['models', i, 'options', 'bias', k], message: designMsg.unknownBiasKey('framing', k, framingIds) });
    }
    for (const k of Object.keys(r.data.rates)) {
      const [g, f, more] = k.split('/');
      const bad = more !== undefined || !gameIds.includes(g) || !framingIds.includes(f);
      if (bad) out.push({ path: ['models', i, 'options', 'rates', k], message: designMsg.unknownRateKey(k) });
    }
    for (const k of Object.keys(r.data.game_bias)) {
      if (!gameIds.includes(k)) out.push({ path: ['models', i, 'options', 'game_bias', k], message: designMsg.unknownBiasKey('game', k, gameIds) });
    }
  });
  if (d.play) out.push(...playProblems(d.play, d.models.map((m) => m.id), framingIds), ...templateProblems(d.play));
  if (d.play && d.scoring === 'logprobs') out.push({ path: ['scoring'], message: designMsg.playNeedsSample() });
  out.push(...capabilityProblems(d.models, d.scoring ?? 'sample', d.decoding?.temperature));
  if (d.stop) out.push(...stopProblems(d.stop, d.trials, framingIds, d.play ? 'repeated' : 'one-shot'));
  const total = d.models.length * d.games.length * d.framings.length * d.trials * playFactor(d);
  if (total > MAX_TRIALS_TOTAL) out.push({ path: ['trials'], message: designMsg.trialsTotal(total, MAX_TRIALS_TOTAL) });
  const probes = d.models.length * d.games.length * d.framings.length * (d.probes ?? 0);
  if (probes > MAX_TRIALS_TOTAL) out.push({ path: ['probes'], message: designMsg.probesTotal(probes, MAX_TRIALS_TOTAL) });
  return out;
}

/** Decisions per model × game × framing × rep of a design: 1, or rounds × (opponents × 2 seats at most) with play. */
function playFactor(d: DesignDocument): number {
  return d.play ? d.play.rounds * d.play.opponents.length * 2 : 1;
}

/** A validated document as a Design: games and framings resolved, decodings merged. */

function resolve(d: DesignDocument, texts: ReadonlyMap<number, string>): Design {
  const scoring = d.scoring ?? 'sample';
  return {
    name: d.name,
    ...(d.description === undefined ? {} : { description: d.description }),
    synthetic: d.synthetic ?? false,
    ...(d.names === undefined ? {} : { names: d.names }),
    models: resolveModels(d, scoring),
    games: d.games.map((g) => typeof g === 'string'
      ? canonicalGame(g)!
      : { id: g.id, name: g.name ?? g.id, payoffs: g.payoffs }),
    framings: d.framings.map((f, i) => resolveFraming(f, texts.get(i))),
    trials: d.trials,
    scoring,
    ...(d.play ? { play: resolvePlay(d.play) } : {}),
    ...(d.stop ? { stop: resolveStop(d.stop, d.trials, d.framings.map((f) => (typeof f === 'string' ? f : f.id))) } : {}),
    ...(d.probes === undefined ? {} : { probes: d.probes }),
  };
}

/** Validate a design from its YAML text; `file` names it in errors. */
export function parseDesign(text: string, file: string): Design {
  const { doc, lc, data } = parseYamlMapping(text, (line, detail) => designMsg.designYamlSyntax(file, line, detail), () => designMsg.designNotMapping(file));
  const field = (line: number | undefined, path: string, message: string) => designMsg.designField(file, line, path, message);
  const wrongKind = kindProblem(data as Record<string, unknown>);
  if (wrongKind !== undefined) throwProblems([wrongKind], doc, lc, field);
  if ('kind' in data) {
    const { design: e, undecided } = parseEnrichment(data, doc, lc, file);
    const formats = (data as unknown as { formats: Parameters<typeof templatePlace>[3][] }).formats;
    throwProblems(enrichmentPromptProblems(e.enrichment!, formats as { template?: string }[]), doc, lc, field);
    storyWarnings.set(e, enrichmentWarnings(e.enrichment!, (i, line) => templatePlace(doc, lc, file, formats[i], line, ['formats', i]), undecided));
    return e;
  }
  const r = designSchema.safeParse(data);
  const templates = r.success ? framingTemplates(r.data.framings, file) : { texts: new Map<number, string>(), problems: [], undecided: new Map() };
  const found = r.success ? [...templates.problems, ...crossChecks(r.data)] : problems(r.error.issues);
  throwProblems(found, doc, lc, field);
  const design = resolve(r.data!, templates.texts);
  throwProblems(promptSizeProblems(design, r.data!), doc, lc, field);
  const at = (i: number, line: number) => templatePlace(doc, lc, file, r.data!.framings[i], line, ['framings', i]);
  storyWarnings.set(design, framingWarnings(design.framings, design.games, at, templates.undecided));
  const unused = unusedNames(Object.keys(design.names ?? {}), designTargets(design));
  if (unused.length > 0) {
    const where = (id: string) => { const line = lineOf(doc, lc, ['names', id]); return line === undefined ? file : `${file}:${line}`; };
    namesWarnings.set(design, unused.map(({ id, nearest }) => msg.unusedName(where(id), id, nearest, designTargets(design), 'this design')));
  }
  return design;
}

/**
 * Where line `line` of the template of the entry at `path` (a framing or a format) stands, as a
 * warning's prefix: the design file and the line (inside an inline block, the line itself; else
 * the field's), and a template file's name.
 */
function templatePlace(doc: Parameters<typeof problemLine>[0], lc: Parameters<typeof problemLine>[1], file: string,
  entry: string | { readonly template_file?: string }, line: number, path: Path): string {
  const fromFile = typeof entry !== 'string' && entry.template_file !== undefined ? entry.template_file : undefined;
  const at = problemLine(doc, lc, { path: [...path, fromFile === undefined ? 'template' : 'template_file'], message: '', valueLine: line });
  return `${at === undefined ? file : `${file}:${at}`}: ${fromFile === undefined ? '' : `${fromFile}: `}`;
}

/** The warnings of a design's stories (payoff rule, number rule), found once when it is read (parseDesign), for designWarnings. */
const storyWarnings = new WeakMap<Design, readonly string[]>();

/** The warnings of a design's `names:` block found where its lines are known (parseDesign), for designWarnings. */
const namesWarnings = new WeakMap<Design, readonly string[]>();

/** The ids a design's display names can name: its models, games, framings and (repeated play) the opponents its matches record. */
function designTargets(d: Design): NameTargets {
  const opponents = d.play ? d.models.flatMap((m) => d.play!.opponents.map((o) => (o.kind === 'self' ? m.id : o.id))) : [];
  return { model: d.models.map((m) => m.id), game: d.games.map((g) => g.id), framing: d.framings.map((f) => f.id), opponent: [...new Set(opponents)] };
}

/**
 * Warnings of a design, printed before a run, a dry run or a prompt review: clauses holding a
 * payoff that the payoff rule cannot decide and numbers written in a story (docs/methods.md §18b);
 * an id of its `names:` block that names nothing in the design (file and line, the nearest id).
 */
export function designWarnings(design: Design): string[] {
  // a design built without parseDesign (the library) has no places: its warnings name the framing alone
  const stories = storyWarnings.get(design)
    ?? (design.enrichment ? enrichmentWarnings(design.enrichment) : framingWarnings(design.framings, design.games));
  return [...stories, ...(namesWarnings.get(design) ?? [])];
}

/** A design file is at most 8 MiB (its templates 1 MiB each): checked before it is read. */
export const MAX_DESIGN_BYTES = 8 * 2 ** 20;

/**
 * Read and validate a design file. Throws UserError naming the file, line, path and problem; a
 * file that is not a regular file (a FIFO, /dev/zero) is refused before it is read (core/input-file.ts).
 */
export function loadDesign(path: string): Design {
  const r = readRegular(path, MAX_DESIGN_BYTES);
  if ('size' in r) throw new UserError(designMsg.designTooLarge(path, r.size, MAX_DESIGN_BYTES));
  if ('reason' in r) throw new UserError(designMsg.designUnreadable(path, r.reason));
  if (!isUtf8(r.bytes)) throw new UserError(designMsg.designNotUtf8(path));
  return parseDesign(r.bytes.toString('utf8'), path);
}

/**
 * Every trial of a design, in the order model, game, framing, rep (reps 0 … trials−1). Each
 * (game, framing) is rendered once; the reps of a cell share the prompt and differ by index.
 */
export function expandDesign(design: Design): TrialSpec[] {
  if (design.enrichment) return expandEnrichment(design, design.enrichment);
  if (design.play) return []; // a repeated game's prompts depend on the rounds played (src/live/repeated/)
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
