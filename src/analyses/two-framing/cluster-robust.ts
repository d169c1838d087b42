/**
 * Cluster-robust intervals for the two-framing statistics of clustered cells (repeated play,
 * per-trial files with a cluster column, published logs; docs/methods.md §8.3): every R and shift
 * (per model–game, per model, pooled; family R) is a smooth function of the cells' rates, so its
 * interval is the delta method on the CR2 variance with Satterthwaite degrees of freedom
 * (src/stats/cluster-intervals.ts) — exact for the shifts, which are linear in the rates; an R to
 * second order (its lower end reaches as far as its curvature does, so equal rates still get an
 * interval), and an R averaging several model–games centred on its bias correction. A
 * statistic resting on a cell of fewer than 3 matches gets no interval; one resting on a cell where
 * one match holds most decisions, an interval on that cell's match means (stats/cluster-means.ts). Other statistics (λ̂) keep
 * the cluster bootstrap's.
 */
import type { CellTable } from '../../core/cells.js';
import { bootstrapResult, type BootstrapResult, type Estimand, type StatInfo } from '../../stats/bootstrap.js';
import { clusterCount, clusterDifferenceInterval, clusterLinearInterval, clusterSmoothInterval, derivatives, dominated, FEW_CLUSTERS, MIN_CLUSTERS,
  type ClusteredIntervalMethod, type ClusterInterval } from '../../stats/cluster-intervals.js';
import { holdingPoint, matchMeans } from '../../stats/cluster-means.js';
import { pairCells } from './paired.js';
import { FAMILY_R } from './family.js';
import { table3Columns } from '../../stats/table3.js';
import type { ClusterColumn } from '../../stats/cluster-robust.js';

/** Statistics whose interval is cluster-robust, their degrees of freedom and matches (parallel to names; NaN elsewhere). */
export interface ClusterRobustInfo {
  readonly df: Float64Array;
  readonly matches: Float64Array;
}

/** Names shown in a note, at most this many (then "…"). */
const SHOWN = 8;
const list = (names: readonly string[]) => `${names.slice(0, SHOWN).join(', ')}${names.length > SHOWN ? `, … (${names.length} in all)` : ''}`;

/** A per-model or pooled statistic (one part) of a Table 3 column (stats/table3.ts's registry) or the family R. */
function reported(name: string): boolean {
  const at = name.indexOf('[');
  if (at < 0) return false;
  const kinds = [...table3Columns().map((c) => c.names.groupConservative), FAMILY_R];
  return kinds.includes(name.slice(0, at)) && (JSON.parse(name.slice(at)) as unknown[]).length === 1;
}

/**
 * The notes of the per-model and pooled statistics (Table 3, family R) that rest on few matches:
 * without an interval (a cell of fewer than MIN_CLUSTERS matches), or flagged when the interval
 * has fewer than FEW_CLUSTERS − 1 degrees of freedom (as a cell of fewer than FEW_CLUSTERS matches).
 */
function smallClusterNotes(names: readonly string[], info: BootstrapResult['info'], df: Float64Array, matches: Float64Array,
  kinds: readonly string[]): string[] {
  const none: string[] = [], few: string[] = [], means: string[] = [], paired: string[] = [];
  names.forEach((n, i) => {
    const kind = info[i].kind;
    // the reported ones: per model and pooled (one part: R["M"], shift["Pooled"], Rfam["M"])
    if ((kind !== 'shift' && kind !== 'robustness') || !reported(n) || Number.isNaN(matches[i])) return;
    if (kinds[i].startsWith('means')) means.push(n);
    if (kinds[i].endsWith(' paired')) paired.push(n);
    if (matches[i] < MIN_CLUSTERS || Number.isNaN(df[i])) none.push(n);
    else if (df[i] < FEW_CLUSTERS - 1) few.push(`${n} (${df[i].toFixed(1)})`);
  });
  return [
    ...(none.length ? [`no interval: ${list(none)} rest${none.length === 1 ? 's' : ''} on a cell of fewer than ${MIN_CLUSTERS} matches`] : []),
    ...(means.length ? [`match means: ${list(means)} rest${means.length === 1 ? 's' : ''} on a cell where one match holds most decisions`
      + ` (fewer than ${MIN_CLUSTERS} effective matches (Σn)²/Σn²): interval on the match means (Welch), widened to hold the point`] : []),
    ...(paired.length ? [`paired: ${list(paired)} rest${paired.length === 1 ? 's' : ''} on framings played in the same matches`
      + ' (their cluster ids meet): analysed paired, on match-level differences'] : []),
    ...(few.length ? [`few matches: interval from fewer than ${FEW_CLUSTERS - 1} degrees of freedom (Satterthwaite df in brackets): ${list(few)}`] : []),
  ];
}

