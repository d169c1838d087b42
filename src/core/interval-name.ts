/**
 * The one name of an interval method, for every caption, subtitle and report sentence that says
 * how intervals were made ("95 % <name> intervals"): the two-framing analysis (Table 3, its
 * figures, table3.tex, the report) and repeated play (models, cells, end game) both call it.
 */

/** How a set of intervals was made. */
export interface IntervalMethodOf {
  /** cluster-robust: CR2 variance, Satterthwaite df (effective-n Clopper–Pearson near 0 or 1); else how the bootstrap's intervals were read off. */
  readonly method: 'cluster-robust' | 'percentile' | 'bca';
  /** What the bootstrap redrew: whole clusters (matches) or independent trials; bootstrap methods only. */
  readonly clustered?: boolean;
}

/** "cluster-robust (CR2, Satterthwaite df)", "percentile-bootstrap", "BCa-bootstrap", "percentile cluster-bootstrap" or "BCa cluster-bootstrap". */
export function intervalMethodName(m: IntervalMethodOf): string {
  if (m.method === 'cluster-robust') return 'cluster-robust (CR2, Satterthwaite df)';
  const read = m.method === 'bca' ? 'BCa' : 'percentile';
  return m.clustered ? `${read} cluster-bootstrap` : `${read}-bootstrap`;
}
