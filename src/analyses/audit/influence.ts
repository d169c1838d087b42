import { POOLED } from '../../core/names.js';
import { fixed, interval } from '../../core/format.js';
import type { Interval } from '../../stats/bootstrap.js';
import type { HeadlineKind, ReplicateState } from './replicate-state.js';
import { cellLabel } from './reading-error.js';

/**
 * Leave-one-out influence on the pooled values. The unit is the model–game pair:
 * R2 and the shift are contrasts of a pair's two planned framings, so leaving out either framing
 * cell removes that pair's contrast — a cell's influence is its pair's, and each cell is listed
 * with the pair it removes. Pooled values are then the unweighted mean over the remaining pairs
 * (docs/methods.md), on the same replicates (a cell's draws depend only on its own key), so the change
 * is the pair's influence alone, not new Monte Carlo noise.
 */
export interface PairInfluence {
  readonly model: string;
  readonly game: string;
  /** Each audited Table 3 column's pooled value (R, shift, …) without this pair, and the change from the full table. */
  readonly pooled: Readonly<Record<HeadlineKind, { readonly without: Interval; readonly delta: Interval }>>;
  /** The pair's model without it (absent when it is the model's only pair). */
  readonly ownModel: Readonly<Record<HeadlineKind, { readonly without: Interval; readonly delta: Interval }>> | undefined;
}

export interface CellInfluence { readonly cell: string; readonly removesPair: string }

export interface InfluenceResult {
  readonly full: Readonly<Record<HeadlineKind, Interval>>;
  readonly pairs: readonly PairInfluence[];
  readonly cells: readonly CellInfluence[];
}

/** The audited columns of an influence result, in column order (the keys of `full`). */
export const influenceKinds = (inf: InfluenceResult): HeadlineKind[] => Object.keys(inf.full);

/** "pooled R 0.7831 [0.77, 0.79], pooled shift …": the full table's values, as audit.md and audit.html state them. */
export const influenceFull = (inf: InfluenceResult): string =>
  influenceKinds(inf).map((k) => `pooled ${k} ${fixed(inf.full[k].point, 4)} ${interval(inf.full[k].lo, inf.full[k].hi, 4)}`).join(', ');

/** The influence table's columns after the pair: per audited column Δ pooled, Δ lo, Δ hi, then Δ of its own model per column. */
export const influenceHeaders = (inf: InfluenceResult): string[] => {
  const kinds = influenceKinds(inf);
  return [...kinds.flatMap((k) => [`Δ pooled ${k}`, `Δ ${k} lo`, `Δ ${k} hi`]), ...kinds.map((k) => `Δ own model ${k}`)];
};

/** A pair's cells under `influenceHeaders`, numbers written by `signed` ("—" for a model of one pair). */
export const influenceCells = (inf: InfluenceResult, p: PairInfluence, signed: (x: number) => string): string[] => {
  const kinds = influenceKinds(inf);
  return [...kinds.flatMap((k) => [signed(p.pooled[k].delta.point), signed(p.pooled[k].delta.lo), signed(p.pooled[k].delta.hi)]),
    ...kinds.map((k) => (p.ownModel ? signed(p.ownModel[k].delta.point) : '—'))];
};

const diff = (a: Interval, b: Interval): Interval => ({ point: a.point - b.point, lo: a.lo - b.lo, hi: a.hi - b.hi });

export function influence(st: ReplicateState): InfluenceResult {
  const kinds: HeadlineKind[] = st.columns.map((c) => c.column);
  const full: Record<HeadlineKind, Interval> = Object.fromEntries(kinds.map((k) => [k, st.interval(POOLED, k)]));
  const pairs = st.layout.pairs.map((p, j) => {
    const ex = new Set([j]);
    const pooled = Object.fromEntries(kinds.map((k) => {
      const w = st.interval(POOLED, k, ex);
      return [k, { without: w, delta: diff(w, full[k]) }];
    })) as PairInfluence['pooled'];
    const alone = st.groupPairs(p.model).length === 1;
    const ownModel = alone ? undefined : Object.fromEntries(kinds.map((k) => {
      const w = st.interval(p.model, k, ex);
      return [k, { without: w, delta: diff(w, st.interval(p.model, k)) }];
    })) as PairInfluence['pooled'];
    return { model: p.model, game: p.game, pooled, ownModel };
  });
  const cells = st.layout.pairs.flatMap((p) => [p.baseIndex, p.altIndex].map((i) => ({ cell: cellLabel(st, i), removesPair: `${p.model} / ${p.game}` })));
  return { full, pairs, cells };
}
