/**
 * The effect table of a meta-analysis: one row per model × game cell of each study, the effect of
 * the study's alt framing over its base (docs/methods.md, "Meta-analysis", effect sizes).
 */
import { cellId, cellSize, indexCells, type CellTable, type Observations } from '../../core/cells.js';
import type { EffectTableRow } from '../../sources/effects-csv.js';
import { clusteredRate, countsEffect, formulaEffect, meanRate, ratesEffect, type Effect, type EffectMeasure,
  type RateEstimate } from '../../stats/meta/effect-size.js';

/** A formula of the two rates (p_base, p_alt): a Table 3 column's per-pair value, pooled as an effect of its own. */
export type CellFormula = (pBase: number, pAlt: number) => number;

/** One cell's effect: as an effect table's row (src/sources/effects-csv.ts) without its line; n_base and n_alt empty for effects read from a table. */
export type EffectRow = Omit<EffectTableRow, 'line'>;

export interface StudyContrast {
  readonly study: string;
  readonly base: string;
  readonly alt: string;
  /** The conservative transform: the effect is multiplied by a, its variance by a². */
  readonly attenuation: number;
  readonly moderators: Readonly<Record<string, string>>;
}

export interface StudyEffects {
  readonly rows: EffectRow[];
  /** Cells left out, said in words (no variance can be estimated). */
  readonly notes: string[];
  /** Cells whose counts took the add-1/2 rule. */
  readonly adjusted: number;
}

function rateOf(obs: Observations): RateEstimate {
  if (obs.kind === 'clustered') return clusteredRate(obs.sizes, obs.sums);
  if (obs.kind === 'prob') return meanRate(obs.values);
  const p = obs.x / obs.n;
  return { p, variance: (p * (1 - p)) / obs.n, n: obs.n };
}

function contrastEffect(alt: Observations, base: Observations, measure: EffectMeasure | CellFormula): Effect {
  if (typeof measure === 'function') return formulaEffect(rateOf(alt), rateOf(base), measure);
  if (alt.kind === 'binary' && base.kind === 'binary') return countsEffect(alt.x, alt.n, base.x, base.n, measure);
  return ratesEffect(rateOf(alt), rateOf(base), measure);
}

/**
 * Every model × game of a study's table (factors model, game, framing; further factors already
 * folded into the game) that holds both planned framings.
 */
export function studyEffects(table: CellTable, c: StudyContrast, measure: EffectMeasure | CellFormula): StudyEffects {
  const index = indexCells(table);
  const rows: EffectRow[] = [];
  const notes: string[] = [];
  let adjusted = 0;
  const seen = new Set<string>();
  for (const cell of table.cells) {
    const { model, game } = cell.key;
    const pair = JSON.stringify([model, game]);
    if (seen.has(pair)) continue;
    seen.add(pair);
    const at = (framing: string) => index.get(cellId(table.factors, { ...cell.key, framing }));
    const [ib, ia] = [at(c.base), at(c.alt)];
    if (ib === undefined || ia === undefined) {
      notes.push(`${c.study}: ${model} / ${game} left out: it has no ${JSON.stringify(ib === undefined ? c.base : c.alt)} cell`);
      continue;
    }
    const base = table.cells[ib].obs;
    const alt = table.cells[ia].obs;
    const e = contrastEffect(alt, base, measure);
    if (!(Number.isFinite(e.yi) && e.vi > 0 && Number.isFinite(e.vi))) {
      notes.push(`${c.study}: ${model} / ${game} left out: no sampling variance can be estimated (fewer than 2 trials, or 3 clusters, under a framing)`);
      continue;
    }
    if (e.adjusted) adjusted++;
    const a = c.attenuation;
    rows.push({ study: c.study, model, game, yi: a * e.yi, vi: a * a * e.vi, n_base: cellSize(base), n_alt: cellSize(alt), moderators: c.moderators });
  }
  return { rows, notes, adjusted };
}
