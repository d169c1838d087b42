/** Every published number beside the computed one, with its tolerance and verdict. */
import { POOLED, stat } from '../../core/names.js';
import type { PublishedMethod, PublishedRow, PublishedTable, PublishedValues } from '../../sources/published.js';
import { quantilesUnsorted } from '../../stats/quantile.js';
import { UserError } from '../../core/errors.js';
import { nearestName } from '../../core/suggest.js';
import { familyZ, quantileBand, quantileLevelSpread } from '../../stats/mc-error.js';
import { FAMILY_R, table3Columns } from '../../stats/table3.js';
import { table2Rows, type Table2Row, type TwoFramingAnalysis } from '../two-framing/index.js';
import { comparedDecimals, judge, type Verdict } from './verdict.js';
import { analysesReproductionMsg } from './messages.js';

export interface ReproductionRow {
  readonly table: PublishedTable;
  readonly model: string;
  /** Empty for per-model rows. */
  readonly game: string;
  readonly statistic: string;
  /** As printed. */
  readonly published: string;
  /** Decimals printed: the precision. */
  readonly decimals: number;
  /** NaN when missing. */
  readonly computed: number;
  readonly difference: number;
  /**
   * Interval endpoints: [Q̂(q − δ), Q̂(q + δ)] of the statistic's replicates (docs/methods.md §16),
   * the values a correct publication's endpoint can take; undefined for points and missing rows.
   */
  readonly band?: readonly [number, number];
  /** Interval endpoints: the quantile level q the endpoint was read at, and the publication's replicates B_p. */
  readonly level?: number;
  readonly publishedReps?: number;
  /** Distance from the computed value to the edge of the accepted band on the published value's side; NaN when missing. */
  readonly tolerance: number;
  readonly verdict: Verdict;
  /** A missing row: the computation's model or game nearest to the one named (`model "GPT-4"`), when one is near. */
  readonly suggestion?: string;
  /** Line of the published file. */
  readonly line: number;
}

/** How the verdicts were reached: the family-wise level over the endpoints compared. */
export interface VerdictRule {
  /** Family-wise false-alarm level α. */
  readonly alpha: number;
  /** Interval endpoints compared (the family the level is shared over). */
  readonly k: number;
  /** Φ⁻¹(1 − α/(2k)); NaN when no endpoint is compared. */
  readonly z: number;
  /** The computation's replicates B_c. */
  readonly computedReps: number;
  /** The publication's replicates B_p of the endpoints compared, distinct, ascending. */
  readonly publishedReps: readonly number[];
  /** Interval methods the endpoints were compared with (the publication's), distinct; the tables may show another. */
  readonly methods: readonly PublishedMethod[];
  /** Endpoints compared with the assumed B_p (ASSUMED_PUBLISHED_REPS): neither their row's `reps` nor --published-reps was given. */
  readonly assumedReps: number;
}

/**
 * B_p assumed for an endpoint whose row gives no `reps` when --published-reps is not given: 1,000,
 * the smallest count in common use, so the band is the widest a correct publication needs
 * (docs/methods.md §16).
 */
export const ASSUMED_PUBLISHED_REPS = 1000;

export interface Reproduction {
  /** The published file as named on the command line (or the shipped path). */
  readonly path: string;
  readonly sha256: string;
  readonly rows: readonly ReproductionRow[];
  readonly counts: Readonly<Record<Verdict, number>>;
  readonly rule: VerdictRule;
  /** The interval method of the analysis's tables (the compared endpoints may use the publication's). */
  readonly shownMethod: PublishedMethod;
  /** The verdict settings as given (for the regenerate command). */
  readonly settings: VerdictSettings;
  /** When settings other than the publication's narrowed the published values: which were compared, and why. */
  readonly selection?: string;
}

/** `--verdict-alpha` and `--published-reps`. */
export interface VerdictSettings {
  /** Family-wise false-alarm level α, default 0.05. */
  readonly alpha?: number;
  /** Replicates behind published endpoints whose row has no `reps`; default ASSUMED_PUBLISHED_REPS. */
  readonly publishedReps?: number;
  /** The publication's interval method where a row has no `method` (--published-method); default percentile. */
  readonly publishedMethod?: PublishedMethod;
}

export const DEFAULT_VERDICT_ALPHA = 0.05;

/** A computed value; an interval endpoint also names its statistic (replicates) and quantile level. */
interface Computed { readonly value: number; readonly stat?: number; readonly q?: number }

/**
 * A statistic of the bootstrap by name: its point, or an interval endpoint with its statistic's
 * index and level, read the way the publication read it: the analysis's own interval when the
 * methods agree, the percentile endpoint of the same replicates when the analysis is BCa and the
 * publication percentile (a BCa publication needs a BCa analysis: refused otherwise).
 */
function fromBoot(a: TwoFramingAnalysis, name: string, part: string, method: PublishedMethod): Computed | undefined {
  const j = a.boot.indexOf(name);
  if (j < 0) return undefined;
  if (part === '') return { value: a.boot.point[j] };
  const lo = part === 'lo';
  if (method === a.boot.method) return { value: (lo ? a.boot.lo : a.boot.hi)[j], stat: j, q: (lo ? a.boot.levels.lo : a.boot.levels.hi)[j] };
  if (method === 'bca') throw new UserError(analysesReproductionMsg.bcaNotComputed('the published values'));
  const q = lo ? 0.025 : 0.975;
  const { reps, replicates } = a.boot;
  const [value] = quantilesUnsorted(Float64Array.from(replicates.subarray(j * reps, (j + 1) * reps)), [q]);
  return { value, stat: j, q };
}

