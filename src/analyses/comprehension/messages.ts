/** Messages of the comprehension outputs (reports/comprehension.csv, the Table 3 marks, the report's section). */
export const comprehensionMsg = {
  table3Note: (each: readonly string[]) =>
    `Not shown payoff-equivalent for this model (comprehension probes, reports/comprehension.csv): the R and shift of ${each.join('; ')}.`,
  sectionText: (threshold: number, marked: number) =>
    ('Each model was asked, under each framing\'s story, how many points each player gets in each outcome (docs/methods.md §18c). A framing is ' +
      `not shown payoff-equivalent for a model when its accuracy is below ${threshold}, or below another framing's of the same model by more than ` +
      `sampling error (95% Newcombe interval of the difference). ${marked === 0 ? 'Every framing is shown.'
        : `${marked} framing(s) are not shown; their R and shift carry the mark in Table 3.`} ` +
      'Probes measure whether a model states the game\'s payoffs under a story, not that it decides on them.'),
  flagged: (model: string, framing: string, correct: number, asked: number, reason: string) =>
    `comprehension: ${framing} is not shown payoff-equivalent for ${model} (${correct}/${asked} probes answered with the game's payoff; ${reason})`,
};
