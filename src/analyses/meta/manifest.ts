/**
 * The manifest of a meta-analysis (YAML): the studies, each one source as the other commands read
 * it and its planned contrast, and the pooling options. Cross-field rules (one source per study,
 * options of its kind, unique ids, moderators that name a column) are checked here after the
 * schema, so the schema stays representable as JSON Schema (data/meta/manifest.schema.json).
 */
import { z } from 'zod';
import { formatPath, lineOf, parseYamlMapping, zodProblems, type Problem } from '../../core/doc-problems.js';
import { UserError } from '../../core/errors.js';
import { MIN_ATTENUATION } from '../../core/attenuation.js';
import { nameSchema } from '../../core/names-rule.js';
import { metaMsg } from '../../core/messages/meta.js';
import { TAU2_METHODS, type Tau2Method } from '../../stats/meta/tau2.js';
import { EFFECT_MEASURES, type EffectMeasure } from '../../stats/meta/effect-size.js';
import { ROW_MODERATORS } from './design.js';
import { displayNamesSchema } from '../../core/display-names.js';
import { analysesMetaMsg } from './messages.js';

export const MANIFEST_SCHEMA_FILE = 'data/meta/manifest.schema.json';

/** The source kinds of a study and the options that belong to each. */
export const STUDY_SOURCES = {
  data: [],
  trials: ['format', 'rounds', 'cluster', 'factors'],
  store: ['run'],
  digitized: ['layout', 'pixel_error'],
} as const satisfies Readonly<Record<string, readonly string[]>>;
export type StudySourceKind = keyof typeof STUDY_SOURCES;
export const STUDY_SOURCE_KINDS = Object.keys(STUDY_SOURCES) as StudySourceKind[];

const file = z.string().min(1).describe('a path, relative to the manifest');
const name = nameSchema(); // the readers' name rule (core/names-rule.ts): no control character, at most 256 characters

const studySchema = z.strictObject({
  id: name.describe('the study\'s name in the outputs'),
  description: z.string().optional(),
  data: file.optional().describe('a rates CSV (model, game, framing, n, rate|cooperate), as --data'),
  trials: z.union([file, z.array(file).min(1)]).optional().describe('per-trial CSV or JSONL, or published logs with format, as --trials'),
  format: z.string().min(1).optional().describe('trials: the log format (a built-in name or a description file), as --format'),
  rounds: z.union([z.string().min(1), z.number().int().min(1)]).optional().describe('trials with format: rounds to keep (1, "1-3"), as --rounds'),
  cluster: z.string().min(1).optional().describe('trials: the column grouping dependent decisions, as --cluster'),
  factors: z.array(z.string().min(1)).optional().describe('trials: further columns kept as factors (folded into the game), as --factor'),
  store: file.optional().describe('a trial store of samegame run (.sqlite)'),
  run: z.number().int().min(1).optional().describe('store: the run id (default: the latest run)'),
  digitized: file.optional().describe('a WebPlotDigitizer project (.tar or wpd.json), with layout, as --digitized'),
  layout: file.optional().describe('digitized: the layout CSV (dataset,point,model,game,framing,n), as --layout'),
  pixel_error: z.number().min(0).max(100).optional().describe('digitized: the pixel error of a click (default 1), as --pixel-error'),
  base: name.describe('the base framing of the planned contrast'),
  alt: name.describe('the alternative framing: effects are alt over base'),
  attenuation: z.number().min(MIN_ATTENUATION).max(1).optional()
    .describe('conservative transform: effects × a, variances × a² (default as reproduce: 0.70 for data and digitized, 1 for trials and store)'),
  moderators: z.record(nameSchema(), z.union([nameSchema(0), z.number(), z.boolean()])).optional()
    .describe('moderator values of the study, e.g. { framing_kind: relational, source: reconstructed }'),
  synthetic: z.boolean().optional().describe('the study\'s data are simulated (shown in the outputs)'),
});

