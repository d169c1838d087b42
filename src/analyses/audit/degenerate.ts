import type { TwoFramingAnalysis } from '../two-framing/index.js';
import { stat } from '../../core/names.js';
import { BUILTIN_COLUMNS } from '../../stats/table3.js';
import { robustness2 } from '../../stats/jsd.js';
import { clopperPearson } from '../../stats/cluster-intervals.js';

export interface DegenerateAudit {
  readonly cell: string;
  readonly model: string;
  readonly game: string;
  readonly framing: string;
  readonly x: number;
  readonly n: number;
  /** The bootstrap's interval for the cell rate: it cannot move, so it collapses to x/n. */
  readonly bootstrap: { lo: number; hi: number };
  /** The exact Clopper–Pearson interval, in closed form at 0/n and n/n: [0, 1 − (α/2)^(1/n)], [(α/2)^(1/n), 1]. */
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
      const [lo, hi] = clopperPearson(x / n, n, level);
      const exact = { lo, hi };
      const far = x === 0 ? exact.hi : exact.lo;
      const o = table.cells[other].obs;
      const po = o.kind === 'binary' ? o.x / o.n : NaN;
      const [pb, ps] = idx === p.baseIndex ? [far, po] : [po, far];
      out.push({
        cell: `${p.model} / ${p.game} / ${c.key.framing}`, model: p.model, game: p.game, framing: c.key.framing, x, n,
        bootstrap: { lo: x / n, hi: x / n }, exact,
        pairAtExactBound: {
          R2: robustness2(pb, ps), shift: ps - pb,
          R2Observed: boot.get(stat(BUILTIN_COLUMNS.robustness.names.cell, p.model, p.game)).point,
          shiftObserved: boot.get(stat(BUILTIN_COLUMNS.shift.names.cell, p.model, p.game)).point,
        },
      });
    }
  }
  return out;
}
