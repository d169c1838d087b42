/**
 * Influence of each cell on the overall random-effects estimate (stats/meta/influence.ts, metafor's
 * influence(rma.uni) and baujat) with the overall fit refitted without the cell (leave1out):
 * reports/meta-influence.csv, a report section naming the studies of the influential cells, and the
 * Baujat plot. Above MAX_INFLUENCE_CELLS cells (k refits of k cells each) it is skipped, with a note.
 */
import { influenceDiagnostics, type InfluenceRow } from '../../stats/meta/influence.js';
import { deletedFits, leaveOneOutEffects } from '../../stats/meta/leave-one-out.js';
import type { MetaSettings } from '../../stats/meta/univariate.js';
import { toCsv } from '../../render/csv.js';
import { num, type Block } from '../../render/html.js';
import { interval } from '../../core/format.js';
import type { EffectRow } from './effects.js';
import { analysesMetaMsg } from './messages.js';

/** The most cells whose influence is computed (each of k refits runs over k − 1 cells). */
export const MAX_INFLUENCE_CELLS = 2000;

export interface CellInfluence extends InfluenceRow {
  readonly study: string;
  readonly model: string;
  readonly game: string;
  readonly yi: number;
  readonly vi: number;
  /** The overall fit without this cell (leave1out). */
  readonly loo_estimate: number;
  readonly loo_ci_lo: number;
  readonly loo_ci_hi: number;
  readonly loo_tau2: number;
  readonly loo_I2: number;
  readonly loo_Q: number;
}

/** The influence rows of the cells (none below 3 cells; above MAX_INFLUENCE_CELLS a note says why there are none). */
export function cellInfluence(rows: readonly EffectRow[], s: MetaSettings, notes: string[]): CellInfluence[] {
  if (rows.length < 3) return [];
  if (rows.length > MAX_INFLUENCE_CELLS) { notes.push(analysesMetaMsg.influenceSkipped(rows.length, MAX_INFLUENCE_CELLS)); return []; }
  const y = Float64Array.from(rows, (r) => r.yi);
  const v = Float64Array.from(rows, (r) => r.vi);
  const deleted = deletedFits(y, v, s); // one refit per cell, read by the influence diagnostics and leave-one-out alike
  const inf = influenceDiagnostics(y, v, s, deleted);
  if (!inf) return [];
  const loo = new Map(leaveOneOutEffects(y, v, s, deleted).map((l) => [l.left_out, l]));
  return rows.map((r, i) => {
    const l = loo.get(i);
    return {
      study: r.study, model: r.model, game: r.game, yi: r.yi, vi: r.vi, ...inf[i],
      loo_estimate: l?.estimate ?? NaN, loo_ci_lo: l?.ci_lo ?? NaN, loo_ci_hi: l?.ci_hi ?? NaN,
      loo_tau2: l?.tau2 ?? NaN, loo_I2: l?.I2 ?? NaN, loo_Q: l?.Q ?? NaN,
    };
  });
}

const COLUMNS = ['study', 'model', 'game', 'yi', 'vi', 'rstudent', 'dffits', 'cook_d', 'cov_r', 'tau2_del', 'QE_del', 'hat', 'weight', 'dfbetas',
  'influential', 'baujat_x', 'baujat_y', 'loo_estimate', 'loo_ci_lo', 'loo_ci_hi', 'loo_tau2', 'loo_I2', 'loo_Q'] as const;

/** reports/meta-influence.csv: a row per cell (undefined when there is none). */
export function influenceCsv(rows: readonly CellInfluence[]): string | undefined {
  if (rows.length === 0) return undefined;
  return toCsv(COLUMNS, rows.map((r) => COLUMNS.map((c) => (c === 'influential' ? String(r[c]) : r[c]))));
}

/** The studies holding an influential cell, in first-appearance order. */
export const influentialStudies = (rows: readonly CellInfluence[]): string[] => [...new Set(rows.filter((r) => r.influential).map((r) => r.study))];

/** The report's influence section: the rule, the influential cells by study (or that there are none), and their table. */
export function influenceBlocks(rows: readonly CellInfluence[]): Block[] {
  if (rows.length === 0) return [];
  const flagged = rows.filter((r) => r.influential);
  const studies = influentialStudies(rows);
  const rule = 'influential by metafor\'s rule: |DFFITS| > 3√(1/(k − 1)), Cook\'s distance above the median of χ²₁, hat > 3/k or |DFBETAS| > 1';
  const text = flagged.length === 0
    ? `No cell is ${rule} (${rows.length} cells).`
    : `${flagged.length} of ${rows.length} cells ${flagged.length === 1 ? 'is' : 'are'} ${rule} — in ${studies.length === 1 ? 'study' : 'studies'} `
      + `${studies.join(', ')}. Without ${flagged.length === 1 ? 'it' : 'each'} the overall estimate would be as the table shows.`;
  const blocks: Block[] = [{ kind: 'text', text }];
  if (flagged.length) {
    blocks.push({
      kind: 'table', id: 'meta-influence', caption: 'Influential cells (reports/meta-influence.csv has every cell)',
      columns: ['Study', 'Model', 'Game', 'Effect', 'rstudent', 'DFFITS', 'Cook\'s d', 'hat', 'Overall without it'],
      rows: flagged.map((r) => [r.study, r.model, r.game, num(r.yi), num(r.rstudent, 2), num(r.dffits, 2), num(r.cook_d, 3), num(r.hat, 3),
        `${num(r.loo_estimate).text} ${interval(r.loo_ci_lo, r.loo_ci_hi)}`]),
    });
  }
  return blocks;
}