export const manifestSchema = z.strictObject({
  name: z.string().min(1).optional(),
  description: z.string().optional(),
  effect: z.enum(EFFECT_MEASURES as [EffectMeasure,
    ...EffectMeasure[]]).optional().describe('shift (p_alt − p_base, default), logor (log odds ratio) or distance (Jensen–Shannon distance √(1 − R2))'),
  tau2: z.enum(TAU2_METHODS as [Tau2Method, ...Tau2Method[]]).optional().describe('the τ² estimator (default REML)'),
  test: z.enum(['adhoc', 'knha', 'z']).optional()
    .describe('Hartung–Knapp t intervals with the variance factor max(1, s²) (adhoc, default), Hartung–Knapp as published (knha), or Wald z'),
  pooling: z.enum(['random', 'fixed']).optional().describe('random effects (default) or fixed effect'),
  moderators: z.array(z.string().min(1)).optional().describe('moderators of the meta-regression: study, model, game or a study moderator'),
  pool_synthetic: z.boolean().optional()
    .describe('pool synthetic studies (simulated models) with the real ones, as --pool-synthetic; by default they are pooled apart, as "synthetic …" scopes'),
  names: displayNamesSchema().optional()
    .describe(('display names: id → the name to show for a study, model or game in the figures, the report and the terminal (CSV and JSON keep the ids and ' +
      'add the names; --names FILE overrides); an id that names nothing in the studies is a warning (with its nearest id), not an error')),
  studies: z.array(studySchema).min(1).describe('the studies, each one source and its planned contrast'),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type StudySpec = Manifest['studies'][number];

/** The JSON Schema of a manifest (data/meta/manifest.schema.json). */
export function manifestJsonSchema(): Record<string, unknown> {
  const s = z.toJSONSchema(manifestSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...s, title: 'samegame meta-analysis manifest',
    description: 'Studies to pool with samegame meta: each one source and its planned contrast (README "Pool studies").' };
}

/** The source kind of a study and its problems: exactly one source, options of that kind. */
function studyProblems(s: StudySpec, i: number): Problem[] {
  const kinds = STUDY_SOURCE_KINDS.filter((k) => s[k] !== undefined);
  if (kinds.length === 0) return [{ path: ['studies', i], message: analysesMetaMsg.noSource(STUDY_SOURCE_KINDS) }];
  if (kinds.length > 1) return [{ path: ['studies', i, kinds[1]], message: analysesMetaMsg.twoSources(kinds[0], kinds[1]) }];
  const out: Problem[] = [];
  for (const [kind, options] of Object.entries(STUDY_SOURCES)) {
    if (kind === kinds[0]) continue;
    for (const o of options) if (s[o as keyof StudySpec] !== undefined) out.push({ path: ['studies', i, o], message: analysesMetaMsg.sourceOption(o, kind) });
  }
  if (kinds[0] === 'digitized' && s.layout === undefined) out.push({ path: ['studies', i, 'layout'],
    message: 'required field is missing (a digitized study needs its layout CSV)' });
  if (s.base === s.alt) out.push({ path: ['studies', i, 'alt'], message: analysesMetaMsg.sameFraming(s.base) });
  return out;
}

/** Problems of a schema-valid manifest that the schema cannot express (empty: usable). */
export function manifestProblems(m: Manifest, lineAt: (path: Problem['path']) => number | undefined): Problem[] {
  const out = m.studies.flatMap(studyProblems);
  const ids = new Map<string, number>();
  m.studies.forEach((s, i) => {
    const first = ids.get(s.id);
    if (first !== undefined) out.push({ path: ['studies', i, 'id'], message: analysesMetaMsg.duplicateStudy(s.id, lineAt(['studies', first, 'id'])) });
    else ids.set(s.id, i);
  });
  (m.moderators ?? []).forEach((name, j) => {
    if ((ROW_MODERATORS as readonly string[]).includes(name)) return;
    const lacking = m.studies.find((s) => !s.moderators || !Object.hasOwn(s.moderators, name));
    if (lacking) out.push({ path: ['moderators', j], message: analysesMetaMsg.moderatorMissing(name, lacking.id) });
    else if (new Set(m.studies.map((s) => String(s.moderators![name]).trim())).size === 1) {
      out.push({ path: ['moderators', j], message: analysesMetaMsg.moderatorConstant(name, String(m.studies[0].moderators![name])) });
    }
  });
  return out;
}

/** Unknown fields of a study name the source kinds, the usual slip (`csv:` for `data:`). */
function explainUnknown(p: Problem): Problem {
  if (p.path.length === 3 && p.path[0] === 'studies' && p.message.startsWith('unknown field')) {
    return { ...p, message: `unknown field: not a source kind (${STUDY_SOURCE_KINDS.join(', ')}) nor a study option (see ${MANIFEST_SCHEMA_FILE})` };
  }
  return p;
}

/**
 * A study moderator named __proto__, found in the YAML as read: the schema's record assigns its keys,
 * and that one would set the record's prototype, so the moderator would vanish unseen.
 */
function protoModerators(data: unknown): Problem[] {
  const studies = (data as { studies?: unknown }).studies;
  if (!Array.isArray(studies)) return [];
  return studies.flatMap((s: unknown, i) => {
    const mods = (s as { moderators?: unknown } | null)?.moderators;
    return mods !== null && typeof mods === 'object' && Object.hasOwn(mods, '__proto__')
      ? [{ path: ['studies', i, 'moderators', '__proto__'], message: analysesMetaMsg.protoModerator() }] : [];
  });
}

/** Validate a manifest from its YAML text; the first problem ends it with one line naming file, line and field. */
export function parseManifest(text: string, file: string): { manifest: Manifest; lineAt: (path: Problem['path']) => number | undefined } {
  const { doc, lc, data } = parseYamlMapping(text, (line, detail) => analysesMetaMsg.manifestSyntax(file, line, detail),
    () => analysesMetaMsg.manifestNotMapping(file));
  const lineAt = (path: Problem['path']) => lineOf(doc, lc, path);
  const r = manifestSchema.safeParse(data);
  const schemaFound = r.success ? manifestProblems(r.data, lineAt) : zodProblems(r.error.issues, MANIFEST_SCHEMA_FILE).map(explainUnknown);
  const found = [...protoModerators(data), ...schemaFound];
  if (found.length > 0) {
    const p = found[0];
    throw new UserError(metaMsg.manifestField(file, lineAt(p.path), formatPath(p.path), p.message));
  }
  return { manifest: r.data!, lineAt };
}
