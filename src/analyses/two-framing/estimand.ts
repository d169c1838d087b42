import type { CellTable } from '../../core/cells.js';
import { indexCells, cellId } from '../../core/cells.js';
import { ROBUSTNESS, SHIFT, type Estimand, type StatInfo } from '../../stats/bootstrap.js';
import { robustness2 } from '../../stats/jsd.js';
import { POOLED, stat } from '../../core/names.js';

/** A planned contrast: the base and alternative framing of one model–game (Same Game, Different Story §3.3). */
export interface FramingPair {
  readonly model: string;
  readonly game: string;
  readonly baseIndex: number;
  readonly altIndex: number;
}

export interface TwoFramingLayout {
  readonly base: string;
  readonly alt: string;
  /** Models in input order. */
  readonly models: readonly string[];
  /** Model–game pairs in input order. */
  readonly pairs: readonly FramingPair[];
}

/**
 * The first cell of the planned pair a table lacks (model–games in table order, base before alt),
 * or undefined when every model–game has both framings: what input checks report before any work.
 */
export function missingPlannedCell(table: CellTable, base: string, alt: string): { model: string; game: string; framing: string } | undefined {
  const idx = indexCells(table);
  for (const c of table.cells) {
    for (const framing of [base, alt]) {
      if (!idx.has(cellId(table.factors, { ...c.key, framing }))) return { model: c.key.model, game: c.key.game, framing };
    }
  }
  return undefined;
}

/**
 * The planned (base, alt) pair of every model–game of a table with factors model, game, framing.
 * A model–game lacking either framing is a programming error here (input validation rejects it).
 */
export function twoFramingLayout(table: CellTable, base: string, alt: string): TwoFramingLayout {
  const idx = indexCells(table);
  const models: string[] = [];
  const pairs: FramingPair[] = [];
  const seen = new Set<string>();
  for (const c of table.cells) {
    const { model, game } = c.key;
    const mg = `${model}\u001f${game}`;
    if (seen.has(mg)) continue;
    seen.add(mg);
    const b = idx.get(cellId(table.factors, { ...c.key, framing: base }));
    const a = idx.get(cellId(table.factors, { ...c.key, framing: alt }));
    if (b === undefined || a === undefined) throw new Error(`model–game ${model} / ${game} lacks ${base} or ${alt}`);
    if (!models.includes(model)) models.push(model);
    pairs.push({ model, game, baseIndex: b, altIndex: a });
  }
  return { base, alt, models, pairs };
}

/**
 * Per cell: R2, shift Δ = p_alt − p_base, and the conservative transform with attenuation a:
 * shift_c = a·Δ, R_c = 1 − a·(1 − R2) (Same Game, Different Story §4.2). Per model: unweighted means over its games;
 * pooled: unweighted mean over all model–game values (docs/methods.md). Names:
 *   R2, shift, Rc, shiftc            [model | game]
 *   R_raw, shift_raw, R, shift       [model] and [Pooled]   (R and shift are the conservative ones)
 */
export function twoFramingEstimand(layout: TwoFramingLayout, attenuation: number): Estimand {
  if (!(attenuation >= 0 && attenuation <= 1)) throw new RangeError(`attenuation out of [0,1]: ${attenuation}`);
  const { pairs, models } = layout;
  const names: string[] = [];
  const info: StatInfo[] = [];
  for (const p of pairs) {
    names.push(stat('R2', p.model, p.game), stat('shift', p.model, p.game),
      stat('Rc', p.model, p.game), stat('shiftc', p.model, p.game));
    info.push(ROBUSTNESS, SHIFT, ROBUSTNESS, SHIFT);
  }
  const groups = [...models, POOLED];
  for (const g of groups) {
    names.push(stat('R_raw', g), stat('shift_raw', g), stat('R', g), stat('shift', g));
    info.push(ROBUSTNESS, SHIFT, ROBUSTNESS, SHIFT);
  }
  const modelOf = pairs.map((p) => models.indexOf(p.model));
  const m = models.length;
  const sumR = new Float64Array(m + 1);
  const sumS = new Float64Array(m + 1);
  const count = new Float64Array(m + 1);
  for (const mi of modelOf) { count[mi]++; count[m]++; }
  const a = attenuation;
  const groupBase = pairs.length * 4;

  return {
    names,
    info,
    evaluate(rates, out) {
      sumR.fill(0); sumS.fill(0);
      for (let i = 0; i < pairs.length; i++) {
        const pb = rates[pairs[i].baseIndex];
        const ps = rates[pairs[i].altIndex];
        const r2 = robustness2(pb, ps);
        const d = ps - pb;
        out[4 * i] = r2;
        out[4 * i + 1] = d;
        out[4 * i + 2] = 1 - a * (1 - r2);
        out[4 * i + 3] = a * d;
        const mi = modelOf[i];
        sumR[mi] += r2; sumS[mi] += d; sumR[m] += r2; sumS[m] += d;
      }
      // Means of the raw values; the conservative transform is affine, so the mean of the
      // transformed cells equals the transform of the mean.
      for (let g = 0; g <= m; g++) {
        const rRaw = sumR[g] / count[g];
        const sRaw = sumS[g] / count[g];
        const o = groupBase + 4 * g;
        out[o] = rRaw;
        out[o + 1] = sRaw;
        out[o + 2] = 1 - a * (1 - rRaw);
        out[o + 3] = a * sRaw;
      }
    },
  };
}
