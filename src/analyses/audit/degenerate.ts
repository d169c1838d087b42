import type { TwoFramingAnalysis } from '../two-framing/index.js';
import { stat } from '../../core/names.js';
import { robustness2 } from '../../stats/jsd.js';

/**
 * Exact Clopper–Pearson interval at the boundary of the binomial range, where it has a closed
 * form (Clopper & Pearson 1934): for x = 0, [0, 1 − (α/2)^(1/n)]; for x = n, [(α/2)^(1/n), 1].
 * α/2 in each tail is the two-sided convention (some texts use α for the one open side; that
 * interval is narrower).
 */
export function clopperPearsonBoundary(x: number, n: number, level = 0.95): { lo: number; hi: number } {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer: ${n}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level out of (0,1): ${level}`);
  const t = Math.pow((1 - level) / 2, 1 / n);
  if (x === 0) return { lo: 0, hi: 1 - t };
  if (x === n) return { lo: t, hi: 1 };
  throw new RangeError(`closed form only at x = 0 or x = n (got ${x}/${n})`);
}

export interface DegenerateAudit {
  readonly cell: string;
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly x: number;
  readonly n: number;
  /** The bootstrap's interval for the cell rate: it cannot move, so it collapses to x/n. */
  readonly bootstrap: { lo: number; hi: number };
  readonly exact: { lo: number; hi: number };
  /** The cell's pair with this cell moved to the far end of its exact interval (the other cell kept). */
  readonly pairAtExactBound: { R2: number; shift: number; R2Observed: number; shiftObserved: number };
}

/** 0/n and n/n cells of the planned pairs, with the exact interval beside the collapsed one. */
export function degenerateCells(a: TwoFramingAnalysis, level = 0.95): DegenerateAudit[] {
  const out: DegenerateAudit[] = [];
  const { table, layout, boot } = a;
  for (const p of layout.pairs) {
    for (const [idx, other] of [[p.baseIndex, p.altIndex], [p.altIndex, p.baseIndex]] as const) {
      const c = table.cells[idx];
      if (c.obs.kind !== 'binary' || (c.obs.x !== 0 && c.obs.x !== c.obs.n)) continue;
      const { x, n } = c.obs;
      const exact = clopperPearsonBoundary(x, n, level);
      const far = x === 0 ? exact.hi : exact.lo;
      const o = table.cells[other].obs;
      const po = o.kind === 'binary' ? o.x / o.n : NaN;
      const [pb, ps] = idx === p.baseIndex ? [far, po] : [po, far];
      out.push({
        cell: `${p.model} / ${p.game} / ${c.key.framing}`, model: p.model, game: p.game, framing: c.key.framing, x, n,
        bootstrap: { lo: x / n, hi: x / n }, exact,
        pairAtExactBound: {
          R2: robustness2(pb, ps), shift: ps - pb,
          R2Observed: boot.get(stat('R2', p.model, p.game)).point, shiftObserved: boot.get(stat('shift_raw', p.model, p.game)).point,
        },
      });
    }
  }
  return out;
}
