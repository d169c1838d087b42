/** Messages of the analysis of an adaptive run (the report's section). */
export const adaptiveMsg = {
  sectionText: (rule: string, method: string, source: string, confidence: number) =>
    `The run stopped each unit by its rule (${rule}) after the first look, every wave, at which its ${method} (${source}) met it. ` +
    `Each interval below is that sequence's ${Math.round(confidence * 100)}% interval at the unit's stopping look: it holds at every sample size at once, ` +
    'so it stays valid although when to stop depended on the data (docs/methods.md §24).',
  notFixed: 'The fixed-n intervals of Table 3 (table3.csv) assume a sample size fixed in advance; here the sample size depended on the answers, ' +
    'so their coverage is not guaranteed and the intervals of this section are the ones to read.',
  totals: (early: number, units: number, used: number, fixed: number) =>
    `${early} of ${units} units stopped before max_trials; ${used.toLocaleString('en-US')} trials used of the fixed design's ` +
    `${fixed.toLocaleString('en-US')} (${Math.max(0, fixed - used).toLocaleString('en-US')} saved).`,
};
