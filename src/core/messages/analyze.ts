import { q } from './text.js';
export const analyzeMsg = {
  synthetic: () => 'synthetic data: at least one model of this run answered through the simulated provider',
  noValidTrials: (path: string) => `${path}: the run has no valid trials to analyze`,
  missingPlannedCell: (path: string, model: string, game: string, framing: string, present: readonly string[] = []) =>
    (`${path}: model ${q(model)}, game ${q(game)} has no valid ${q(framing)} trials (every model–game needs both planned framings; see ` +
      `--base/--alt)${present.length ? `; the run's framings are ${present.map(q).join(', ')}` : ''}`),
  mergedTooLarge: (match: string, key: readonly string[]) =>
    `match ${q(match)} of ${key.map(q).join(', ')}: its counts summed over the factor levels merged into this cell add up past 4294967295, `
    + 'the most one match holds (keep the factor apart, or split the log)',
};
