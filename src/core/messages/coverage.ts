/** Messages of `samegame coverage`. */
const q = (s: string) => JSON.stringify(s);

export const coverageMsg = {
  dataAndStore: () => 'give one input: --data FILE, --trials FILE or a STORE',
  clustered: (matches: number, icc: number) =>
    `clustered cells (${matches} matches): each simulation redraws every cell's matches as they are (beta-binomial, within-match correlation ${icc.toFixed(3)} estimated from the data)`,
  notTwoFraming: (path: string) => `${path}: coverage needs a model × game × framing run; this one is a context-enrichment run`,
  missingPlanned: (path: string, model: string, game: string, framing: string) =>
    `${path}: model ${q(model)}, game ${q(game)} has no ${q(framing)} cell (coverage simulates the planned pair; choose it with --base/--alt)`,
  title: (sims: number, truth: string, n: string) =>
    `Coverage of the 95 % intervals: ${sims} simulations of this design (${n}), truth = ${truth === 'jeffreys' ? 'drawn around the observed rates (Jeffreys)' : truth}`,
  simulating: (sims: number, n: string) => `simulating ${sims} data sets of this design (${n}) and analysing each`,
  progressLine: (done: number, total: number) => `coverage: ${done}/${total} simulations`,
};
