/** What each output file holds, shown beside its link in the reports' "Files" section. */
export const FILE_NOTES: Readonly<Record<string, string>> = {
  'table2.csv': 'Table 2: rates and counts per model, game and framing',
  'table3.csv': 'Table 3: R and action shift per model and pooled, with intervals',
  'comprehension.csv': 'comprehension probes: asked, correct and accuracy with its Wilson interval per model, game, framing and outcome',
  'comprehension-verdicts.csv': 'comprehension probes: accuracy per model and framing, and whether the framing is shown payoff-equivalent for the model',
  'digitization.csv': 'every digitized point: its click in image pixels, value, count and their ranges at ±K px',
  'family-robustness.csv': 'family robustness over every framing present',
  'framing-tests.csv': ('the R = 1 G-test, the bias-corrected R with its test-inversion interval and the shift\'s MOVER-Wilson interval, per pair, model ' +
    'and pooled'),
  'metrics.json': 'every statistic with its interval, the settings, the input and the regenerate command',
  'verification.md': 'the Appendix C checks, readable',
  'verification.json': 'the Appendix C checks, with the values they saw',
  'invalid.csv': 'valid, invalid and failed trials per cell',
  'lambda.csv': 'λ̂ per framing and V_λ per model and game',
  'compare.csv': 'each direct cell beside the reconstructed one, with the difference and its interval',
  'compare-headline.csv': 'Table 3 statistics of the direct run and of the reconstructed data',
};
