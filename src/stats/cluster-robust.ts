/**
 * Small-sample cluster-robust inference for rates of clustered decisions (docs/methods.md,
 * "Clustered data"): the CR2 (bias-reduced linearization) variance of Bell & McCaffrey (2002) with
 * the Satterthwaite degrees of freedom of Pustejovsky & Tipton (2018), as the R package
 * clubSandwich computes them, for any linear combination of column rates.
 *
 * The model is the cell-means regression of the decisions (0/1 or probabilities) on one indicator
 * per column, fitted by ordinary least squares, clusters the matches: column k's coefficient is its
 * rate r_k = Σ sums / Σ sizes. Because the indicators of one cluster's rows are block-diagonal
 * (each row belongs to one column), every matrix of CR2 has a closed form: with N_k the decisions of
 * column k, n_jk those of cluster j, E_jk = s_jk − n_jk r_k the cluster's summed residual and
 * a_jk = √(1 − n_jk / N_k),
 *
 *   V = Σ_j (Σ_k c_k E_jk / (N_k a_jk))²
 *
 * and, under the working model of independent decisions (clubSandwich's default for `lm`),
 * the Satterthwaite degrees of freedom ν = (Σ_j g_j'g_j)² / Σ_{i,j} (g_i'g_j)², where
 * g_i'g_j = δ_ij d_i − Σ_k q_ik q_jk / N_k, d_i = Σ_k c_k² n_ik / (N_k² a_ik²), q_ik = c_k n_ik / (N_k a_ik).
 * With equal cluster sizes and one column, V is the variance of the mean of the cluster means,
 * s² / G, and ν = G − 1: the t interval on match means.
 */

/** One column of clustered decisions: cluster j holds sizes[j] decisions whose outcomes sum to sums[j]. */
export interface ClusterColumn {
  readonly sizes: ArrayLike<number>;
  readonly sums: ArrayLike<number>;
}

/**
 * A term c · rate(column) of a linear combination. Terms of the same `group` are observed on the
 * same clusters (index j of their columns is the same match) and must be disjoint columns (no
 * decision in two of them); terms of different groups have clusters of their own.
 */
export interface ContrastTerm {
  readonly group: number;
  readonly column: ClusterColumn;
  readonly coef: number;
}

export interface ContrastResult {
  readonly estimate: number;
  /** CR2 variance; NaN when some column has fewer than two clusters with decisions. */
  readonly variance: number;
  /** Satterthwaite degrees of freedom (NaN with the variance; Infinity is never returned). */
  readonly df: number;
  /** Clusters with a decision in some term: the matches the combination rests on (the smallest count of any group). */
  readonly clusters: number;
}

interface TermStats { readonly c: number; readonly N: number; readonly r: number }

function termStats(t: ContrastTerm): TermStats {
  let s = 0, n = 0;
  for (let j = 0; j < t.column.sizes.length; j++) { s += t.column.sums[j]; n += t.column.sizes[j]; }
  return { c: t.coef, N: n, r: n > 0 ? s / n : NaN };
}

/** Adds one group's clusters to the sums of V and of the degrees of freedom. */
function addGroup(terms: readonly ContrastTerm[], stats: readonly TermStats[], acc: { v: number; tr: number; ss: number; clusters: number }): boolean {
  const m = terms[0].column.sizes.length, K = terms.length;
  const cross = new Float64Array(K * K); // Σ_j q_jk q_jl
  let clusters = 0;
  const q = new Float64Array(K);
  for (let j = 0; j < m; j++) {
    let v = 0, d = 0, qq = 0, any = false;
    for (let k = 0; k < K; k++) {
      const n = terms[k].column.sizes[j];
      q[k] = 0;
      if (!(n > 0)) continue;
      any = true;
      const { c, N, r } = stats[k];
      const a = Math.sqrt(1 - n / N);
      if (!(a > 0)) return false; // one cluster holds every decision of the column
      const e = terms[k].column.sums[j] - n * r;
      v += (c * e) / (N * a);
      d += (c * c * n) / (N * N * a * a);
      q[k] = (c * n) / (N * a);
      qq += (q[k] * q[k]) / N;
    }
    if (!any) continue;
    clusters++;
    acc.v += v * v;
    acc.tr += d - qq;
    acc.ss += d * d - 2 * d * qq;
    for (let k = 0; k < K; k++) for (let l = 0; l < K; l++) cross[k * K + l] += q[k] * q[l];
  }
  for (let k = 0; k < K; k++) for (let l = 0; l < K; l++) acc.ss += (cross[k * K + l] ** 2) / (stats[k].N * stats[l].N);
  acc.clusters = Math.min(acc.clusters, clusters);
  return true;
}

/** The CR2 variance and Satterthwaite degrees of freedom of Σ c_k · rate_k (module header). */
export function cr2Contrast(terms: readonly ContrastTerm[]): ContrastResult {
  const stats = terms.map(termStats);
  let estimate = 0;
  terms.forEach((t, k) => { if (t.coef !== 0) estimate += t.coef * stats[k].r; });
  const used = terms.map((t, k) => ({ t, s: stats[k] })).filter((x) => x.t.coef !== 0);
  const acc = { v: 0, tr: 0, ss: 0, clusters: Infinity };
  const groups = [...new Set(used.map((x) => x.t.group))];
  for (const g of groups) {
    const inGroup = used.filter((x) => x.t.group === g);
    if (!addGroup(inGroup.map((x) => x.t), inGroup.map((x) => x.s), acc)) return { estimate, variance: NaN, df: NaN, clusters: 1 };
  }
  const clusters = groups.length ? acc.clusters : 0;
  const df = acc.ss > 0 ? (acc.tr * acc.tr) / acc.ss : NaN;
  return { estimate, variance: acc.v, df, clusters };
}
