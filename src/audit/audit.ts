import { join, resolve } from 'node:path';
import { readRates, type RatesInput } from '../io/rates-csv.js';
import { writeFilesAtomic, type OutputFile } from '../io/atomic.js';
import { UserError } from '../log/errors.js';
import { msg } from '../log/messages.js';
import { msgAudit } from '../log/messages-audit.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { packageRoot, SHIPPED_RATES } from '../paths.js';
import { POOLED, stat } from '../estimands/names.js';
import { analyzeTwoFraming, type TwoFramingAnalysis, type TwoFramingSettings } from '../pipeline/two-framing.js';
import { DEFAULTS } from '../pipeline/reproduce.js';
import { checkConsistency, consistencyFlags, type CellConsistency } from './consistency.js';
import { ReplicateState, type HeadlineKind } from './replicate-state.js';
import { readingErrorRanges, type ReadingErrorResult } from './reading-error.js';
import { tippingPoints, type TippingResult } from './tipping.js';
import { attenuationSweep, type SweepRow } from './attenuation.js';
import { influence, type InfluenceResult } from './influence.js';
import { defaultBatches, mcErrorOfQuantile, type McError } from './mc-error.js';
import { degenerateCells, type DegenerateAudit } from './degenerate.js';
import { auditFiles } from './outputs.js';

export const AUDIT_DEFAULTS = {
  ...DEFAULTS,
  /** ±K counts of reading error: about one pixel on a 300-pixel axis when n = 300. */
  readingError: 1,
  /** Replicates for the tipping-point search; the found tables are checked at full replicates. */
  searchReps: 2000,
  /** Monte Carlo error target for interval endpoints. */
  mcTarget: 0.001,
} as const;

export interface AuditSettings extends TwoFramingSettings {
  readonly readingError: number;
  readonly searchReps: number;
  readonly mcTarget: number;
}

export interface AuditOptions extends Partial<AuditSettings> {
  data?: string;
  out?: string;
  logger?: Logger;
  dryRun?: boolean;
}

export interface EndpointMcError { readonly group: string; readonly kind: HeadlineKind; readonly lo: McError; readonly hi: McError }

export interface AuditResult {
  readonly settings: AuditSettings;
  readonly input: RatesInput;
  readonly analysis: TwoFramingAnalysis;
  readonly consistency: readonly CellConsistency[];
  readonly readingError: ReadingErrorResult;
  readonly tipping: readonly TippingResult[];
  readonly attenuation: readonly SweepRow[];
  readonly influence: InfluenceResult;
  readonly mcError: readonly EndpointMcError[];
  readonly degenerate: readonly DegenerateAudit[];
  readonly files: readonly OutputFile[];
}

/** Settings with defaults applied; flag combinations a user can get wrong end in a UserError. */
export function auditSettings(o: Partial<AuditSettings>): AuditSettings {
  const s: AuditSettings = {
    seed: o.seed ?? AUDIT_DEFAULTS.seed, reps: o.reps ?? AUDIT_DEFAULTS.reps,
    attenuation: o.attenuation ?? AUDIT_DEFAULTS.attenuation, base: o.base ?? AUDIT_DEFAULTS.base, alt: o.alt ?? AUDIT_DEFAULTS.alt,
    readingError: o.readingError ?? AUDIT_DEFAULTS.readingError, searchReps: o.searchReps ?? AUDIT_DEFAULTS.searchReps,
    mcTarget: o.mcTarget ?? AUDIT_DEFAULTS.mcTarget,
  };
  if (s.base === s.alt) throw new UserError(msg.sameFraming(s.base));
  if (s.reps < 40) throw new UserError(msgAudit.tooFewReps(s.reps));
  return { ...s, searchReps: Math.min(s.searchReps, s.reps) };
}

/**
 * The audit computation (issue 4), without writing: rates file → AuditResult. Input errors are
 * the same as `reproduce`'s (one reader, src/io/rates-csv.ts) and are thrown before any work.
 */
export function auditCompute(opts: AuditOptions = {}): Omit<AuditResult, 'files'> {
  const logger = opts.logger ?? silentLogger;
  const settings = auditSettings(opts);
  const displayPath = opts.data ?? SHIPPED_RATES;
  const path = opts.data ? resolve(opts.data) : join(packageRoot, SHIPPED_RATES);
  const input = readRates(path, { base: settings.base, alt: settings.alt, displayPath });
  const progress = (label: string) => (logger.progress ? (d: number, t: number) => logger.progress!(label, d, t) : undefined);

  const consistency = checkConsistency(input.rows);
  for (const f of consistencyFlags(consistency)) logger.warn(msgAudit.consistencyFlag(input.path, f));

  const tf: TwoFramingSettings = { seed: settings.seed, reps: settings.reps, attenuation: settings.attenuation, base: settings.base, alt: settings.alt };
  const analysis = analyzeTwoFraming(input.table, tf, logger);
  const level = { seed: settings.seed, attenuation: settings.attenuation };
  const full = new ReplicateState(input.table, analysis.layout, { ...level, reps: settings.reps });
  const readingError = readingErrorRanges(full, settings.readingError, progress('reading error'));
  const search = new ReplicateState(input.table, analysis.layout, { ...level, reps: settings.searchReps });
  const tipping = tippingPoints(full, search, { settings: tf, readingError, onProgress: progress('tipping points') });
  for (const t of tipping) if (t.verified === false) logger.warn(msgAudit.tippingUnverified(t.id));
  const groups = [...analysis.layout.models, POOLED];
  const batches = defaultBatches(settings.reps);
  const mcError = groups.flatMap((group) => (['R', 'shift'] as const).map((kind) => {
    const i = analysis.boot.names.indexOf(stat(kind, group));
    const reps = analysis.boot.replicates.subarray(i * analysis.boot.reps, (i + 1) * analysis.boot.reps);
    return { group, kind, lo: mcErrorOfQuantile(reps, 0.025, batches, settings.mcTarget), hi: mcErrorOfQuantile(reps, 0.975, batches, settings.mcTarget) };
  }));
  return {
    settings, input, analysis, consistency, readingError, tipping,
    attenuation: attenuationSweep(analysis), influence: influence(full), mcError, degenerate: degenerateCells(analysis),
  };
}

/**
 * `samegame audit`: compute, then write reports/audit.md, audit.json, audit.html and the audit
 * figures as one atomic set (nothing is written when the input is bad or a step fails).
 */
export async function audit(opts: AuditOptions = {}): Promise<AuditResult> {
  const res = auditCompute(opts);
  const files = await auditFiles(res, opts.out ?? '.', opts.logger);
  if (!opts.dryRun) writeFilesAtomic(files);
  return { ...res, files };
}
