import { meta, type EffectRow } from '../../src/analyses/meta/index.js';
import { META_DEFAULTS } from '../../src/stats/meta/univariate.js';

/** The notes of a meta-analysis with a repeated study and a one-cell scope. */
export function notes(): string[] {
  const rows = [['a', 'M', 'g1', 0.1, 0.01], ['a', 'M', 'g2', 0.2, 0.01], ['b', 'M', 'g1', 0.1, 0.01], ['b', 'M', 'g2', 0.2, 0.01], ['c', 'N', 'g1', 0.3, 0.02]]
    .map(([study, model, game, yi, vi]) => ({ study, model, game, yi, vi, moderators: {} }) as EffectRow);
  return [...meta.analyze(rows, { ...META_DEFAULTS, effect: 'shift', moderators: [] }).notes];
}
