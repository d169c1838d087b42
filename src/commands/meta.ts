/**
 * `samegame meta MANIFEST.yaml` / `samegame meta --effects FILE.csv`: a random-effects
 * meta-analysis of framing effects across games, models and studies. Every input error is thrown
 * before anything is written; the outputs are written as one atomic set.
 */
import { join, resolve } from 'node:path';
import type { OutputFile } from '../core/atomic.js';
import { UserError } from '../core/errors.js';
import { metaMsg } from '../core/messages/meta.js';
import type { Logger } from '../core/logger.js';
import { silentLogger } from '../core/logger.js';
import { toolInfo } from '../core/paths.js';
import { regenerateCommand } from '../core/command-line.js';
import { readEffects } from '../sources/effects-csv.js';
import { meta, type EffectRow, type MetaAnalysis, type MetaAnalysisSettings } from '../analyses/meta/index.js';
import { META_DEFAULTS, type MetaTest, type Pooling } from '../stats/meta/univariate.js';
import type { Tau2Method } from '../stats/meta/tau2.js';
import type { EffectMeasure } from '../stats/meta/effect-size.js';
import { firstOutOfRange } from '../stats/meta/scale.js';
import { loadManifest, manifestEffects, type StudySource } from './meta-studies.js';
import { commandsMsg } from './messages.js';
import type { DisplayNames } from '../core/display-names.js';
import { nameTargets, readDisplayNames } from '../sources/names-file.js';
import { NAMED_FIELDS } from '../analyses/meta/named.js';
import type { FigureStyle } from '../render/paper-style.js';
import { latexOf } from './command-options.js';

export interface MetaOptions {
  /** The manifest (YAML); or `effects`. */
  readonly manifest?: string;
  /** An effect-size table (CSV: study, model, game, yi, vi, moderators…). */
  readonly effects?: string;
  readonly out?: string;
  /** Override the manifest's options (the defaults for an effect table). */
  readonly effect?: EffectMeasure;
  readonly tau2?: Tau2Method;
  readonly test?: MetaTest;
  readonly pooling?: Pooling;
  readonly moderators?: readonly string[];
  readonly logger?: Logger;
  /** Display names (id → name of a study, model or game), over the manifest's `names:` block. */
  readonly names?: DisplayNames;
  /**
   * `--names FILE`: display names for the figures, the report and the terminal (the CSVs keep the ids and add the names, meta.json a `names` map), over both.
   */
  readonly namesFile?: string;
  /** `--figure-style paper` (render/paper-style.ts); the default style otherwise. */
  readonly figureStyle?: FigureStyle;
  /** `--latex-width`: the text width in pt the .tex tables are laid out for (345, a one-column article, by default; 240 for a two-column layout's column). */
  readonly latexWidth?: number;
  /** Pool synthetic studies with real ones (`--pool-synthetic`); by default they are pooled apart, their scopes prefixed "synthetic". */
  readonly poolSynthetic?: boolean;
}

/** Synthetic data among the cells: none, all, some kept apart from the real ones (the default), or some pooled with them. */
export type SyntheticMix = 'none' | 'all' | 'kept apart' | 'pooled with real data';

export interface MetaResult {
  readonly analysis: MetaAnalysis;
  readonly sources: readonly StudySource[];
  /** The files the command writes (the tables of reports/; with figures, figures/ and the report), absolute paths. */
  readonly files: readonly OutputFile[];
  readonly command: string;
  readonly input: { readonly path: string; readonly sha256: string; readonly kind: 'manifest' | 'effects' };
  /** The display names in force (empty: none). */
  readonly names: DisplayNames;
  /** Synthetic data among the cells, and what was done with them. */
  readonly synthetic: SyntheticMix;
}

/**
 * The pooling of real and synthetic cells: kept apart unless told (`poolSynthetic`): the real cells
 * are the analysis (overall, models, studies, the three-level model, the regression), and the
 * synthetic ones' pooled rows follow, each scope prefixed "synthetic".
 */
function analyzeApart(effects: readonly EffectRow[], settings: MetaAnalysisSettings, notes: string[], o: Pick<MetaOptions,
  'poolSynthetic'> & { directRuns: boolean }): { analysis: MetaAnalysis; synthetic: SyntheticMix } {
  const synth = effects.filter((r) => r.synthetic);
  const mix: SyntheticMix = synth.length === 0 ? 'none' : synth.length === effects.length ? 'all' : o.poolSynthetic ? 'pooled with real data' : 'kept apart';
  const studies = [...new Set(synth.map((r) => r.study))];
  const said = mix === 'none' ? notes : [...notes, commandsMsg.syntheticStudies(studies, mix)]; // the notes are printed and in meta.json
  const context = { directRuns: o.directRuns };
  if (mix !== 'kept apart') return { analysis: meta.analyze(effects, settings, said, context), synthetic: mix };
  const real = meta.analyze(effects.filter((r) => !r.synthetic), settings, said, context);
  // only the synthetic cells' pooled rows are shown: no meta-regression among them (a moderator may not vary there)
  const sim = meta.analyze(synth, { ...settings, moderators: [] }, []);
  return {
    synthetic: mix,
    analysis: { ...real, effects: [...real.effects, ...sim.effects], pooled: [...real.pooled, ...sim.pooled.map((r) => ({ ...r,
      scope: `synthetic ${r.scope}` }))],
      notes: [...real.notes, ...sim.notes.map((n) => `synthetic: ${n}`)] },
  };
}

