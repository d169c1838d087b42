/** User-facing messages of `samegame analyze`, `samegame plan` and the side-by-side comparison. */
const q = (s: string) => JSON.stringify(s);

export const analyzeMsg = {
  emptyStore: (path: string) => `${path}: the store holds no runs`,
  storeDamaged: (file: string, detail: string) => `${file}: the trial store is damaged or not one samegame wrote (${detail})`,
  storeRefused: (file: string, detail: string) => `${file}: ${detail}`,
  foldCollisionWhat: (a: string, b: string, game: string) => `${a} and ${b} would both be the game ${q(game)}: rename a level`,
  unscoredLogprobsWhat: (n: number) =>
    `${n} ok trial${n === 1 ? '' : 's'} of a cell scored by first-token log-probabilities carr${n === 1 ? 'ies' : 'y'} no probability (a store written before such trials were stored as invalid): run the design again into a new store, or export the run and read the texts' actions with --trials`,
  noSuchRun: (path: string, id: number, ids: number[]) => `${path}: no run ${id} (runs: ${ids.join(', ')})`,
  noValidTrials: (path: string) => `${path}: the run has no valid trials to analyze`,
  missingPlannedCell: (path: string, model: string, game: string, framing: string, present: readonly string[] = []) =>
    `${path}: model ${q(model)}, game ${q(game)} has no valid ${q(framing)} trials (every model–game needs both planned framings; see --base/--alt)${present.length ? `; the run's framings are ${present.map(q).join(', ')}` : ''}`,
  noLambdaGap: (game: string) => `λ̂ undefined for game ${q(game)}: its expected payoff gap at q = 0.5 is 0 or its payoffs are unknown`,
  compareNoOverlap: (file: string) => `${file}: no cell of the comparison file matches a cell of the run (match models with --map-model DIRECT=RECONSTRUCTED)`,
  badMap: (v: string) => `--map-model: ${q(v)} is not DIRECT=RECONSTRUCTED`,
  needDataOrStore: () => 'give --data FILE or --store FILE (not both)',
  planTwoFramingOnly: (path: string, factors: readonly string[]) =>
    `${path}: the run has the factors ${factors.join(', ')} (a context-enrichment design); plan covers the two-framing statistics R and shift only`,
  framingPair: (base: string, alt: string) => `planned framing pair: ${base} (base) vs ${alt} (alternative); choose another with --base/--alt`,
  wrongDesignKind: (path: string, is: string, wanted: string) => `${path}: the run is a ${is} design; this function analyzes ${wanted} runs (use analyze)`,
  synthetic: () => 'synthetic data: at least one model of this run answered through the simulated provider',
  planAttenuation: (a: string, why: 'flag' | 'direct' | 'reconstructed') => (why === 'flag'
    ? `Planned for attenuation a = ${a} (--attenuation).`
    : why === 'direct'
      ? `Planned for a direct run: no attenuation (a = ${a}), as analyze reports direct runs.`
      : `Planned for reconstructed rates at attenuation a = ${a}, the conservative transform; analyze reports a direct run at a = 1 (no attenuation): plan one with --direct.`),
  repeatedRun: (path: string, id: number) =>
    `${path}: run ${id} is a repeated game (its design has a play block); these analyses read one-shot runs only — analyze the store itself (samegame analyze STORE: repeated play, clustered by match)`,
  expectOneShotOnly: (path: string) => `--expect: ${path} holds a repeated game; published values are compared with the tables of one-shot two-framing runs only`,
  compareOneShotOnly: (path: string) => `${path}: --compare sets reconstructed one-shot rates beside a one-shot run; this run is a repeated game`,
  thinIntervals: (statistics: number, cells: number, total: number, min: number) =>
    `${statistics} statistic${statistics === 1 ? '' : 's'} without an interval (lo, hi empty): ${statistics === 1 ? 'its' : 'their'} decisions come from fewer than ${min} matches, too few for any interval to hold its level (the tables show the value of those matches); ${cells} of ${total} cells have fewer than ${min} matches`,
  fewMatches: (cells: number, total: number, few: number) =>
    `few matches: ${cells} of ${total} cells have fewer than ${few} matches, so their intervals rest on G − 1 < ${few - 1} degrees of freedom (flagged in the tables)`,
  fewMatchesFlag: (matches: number, df: number) => (Math.abs(df - (matches - 1)) < 1e-9
    ? `few matches: interval from G − 1 = ${matches - 1} degrees of freedom`
    : `few matches: interval from ${df.toFixed(1)} degrees of freedom (G = ${matches} matches of unequal length; Satterthwaite)`),
  noIntervalFlag: (matches: number, min: number) => `${matches} match${matches === 1 ? '' : 'es'}: no interval (fewer than ${min})`,
  roundsOneFraming: (path: string) => `--rounds: ${path} has one framing, so no two-framing tables are made; cells, rounds, reactions and the end game read every round`,
  roundsRepeatedOnly: (path: string) => `${path}: --rounds selects rounds of repeated play (a play design or --trials logs); this run is a one-shot game`,
  factorRepeatedOnly: (path: string) => `${path}: --factor keeps a decision factor of repeated play (a play design or --trials logs); a one-shot run's factors are its cells already`,
  unknownDecisionFactor: (path: string, factor: string, known: readonly string[]) =>
    `${path}: --factor ${factor}: no decision has a factor of that name${known.length ? ` (its decisions have: ${known.join(', ')})` : ' (its decisions have no further factors)'}`,
  unfinishedMatches: (path: string, open: number, planned: number) =>
    `${path}: ${open} of the design's ${planned} matches are not over (the run is still going, or was stopped): their missing rounds are missing from every table — run the same command again to finish them`,
  notRepeated: (path: string, id: number) => `${path}: run ${id} is not a repeated game (its design has no play block)`,
};
