import type { FigureStyle } from '../../render/paper-style.js';
import { levels, type CellTable } from '../../core/cells.js';
import { UserError } from '../../core/errors.js';
import { msg } from '../../core/messages/common.js';
import type { Logger } from '../../core/logger.js';
import { regenerateCommand } from '../../core/command-line.js';
import type { TwoFramingSettings } from '../../analyses/two-framing/analysis.js';
import type { VerdictThresholds } from '../../analyses/selective/estimand.js';
import { TWO_FRAMING_DEFAULTS as DEFAULTS } from '../../analyses/two-framing/index.js';
import type { RoundRange } from '../../core/decisions.js';
import { attenuationOf, sourceOf } from '../../sources/input.js';
import { pipelineMsg } from './messages.js';

/** The options of `analyze` on a trial store (every kind of run), its settings and its regenerate command. */
export interface StoreAnalyzeOptions extends Partial<TwoFramingSettings> {
  readonly store: string;
  /** Output directory; default: beside the store, named after it. */
  readonly out?: string;
  readonly runId?: number;
  /** Reconstructed rates to compare with, side by side. */
  readonly compare?: string;
  readonly modelMap?: Readonly<Record<string, string>>;
  readonly logger?: Logger;
  /** Verdict thresholds of a context-enrichment run (selective robustness); each one not given is DEFAULT_THRESHOLDS'. */
  readonly thresholds?: Partial<VerdictThresholds>;
  /** Published values to compare with (reports/reproduction.csv, check published_values_reproduced). */
  readonly expect?: string;
  /** --verdict-alpha and --published-reps of the comparison with published values. */
  readonly verdictAlpha?: number;
  readonly publishedReps?: number;
  readonly publishedMethod?: 'percentile' | 'bca';
  /** Check the store with the full integrity_check instead of quick_check. */
  readonly verifyStore?: boolean;
  /** Repeated play: the rounds the two-framing tables read (all by default). */
  readonly rounds?: RoundRange;
  /** Repeated play: further decision factors kept in the cells (`--factor persona`). */
  readonly factors?: readonly string[];
  /** Table 3 over games: fixed (default) or random (also reports/table3-random.csv). */
  readonly pooling?: 'fixed' | 'random';
  /** Repeated play: `--names FILE` (display names) and `--players all`. */
  readonly namesFile?: string;
  readonly players?: 'models' | 'all';
  /** `--figure-style paper` (render/paper-style.ts). */
  readonly figureStyle?: FigureStyle;
  /** Comprehension probes: a framing answered less accurately is not shown payoff-equivalent (default 0.9, docs/methods.md §18c). */
  readonly comprehensionThreshold?: number;
  /** `--latex-width`: the text width in pt the .tex tables are laid out for (345 by default). */
  readonly latexWidth?: number;
}

export { defaultAnalyzeOut } from './store-out.js';

/** The planned framing pair and bootstrap settings of a direct run (attenuation defaults to 1: none). */
export function directRunSettings(opts: StoreAnalyzeOptions, table: CellTable, logger: Logger): TwoFramingSettings {
  const framings = levels(table, 'framing');
  const settings: TwoFramingSettings = {
    seed: opts.seed ?? DEFAULTS.seed,
    reps: opts.reps ?? DEFAULTS.reps,
    attenuation: attenuationOf(sourceOf(opts), opts.attenuation),
    base: opts.base ?? (framings.includes(DEFAULTS.base) ? DEFAULTS.base : framings[0]),
    alt: opts.alt ?? (framings.includes(DEFAULTS.alt) ? DEFAULTS.alt : framings[1] ?? framings[0]),
    interval: opts.interval ?? 'percentile',
    ...(opts.clusterInterval ? { clusterInterval: opts.clusterInterval } : {}),
    ...(opts.simultaneous ? { simultaneous: true } : {}),
  };
  if (settings.base === settings.alt) throw new UserError(msg.sameFraming(settings.base));
  if (opts.base === undefined || opts.alt === undefined) logger.info(pipelineMsg.framingPair(settings.base, settings.alt));
  return settings;
}

/**
 * The command line that regenerates an analysis: every flag that changes a result (run, framing
 * pair, attenuation, bootstrap, comparison file and model map; the verdict thresholds of a
 * context-enrichment run). --out only moves the files and is left out.
 */
export function analyzeCommand(store: string, runId: number, s: TwoFramingSettings | { seed: number; reps: number },
  o: { interval?: string; compare?: string; modelMap?: Readonly<Record<string, string>>; thresholds?: VerdictThresholds; expect?: string;
    verdictAlpha?: number; publishedReps?: number; publishedMethod?: string; pooling?: string; names?: string; comprehensionThreshold?: number;
    latexWidth?: number } = {}): string {
  const pair = 'base' in s ? { base: s.base, alt: s.alt, attenuation: s.attenuation } : {};
  const t = o.thresholds;
  return regenerateCommand('analyze', [store], {
    run: runId, ...pair, seed: s.seed, reps: s.reps, interval: 'interval' in s && s.interval === 'bca' ? 'bca' : o.interval,
    simultaneous: 'simultaneous' in s && s.simultaneous === true,
    compare: o.compare, mapModel: o.modelMap, expect: o.expect, verdictAlpha: o.verdictAlpha, publishedReps: o.publishedReps,
      publishedMethod: o.publishedMethod,
    maxSurfaceSensitivity: t?.maxSurface, minWorldResponsiveness: t?.minWorldLo, pooling: o.pooling === 'random' ? 'random' : undefined, names: o.names,
    comprehensionThreshold: o.comprehensionThreshold, latexWidth: o.latexWidth,
  });
}

