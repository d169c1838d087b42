/**
 * the context-enrichment summary's two metrics on the selective layout, evaluated on the same bootstrap replicates as
 * surface sensitivity and world responsiveness:
 *   paraphrase invariance  = mean over worlds of the mean JSD between the canonical format and each
 *                            other format (the divergence, nats, 0…ln 2), and the same with the JS
 *                            distance √JSD (what scipy's `jensenshannon` in the context-enrichment summary's sketch returns);
 *   directional sensitivity = (p_higher − p_lower) on the canonical format, i.e. (p_new − p_old)
 *                            times the registered direction.
 * Names: JSD[model | condition], JSDIST[model | condition], DS[model | condition].
 */
import { paraphraseInvariance, directionalSensitivity } from './paraphrase.js';
import type { SelectiveLayout } from './estimand.js';
import { stat } from '../../core/names.js';
import type { Estimand } from '../../stats/bootstrap.js';

export function paraphraseEstimand(layout: SelectiveLayout): Estimand {
  const names = layout.groups.flatMap((g) => [stat('JSD', g.model, g.condition), stat('JSDIST', g.model, g.condition), stat('DS', g.model, g.condition)]);
  const scratch = new Float64Array(Math.max(1, layout.spec.formats.length - 1));
  return {
    names,
    evaluate(rates, out) {
      layout.groups.forEach((g, i) => {
        let div = 0, dist = 0;
        for (const row of g.cells) {
          for (let f = 1; f < row.length; f++) scratch[f - 1] = rates[row[f]];
          const r = paraphraseInvariance(rates[row[0]], scratch.subarray(0, row.length - 1));
          div += r.divergence;
          dist += r.distance;
        }
        out[3 * i] = div / g.cells.length;
        out[3 * i + 1] = dist / g.cells.length;
        out[3 * i + 2] = directionalSensitivity(rates[g.cells[1][0]], rates[g.cells[0][0]], 1);
      });
    },
  };
}
