import { POOLED } from '../../core/names.js';
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
  /** Pooled R and shift without this pair, and the change from the full table. */
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

const diff = (a: Interval, b: Interval): Interval => ({ point: a.point - b.point, lo: a.lo - b.lo, hi: a.hi - b.hi });

export function influence(st: ReplicateState): InfluenceResult {
  const kinds: HeadlineKind[] = ['R', 'shift'];
  const full = { R: st.interval(POOLED, 'R'), shift: st.interval(POOLED, 'shift') };
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