/**
 * A shift of one model–game, a·(r_alt − r_base): the difference interval of the two cells
 * (Satterthwaite t, MOVER where a cell has every match alike; paired when they share matches),
 * scaled by a; undefined for any other combination.
 */
function pairShift(cols: readonly ClusterColumn[], groups: Int32Array, coefs: Float64Array, point: number) {
  const used = [...coefs.keys()].filter((k) => coefs[k] !== 0);
  if (used.length !== 2) return undefined;
  const [k1, k2] = used, a = Math.abs(coefs[k1]);
  if (!(a > 0) || Math.abs(coefs[k1] + coefs[k2]) > 1e-9 * a) return undefined;
  const [neg, pos] = coefs[k1] < 0 ? [k1, k2] : [k2, k1];
  // the Jacobian is a difference quotient: a is 1 or the attenuation up to rounding
  const scale = Math.abs(a - Math.round(a * 1e6) / 1e6) < 1e-6 ? Math.round(a * 1e6) / 1e6 : a;
  const d = clusterDifferenceInterval(cols[neg], cols[pos], groups[neg] === groups[pos]);
  return { ...d, point, lo: scale * d.lo, hi: scale * d.hi };
}

/** The smallest match count of the cells a statistic depends on (non-zero gradient or curvature). */
function fewestMatches(cols: readonly ClusterColumn[], coefs: Float64Array, curv: Float64Array): number {
  let g = Infinity;
  cols.forEach((c, k) => { if (coefs[k] !== 0 || curv[k] !== 0) g = Math.min(g, clusterCount(c)); });
  return g;
}

/** The cells' columns at their rates: each statistic's gradient and curvature (column-major, as `derivatives`) and value. */
interface Pass {
  readonly cols: readonly ClusterColumn[]; readonly groups: Int32Array; readonly jac: Float64Array; readonly second: Float64Array;
  readonly point: Float64Array;
}

function pass(cols: readonly ClusterColumn[], groups: Int32Array, estimand: Estimand): Pass {
  const rates = Float64Array.from(cols, (c) => {
    let x = 0, n = 0;
    for (let j = 0; j < c.sizes.length; j++) { x += c.sums[j]; n += c.sizes[j]; }
    return x / n;
  });
  const s = estimand.names.length;
  const { first: jac, second } = derivatives((r, o) => estimand.evaluate(r, o), rates, s);
  const point = new Float64Array(s);
  estimand.evaluate(rates, point);
  return { cols, groups, jac, second, point };
}

/** The cluster-robust interval of statistic i (an R or a shift) from one pass, around `point`. */
function robustOne(p: Pass, i: number, s: number, point: number, bounds: readonly [number, number], robustness: boolean): ClusterInterval {
  const coefs = new Float64Array(p.cols.length), curv = new Float64Array(p.cols.length);
  let used = 0;
  for (let k = 0; k < p.cols.length; k++) { coefs[k] = p.jac[k * s + i]; curv[k] = p.second[k * s + i]; if (coefs[k] !== 0 || curv[k] !== 0) used++; }
  // An R averaging several model–games keeps each pair's second-order bias while its spread
  // shrinks: its interval is centred on the bias-corrected value. One pair's R is not
  // (its bias is of the order of its spread, and the correction measured worse: docs/methods.md §8.4).
  return robustness ? clusterSmoothInterval(p.cols, coefs, curv, point, bounds, { centre: used > 2, groups: p.groups })
    : pairShift(p.cols, p.groups, coefs, point) ?? clusterLinearInterval(p.cols, coefs, point, bounds, 0.95, p.groups);
}

