import type { Cell, CellTable } from '../../core/cells.js';
import { cellId, cellRate, cellSize } from '../../core/cells.js';
import { bootstrap, type Estimand } from '../../stats/bootstrap.js';
import { canonicalGameKey } from '../../core/games.js';
import type { TwoFramingAnalysis, TwoFramingSettings } from '../two-framing/index.js';
import { analyzeTwoFraming } from '../two-framing/index.js';

export interface CompareRow {
  model: string; game: string; framing: string;
  direct_rate: number; direct_n: number; reconstructed_rate: number; reconstructed_n: number;
  difference: number; diff_lo: number; diff_hi: number;
}

export interface Comparison {
  readonly rows: CompareRow[];
  /** Direct cells with no reconstructed counterpart, and the reverse. */
  readonly unmatchedDirect: string[];
  readonly unmatchedReconstructed: string[];
  readonly reconstructed: TwoFramingAnalysis;
}

export { canonicalGameKey };

const label = (c: Cell) => `${c.key.model} / ${c.key.game} / ${c.key.framing}`;

/**
 * Side by side: each direct cell beside the reconstructed cell of the same model
 * (after `modelMap`), game (canonical id or name) and framing; the difference direct − reconstructed
 * with a bootstrap interval in which both cells are redrawn (trials resampled / Binomial), and the
 * reconstructed data's own headline analysis with the same settings.
 */
export function compareCells(direct: CellTable, reconstructed: CellTable, settings: TwoFramingSettings,
  modelMap: Readonly<Record<string, string>> = {}): Comparison {
  const key = (model: string, game: string, framing: string) => JSON.stringify([model, canonicalGameKey(game), framing]);
  const recon = new Map(reconstructed.cells.map((c, i) => [key(c.key.model, c.key.game, c.key.framing), i]));
  const pairs: { d: number; r: number }[] = [];
  const unmatchedDirect: string[] = [];
  const used = new Set<number>();
  direct.cells.forEach((c, i) => {
    const r = recon.get(key((Object.hasOwn(modelMap, c.key.model) ? modelMap[c.key.model] : c.key.model), c.key.game, c.key.framing));
    if (r === undefined) unmatchedDirect.push(label(c));
    else { pairs.push({ d: i, r }); used.add(r); }
  });
  const unmatchedReconstructed = reconstructed.cells.filter((_, i) => !used.has(i)).map(label);
  // One bootstrap over both sources: each cell keeps its own (seed, source + key) stream.
  const cells = [
    ...direct.cells.map((c) => ({ id: `direct\u001f${cellId(direct.factors, c.key)}`, obs: c.obs })),
    ...reconstructed.cells.map((c) => ({ id: `reconstructed\u001f${cellId(reconstructed.factors, c.key)}`, obs: c.obs })),
  ];
  const off = direct.cells.length;
  const estimand: Estimand = {
    names: pairs.map((p) => `diff[${label(direct.cells[p.d])}]`),
    evaluate(rates, out) { pairs.forEach((p, j) => { out[j] = rates[p.d] - rates[off + p.r]; }); },
  };
  const boot = bootstrap(cells, estimand, { seed: settings.seed, reps: settings.reps });
  const rows = pairs.map((p, j) => {
    const d = direct.cells[p.d], r = reconstructed.cells[p.r];
    return {
      model: d.key.model, game: d.key.game, framing: d.key.framing,
      direct_rate: cellRate(d.obs), direct_n: cellSize(d.obs), reconstructed_rate: cellRate(r.obs), reconstructed_n: cellSize(r.obs),
      difference: boot.point[j], diff_lo: boot.lo[j], diff_hi: boot.hi[j],
    };
  });
  return { rows, unmatchedDirect, unmatchedReconstructed, reconstructed: analyzeTwoFraming(reconstructed, settings) };
}
