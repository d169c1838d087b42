import type { CellTable } from '../../../src/core/cells.js';
import { analyzeTwoFraming, type TwoFramingSettings } from '../../../src/analyses/two-framing/analysis.js';

export const BASE = 'business';
export const ALT = 'friend-sharing';

/** A model × game × framing table from [model, game, xBase, xAlt, n] rows. */
export function pairsTable(rows: readonly (readonly [string, string, number, number, number])[]): CellTable {
  return {
    factors: ['model', 'game', 'framing'],
    cells: rows.flatMap(([model, game, xb, xs, n]) => [
      { key: { model, game, framing: BASE }, obs: { kind: 'binary' as const, n, x: xb } },
      { key: { model, game, framing: ALT }, obs: { kind: 'binary' as const, n, x: xs } },
    ]),
  };
}

export function withCounts(t: CellTable, counts: ArrayLike<number>): CellTable {
  return { factors: t.factors, cells: t.cells.map((c, i) => ({ ...c, obs: { kind: 'binary' as const, n: (c.obs as { n: number }).n, x: counts[i] } })) };
}

export function settings(reps: number, attenuation = 0.7, seed = 7): TwoFramingSettings {
  return { seed, reps, attenuation, base: BASE, alt: ALT };
}

export const rerun = (t: CellTable, s: TwoFramingSettings) => analyzeTwoFraming(t, s).boot;

/** Every integer vector over `dims` entries with L1 norm exactly m. */
export function* vectorsWithL1(dims: number, m: number): Generator<number[]> {
  if (dims === 1) { if (m === 0) yield [0]; else { yield [m]; yield [-m]; } return; }
  for (let a = 0; a <= m; a++) {
    for (const d of a === 0 ? [0] : [a, -a]) for (const rest of vectorsWithL1(dims - 1, m - a)) yield [d, ...rest];
  }
}
