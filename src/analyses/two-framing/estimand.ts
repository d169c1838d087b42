import type { CellTable } from '../../core/cells.js';
import { indexCells, cellId } from '../../core/cells.js';
import type { Estimand, StatInfo } from '../../stats/bootstrap.js';
import { table3Columns } from '../../stats/table3.js';
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
 * Per cell, for each Table 3 column (stats/table3.ts: R2 and the shift Δ = p_alt − p_base), the raw
 * value and its conservative transform with attenuation a (shift_c = a·Δ, R_c = 1 − a·(1 − R2),
 * Same Game, Different Story §4.2). Per model: unweighted means over its games; pooled: unweighted
 * mean over all model–game values (docs/methods.md). Names, with k columns (k = 2: R and shift):
 *   raw of each column, then conservative of each   [model | game]   R2, shift_raw, R2_conservative, shift_conservative
 *   the same per group                               [model] and [Pooled]   R_raw, shift_raw, R, shift
 * (R and shift per group are the conservative ones).
 */
export function twoFramingEstimand(layout: TwoFramingLayout, attenuation: number): Estimand {
  if (!(attenuation >= 0 && attenuation <= 1)) throw new RangeError(`attenuation out of [0,1]: ${attenuation}`);
  const { pairs, models } = layout;
  const cols = [...table3Columns()];
  const k = cols.length;
  const names: string[] = [];
  const info: StatInfo[] = [];
  for (const p of pairs) {
    names.push(...cols.map((c) => stat(c.names.cell, p.model, p.game)), ...cols.map((c) => stat(c.names.cellConservative, p.model, p.game)));
    info.push(...cols.map((c) => c.info), ...cols.map((c) => c.info));
  }
  const groups = [...models, POOLED];
  for (const g of groups) {
    names.push(...cols.map((c) => stat(c.names.group, g)), ...cols.map((c) => stat(c.names.groupConservative, g)));
    info.push(...cols.map((c) => c.info), ...cols.map((c) => c.info));
  }
  const modelOf = Int32Array.from(pairs, (p) => models.indexOf(p.model));
  const baseOf = Int32Array.from(pairs, (p) => p.baseIndex);
  const altOf = Int32Array.from(pairs, (p) => p.altIndex);
  const m = models.length;
  const count = new Float64Array(m + 1);
  for (const mi of modelOf) { count[mi]++; count[m]++; }
  // sums[g]: one column's raw values summed over group g's cells (g = m: pooled).
  const sums = new Float64Array(m + 1);
  const a = attenuation;
  const n = pairs.length;
  const groupBase = n * 2 * k;

  return {
    names,
    info,
    evaluate(rates, out) {
      // Column by column (each column's cells in table order, so every sum adds in the same order).
      for (let j = 0; j < k; j++) {
        const cell = cols[j].cell;
        const conservative = cols[j].conservative;
        sums.fill(0);
        for (let i = 0; i < n; i++) {
          const raw = cell(rates[baseOf[i]], rates[altOf[i]]);
          const o = 2 * k * i + j;
          out[o] = raw;
          out[o + k] = conservative(raw, a);
          sums[modelOf[i]] += raw; sums[m] += raw;
        }
        // Means of the raw values; the conservative transform is affine, so the mean of the
        // transformed cells equals the transform of the mean.
        for (let g = 0; g <= m; g++) {
          const raw = sums[g] / count[g];
          const o = groupBase + 2 * k * g + j;
          out[o] = raw;
          out[o + k] = conservative(raw, a);
        }
      }
    },
  };
}
