/** Messages of the analysis of an adaptive run (the report's section). */
export const adaptiveMsg = {
  sectionText: (rule: string, method: string, source: string, confidence: number) =>
    `The run stopped each unit by its rule (${rule}) after the first look, every wave, at which its ${method} (${source}) met it. ` +
    `Each interval below is that sequence's ${Math.round(confidence * 100)}% interval at the unit's stopping look: it holds at every sample size at once, ` +
    'so it stays valid although when to stop depended on the data (docs/methods.md §24).',
  notFixed: 'The fixed-n intervals of Table 3 (table3.csv) assume a sample size fixed in advance; here the sample size depended on the answers, ' +
    'so their coverage is not guaranteed and the intervals of this section are the ones to read.',
  totals: (early: number, units: number, used: number, fixed: number, noun = 'trials') =>
    `${early} of ${units} units stopped before max_trials; ${used.toLocaleString('en-US')} ${noun} used of the fixed design's ` +
    `${fixed.toLocaleString('en-US')} (${Math.max(0, fixed - used).toLocaleString('en-US')} saved).`,
  calls: (used: number, fixed: number) =>
    `Those matches made ${used.toLocaleString('en-US')} calls (decisions, at most: a forfeited match ends early) of the fixed design's ` +
    `${fixed.toLocaleString('en-US')} (${Math.max(0, fixed - used).toLocaleString('en-US')} saved).`,
  byMatch: 'In repeated play the match is the unit of sampling: a match is played whole, and its observation is the cooperation rate of ' +
    'seat 1 (the model) over its rounds, in [0, 1]; the rounds of a match depend on each other, the matches do not, so the sequence runs over ' +
    'matches (a shift: the difference of the two framings\' rates over pairs of matches played in lockstep).',
  notFixedMatches: 'The fixed-n intervals of the tables below assume a number of matches fixed in advance; here it depended on the answers, ' +
    'so their coverage is not guaranteed and the intervals of this section are the ones to read.',
};
