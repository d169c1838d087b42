/** Every published number beside the computed one, with its tolerance and verdict. */
import { POOLED, stat } from '../../core/names.js';
import type { PublishedRow, PublishedTable, PublishedValues } from '../../sources/published.js';
import { replicatesOf, table2Rows, type TwoFramingAnalysis } from '../two-framing/index.js';
import { comparedDecimals, endpointMcSe, judge, type Verdict } from './verdict.js';

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
  /** Monte Carlo standard error of the computed value: 0 for points, the batch-means error for interval endpoints. */
  readonly mcSe: number;
  /** Half a unit of the last published digit + 2 × mcSe; NaN when missing. */
  readonly tolerance: number;
  readonly verdict: Verdict;
  /** Line of the published file. */
  readonly line: number;
}

export interface Reproduction {
  /** The published file as named on the command line (or the shipped path). */
  readonly path: string;
  readonly sha256: string;
  readonly rows: readonly ReproductionRow[];
  readonly counts: Readonly<Record<Verdict, number>>;
}

/** A computed value and the replicates its Monte Carlo error comes from (points: none). */
interface Computed { readonly value: number; readonly replicates?: ArrayLike<number>; readonly q?: number }

const ENDPOINT_Q: Readonly<Record<string, number>> = { lo: 0.025, hi: 0.975 };

/** A statistic of the bootstrap by name: its point, or an interval endpoint with its replicates. */
function fromBoot(a: TwoFramingAnalysis, name: string, part: string): Computed | undefined {
  if (!a.boot.names.includes(name)) return undefined;
  const v = a.boot.get(name);
  if (part === '') return { value: v.point };
  return { value: part === 'lo' ? v.lo : v.hi, replicates: replicatesOf(a, name), q: ENDPOINT_Q[part] };
}

function computedValue(a: TwoFramingAnalysis, row: PublishedRow): Computed | undefined {
  if (row.table === 'table2') {
    const r = table2Rows(a).find((t) => t.model === row.model && t.game === row.game);
    return r ? { value: r[row.statistic as keyof typeof r] as number } : undefined;
  }
  const [kind, part = ''] = row.statistic.split('_');
  if (row.table === 'table3') {
    if (row.model !== POOLED && !a.layout.models.includes(row.model)) return undefined;
    return fromBoot(a, stat(kind, row.model), part);
  }
  if (!a.family) return undefined;
  return fromBoot(a, row.game === '' ? stat('Rfam', row.model) : stat('Rfam', row.model, row.game), part);
}

const emptyCounts = (): Record<Verdict, number> => ({ exact: 0, 'within-mc': 0, differs: 0, missing: 0 });

/**
 * Compare an analysis (a `reproduce` or `analyze` result) with published values, row by row in
 * the order of the published file. Pure: reads nothing, writes nothing.
 */
export function compareWithPublished(result: { readonly analysis: TwoFramingAnalysis }, published: Omit<PublishedValues, 'provenanceColumns'>): Reproduction {
  const a = result.analysis;
  const counts = emptyCounts();
  const rows = published.rows.map((p): ReproductionRow => {
    const base = { table: p.table, model: p.model, game: p.game, statistic: p.statistic, published: p.published.text, decimals: comparedDecimals(p.published), line: p.line };
    const c = computedValue(a, p);
    if (c === undefined || !Number.isFinite(c.value)) {
      counts.missing++;
      return { ...base, computed: NaN, difference: NaN, mcSe: NaN, tolerance: NaN, verdict: 'missing' };
    }
    const mcSe = c.replicates ? endpointMcSe(c.replicates, c.q!) : 0;
    const j = judge(c.value, p.published, mcSe);
    counts[j.verdict]++;
    return { ...base, computed: c.value, difference: j.difference, mcSe, tolerance: j.tolerance, verdict: j.verdict };
  });
  return { path: published.path, sha256: published.sha256, rows, counts };
}