function computedValue(a: TwoFramingAnalysis, t2: ReadonlyMap<string, Table2Row>, row: PublishedRow, method: PublishedMethod): Computed | undefined {
  if (row.table === 'table2') {
    const r = t2.get(JSON.stringify([row.model, row.game]));
    return r ? { value: r[row.statistic as keyof Table2Row] as number } : undefined;
  }
  // A statistic is a column (which may hold "_") and, for an interval end, "_lo" or "_hi".
  const end = /_(lo|hi)$/.exec(row.statistic);
  const part = end ? end[1] : '';
  const column = end ? row.statistic.slice(0, end.index) : row.statistic;
  if (row.table === 'table3') {
    const c = table3Columns().find((x) => x.column === column);
    if (!c || (row.model !== POOLED && !a.layout.models.includes(row.model))) return undefined;
    return fromBoot(a, stat(c.names.groupConservative, row.model), part, method);
  }
  if (!a.family) return undefined;
  return fromBoot(a, row.game === '' ? stat(FAMILY_R, row.model) : stat(FAMILY_R, row.model, row.game), part, method);
}

/** For a missing row: the model, else the game, of the computation nearest to the one the row names. */
function suggestionFor(a: TwoFramingAnalysis, row: PublishedRow): string | undefined {
  if (row.table === 'family' && !a.family) return undefined;
  const models = row.table === 'table2' ? a.layout.models : [...a.layout.models, POOLED];
  const games = row.table === 'family' ? a.family!.groups.map((g) => g.game) : a.layout.pairs.map((p) => p.game);
  const near = (field: string, value: string, known: readonly string[]) => {
    const n = known.includes(value) ? undefined : nearestName(value, known);
    return n === undefined ? undefined : `${field} ${JSON.stringify(n)}`;
  };
  if (!models.includes(row.model)) return near('model', row.model, models);
  return row.game === '' ? undefined : near('game', row.game, games);
}

const emptyCounts = (): Record<Verdict, number> => ({ exact: 0, 'within-mc': 0, differs: 0, missing: 0 });

/**
 * Compare an analysis (a `reproduce` or `analyze` result) with published values, row by row in
 * the order of the published file (docs/methods.md §16). Pure: reads nothing, writes nothing.
 * The replicates are read where the bootstrap keeps them; one buffer of B_c values serves every
 * endpoint's band.
 */
export function compareWithPublished(result: { readonly analysis: TwoFramingAnalysis }, published: Omit<PublishedValues, 'provenanceColumns'>,
  settings: VerdictSettings = {}): Reproduction {
  const a = result.analysis;
  const { reps, replicates } = a.boot;
  const alpha = settings.alpha ?? DEFAULT_VERDICT_ALPHA;
  const t2 = new Map(published.rows.some((p) => p.table === 'table2') ? table2Rows(a).map((r) => [JSON.stringify([r.model, r.game]), r]) : []);
  const methodOf = (p: PublishedRow) => p.method ?? settings.publishedMethod ?? 'percentile';
  const found = published.rows.map((p) => {
    const c = computedValue(a, t2, p, methodOf(p));
    return c !== undefined && Number.isFinite(c.value) ? c : undefined;
  });
  const ends = published.rows.filter((_, i) => found[i]?.stat !== undefined);
  const k = ends.length;
  const z = k > 0 ? familyZ(alpha, k) : NaN;
  const repsOf = (p: PublishedRow) => p.reps ?? settings.publishedReps ?? ASSUMED_PUBLISHED_REPS;
  const scratch = new Float64Array(k > 0 ? reps : 0);
  const counts = emptyCounts();
  const rows = published.rows.map((p, i): ReproductionRow => {
    const c = found[i];
    let band: readonly [number, number] | undefined;
    let bp: number | undefined;
    if (c?.stat !== undefined) {
      bp = repsOf(p);
      const [lo, hi] = quantileBand(replicates.subarray(c.stat * reps, (c.stat + 1) * reps), c.q!, quantileLevelSpread(c.q!, z, reps, bp), scratch);
      // R-7 interpolation can round a neighbouring level one ulp past the endpoint; the band holds it.
      band = [Math.min(lo, c.value), Math.max(hi, c.value)];
    }
    const j = c === undefined ? undefined : judge(c.value, p.published, band);
    counts[j?.verdict ?? 'missing']++;
    // One object literal of one shape for every row (spreading a few partial objects per row cost more than the verdicts).
    return {
      table: p.table, model: p.model, game: p.game, statistic: p.statistic, published: p.published.text, decimals: comparedDecimals(p.published),
      computed: c?.value ?? NaN, difference: j?.difference ?? NaN, band, level: band ? c!.q : undefined, publishedReps: bp,
      tolerance: j?.tolerance ?? NaN, verdict: j?.verdict ?? 'missing', suggestion: c === undefined ? suggestionFor(a, p) : undefined, line: p.line,
    };
  });
  const publishedReps = [...new Set(ends.map(repsOf))].sort((x, y) => x - y);
  const assumedReps = settings.publishedReps === undefined ? ends.filter((p) => p.reps === undefined).length : 0;
  const methods = [...new Set(ends.map(methodOf))].sort();
  return { path: published.path, sha256: published.sha256, shownMethod: a.boot.method, rows, counts, rule: { alpha, k, z, computedReps: reps, publishedReps,
    assumedReps, methods }, settings };
}