function settingsOf(o: MetaOptions, m: { effect?: EffectMeasure; tau2?: Tau2Method; test?: MetaTest; pooling?: Pooling;
  moderators?: readonly string[] } = {}): MetaAnalysisSettings {
  return {
    ...META_DEFAULTS,
    effect: o.effect ?? m.effect ?? 'shift', tau2: o.tau2 ?? m.tau2 ?? META_DEFAULTS.tau2, test: o.test ?? m.test ?? META_DEFAULTS.test,
    pooling: o.pooling ?? m.pooling ?? META_DEFAULTS.pooling, moderators: o.moderators ?? m.moderators ?? [],
  };
}

/**
 * Moderators given as flags must name a column of the effects (study, model, game, or a moderator
 * every row has as its own column: never a property of Object's prototype) and vary across them.
 */
function checkFlagModerators(names: readonly string[] | undefined, rows: readonly EffectRow[], where: (name: string, what: string) => string): void {
  const columns = [...meta.rowModerators, ...new Set(rows.flatMap((r) => Object.keys(r.moderators)))];
  for (const n of names ?? []) {
    const own = (meta.rowModerators as readonly string[]).includes(n) || (rows.length > 0 && rows.every((r) => Object.hasOwn(r.moderators, n)));
    if (!own) throw new UserError(where(n, commandsMsg.moderatorNoColumn(n, columns)));
    const problem = meta.moderatorProblem(rows, n);
    if (problem) throw new UserError(where(n, problem));
  }
}

function fromManifest(o: MetaOptions & { manifest: string }) {
  const { manifest, loc, sha256 } = loadManifest(o.manifest);
  const settings = settingsOf(o, manifest);
  const read = manifestEffects(manifest, o.manifest, loc, settings.effect);
  checkFlagModerators(o.moderators, read.effects, (n, what) => `--moderator ${n}: ${what}`);
  const names = manifest.names ? { source: manifest.names, sourceBlock: commandsMsg.manifestNames(o.manifest) } : {};
  return { settings, ...read, names, input: { path: o.manifest, sha256, kind: 'manifest' as const }, poolSynthetic: manifest.pool_synthetic };
}

function fromEffects(o: MetaOptions & { effects: string }) {
  const t = readEffects(resolve(o.effects), o.effects);
  const effects: EffectRow[] = t.rows.map((r) => ({ study: r.study, model: r.model, game: r.game, yi: r.yi, vi: r.vi, n_base: r.n_base, n_alt: r.n_alt,
    moderators: r.moderators, ...(r.synthetic ? { synthetic: true } : {}) }));
  const far = firstOutOfRange(Float64Array.from(effects, (r) => r.yi), Float64Array.from(effects, (r) => r.vi));
  if (far) throw new UserError(metaMsg.effectsColumn(o.effects, t.rows[far.index].line, far.reason.startsWith('yi') ? 'yi' : 'vi', far.reason));
  checkFlagModerators(o.moderators, effects, (n, what) => metaMsg.effectsColumn(o.effects, 1, n, what));
  return { settings: settingsOf(o), effects, sources: [] as StudySource[], notes: [] as string[], input: { path: o.effects, sha256: t.sha256,
    kind: 'effects' as const },
    poolSynthetic: undefined };
}

/** The command line that regenerates the outputs. */
function metaCommand(o: MetaOptions): string {
  return regenerateCommand('meta', o.manifest ? [o.manifest] : [], {
    effects: o.effects, effect: o.effect, tau2: o.tau2, test: o.test, pooling: o.pooling, moderator: o.moderators ? [...o.moderators] : undefined,
      names: o.namesFile, poolSynthetic: o.poolSynthetic === true, latexWidth: o.latexWidth,
  });
}

/** Read and pool; the tables of reports/ as values (nothing is written here: the pipeline writes, pipeline/write.ts). */
export function runMeta(o: MetaOptions): MetaResult {
  if (o.manifest !== undefined && o.effects !== undefined) throw new UserError(commandsMsg.effectsFlagWithManifest());
  const got = o.manifest !== undefined ? fromManifest({ ...o, manifest: o.manifest })
    : o.effects !== undefined ? fromEffects({ ...o, effects: o.effects }) : undefined;
  if (!got) throw new UserError(commandsMsg.needInput());
  if (got.effects.length === 0) throw new UserError(commandsMsg.noEffects(got.input.path));
  const logger = o.logger ?? silentLogger;
  const names = readDisplayNames({ ...('names' in got ? got.names : {}), given: o.names, file: o.namesFile, warn: (m) => logger.warn(m),
    targets: nameTargets(got.effects, NAMED_FIELDS, (r, f) => r[f as typeof NAMED_FIELDS[number]]) });
  logger.info(`pooling ${got.effects.length} cells from ${new Set(got.effects.map((r) => r.study)).size} studies`);
  // Every study a direct run (a store, or trial logs): the small-study tests do not apply.
  const directRuns = got.sources.length > 0 && got.sources.every((s) => s.kind === 'store' || s.kind === 'trials');
  const { analysis, synthetic } = analyzeApart(got.effects, got.settings, got.notes, { poolSynthetic: o.poolSynthetic ?? got.poolSynthetic, directRuns });
  const command = metaCommand(o);
  const reports = join(resolve(o.out ?? '.'), 'reports');
  const sources = got.sources.map((s) => ({ ...s }));
  const input = { ...got.input, ...(synthetic !== 'none' ? { synthetic } : {}) };
  const files = meta.files(reports, analysis, { input, sources, tool: toolInfo(), command }, names, latexOf(o));
  return { analysis, sources: got.sources, files, command, input: got.input, names, synthetic };
}
