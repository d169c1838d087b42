import type { CellTable } from '../../core/cells.js';
import { cellSize } from '../../core/cells.js';
import type { Estimand, StatInfo } from '../../stats/bootstrap.js';
import { LAMBDA_CAP, lambdaHat } from '../../stats/qre.js';
import { stat } from '../../core/names.js';
import type { TwoFramingLayout } from './estimand.js';

/** λ̂ is clamped to [0, LAMBDA_CAP]. */
export const LAMBDA: StatInfo = { kind: 'lambda', bounds: [0, LAMBDA_CAP] };
/** V_λ = (λ̂_b − λ̂_s)²/4 ∈ [0, LAMBDA_CAP²/4], 0 at equal λ̂. */
export const V_LAMBDA: StatInfo = { kind: 'lambda-variance', bounds: [0, (LAMBDA_CAP * LAMBDA_CAP) / 4], biasedAwayFrom: 'lower' };

/**
 * The payoff-sensitivity diagnostic of Same Game, Different Story §3.4 for every model–game: λ̂ per framing of the
 * planned pair and V_λ = population variance of the two λ̂ (i.e. (λ̂_b − λ̂_s)²/4).
 * `gaps` gives Δu(q = 0.5) per game; a game missing there or with Δu = 0 yields NaN (said in
 * the report: there is no payoff gap to be sensitive to).
 * Names: lambda[model | game | framing], Vlambda[model | game].
 */
export function lambdaEstimand(table: CellTable, layout: TwoFramingLayout, gaps: ReadonlyMap<string, number>): Estimand {
  const names: string[] = [];
  const info: StatInfo[] = [];
  for (const p of layout.pairs) {
    names.push(stat('lambda', p.model, p.game, layout.base), stat('lambda', p.model, p.game, layout.alt), stat('Vlambda', p.model, p.game));
    info.push(LAMBDA, LAMBDA, V_LAMBDA);
  }
  const n = table.cells.map((c) => cellSize(c.obs));
  const du = layout.pairs.map((p) => gaps.get(p.game) ?? NaN);
  return {
    names,
    info,
    evaluate(rates, out) {
      layout.pairs.forEach((p, i) => {
        // x = rate · T recovers the count of a binary cell exactly (and Σp for probability cells).
        const lb = lambdaHat(rates[p.baseIndex] * n[p.baseIndex], n[p.baseIndex], du[i]);
        const ls = lambdaHat(rates[p.altIndex] * n[p.altIndex], n[p.altIndex], du[i]);
        out[3 * i] = lb;
        out[3 * i + 1] = ls;
        out[3 * i + 2] = (lb - ls) ** 2 / 4;
      });
    },
  };
}