/**
 * Statistic i's interval: from the cells as they are, or where that gives none because a cell it
 * rests on has one match holding most decisions, from every such cell's match means (`means`, a
 * pass with those cells as match means), around the statistic at those rates, widened to hold its point.
 */
function robustInterval(first: Pass, means: Pass | undefined, i: number, point: number, info: StatInfo): ClusterInterval {
  const s = first.point.length, robustness = info.kind === 'robustness';
  const iv = robustOne(first, i, s, point, info.bounds, robustness);
  if (iv.kind !== 'none' || !means) return iv;
  let rests = false;
  for (let k = 0; k < first.cols.length; k++) if ((first.jac[k * s + i] !== 0 || first.second[k * s + i] !== 0) && dominated(first.cols[k])) rests = true;
  return rests ? holdingPoint(robustOne(means, i, s, means.point[i], info.bounds, robustness), point, info.bounds) : iv;
}

/** Statistic i rests on two cells of one group (a paired design). */
function pairedStatistic(p: Pass, i: number): boolean {
  const s = p.point.length, seen = new Set<number>();
  for (let k = 0; k < p.cols.length; k++) {
    if (p.jac[k * s + i] === 0 && p.second[k * s + i] === 0) continue;
    if (seen.has(p.groups[k])) return true;
    seen.add(p.groups[k]);
  }
  return false;
}

/**
 * The bootstrap with the R and shift intervals replaced by cluster-robust ones when every cell is
 * clustered and neither BCa nor the cluster bootstrap was asked for; with the cluster bootstrap
 * (or BCa) on clustered cells, its intervals with the same rule: none below MIN_CLUSTERS matches,
 * a note below FEW_CLUSTERS. Unchanged for independent trials.
 */
export function withClusterRobust(table: CellTable, estimand: Estimand, boot: BootstrapResult,
  choice: { interval?: string; clusterInterval?: ClusteredIntervalMethod }): { boot: BootstrapResult; clusterRobust?: ClusterRobustInfo } {
  const pairing = pairCells(table);
  if (!pairing) return { boot };
  const { cols, groups } = pairing;
  const robust = choice.interval !== 'bca' && choice.clusterInterval !== 'cluster-bootstrap';
  const s = estimand.names.length;
  const first = pass(cols, groups, estimand);
  const means = robust && cols.some(dominated) ? pass(cols.map((c) => (dominated(c) ? matchMeans(c) : c)), groups, estimand) : undefined;
  const lo = Float64Array.from(boot.lo), hi = Float64Array.from(boot.hi);
  const df = new Float64Array(s).fill(NaN), matches = new Float64Array(s).fill(NaN);
  const kinds: string[] = new Array<string>(s).fill('');
  for (let i = 0; i < s; i++) {
    const info = boot.info[i];
    // statistics without an analytic interval here (λ̂): the cluster bootstrap's, with the same 3-match rule
    if (!robust || (info.kind !== 'shift' && info.kind !== 'robustness')) {
      const coefs = Float64Array.from(cols, (_, k) => first.jac[k * s + i]), curv = Float64Array.from(cols, (_, k) => first.second[k * s + i]);
      const g = fewestMatches(cols, coefs, curv);
      matches[i] = g; df[i] = g - 1;
      if (g < MIN_CLUSTERS) { lo[i] = NaN; hi[i] = NaN; }
      continue;
    }
    const iv = robustInterval(first, means, i, boot.point[i], info);
    lo[i] = iv.lo; hi[i] = iv.hi; df[i] = iv.df; matches[i] = iv.clusters; kinds[i] = pairedStatistic(first, i) ? `${iv.kind} paired` : iv.kind;
  }
  const notes = [...boot.notes, ...smallClusterNotes(estimand.names, boot.info, df, matches, kinds)];
  const result = bootstrapResult(estimand, boot.point, boot.replicates, boot.reps, boot.method, { lo, hi, notes, fellBack: new Set(boot.fellBack),
    levels: boot.levels });
  return { boot: result, ...(robust ? { clusterRobust: { df, matches } } : {}) };
}
