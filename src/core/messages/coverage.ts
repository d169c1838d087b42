/** Messages of `samegame coverage`. */
const q = (s: string) => JSON.stringify(s);

export const coverageMsg = {
  dataAndStore: () => 'give one input: --data FILE, --trials FILE or a STORE',
  clustered: (path: string) => `${path}: coverage simulates independent decisions; a clustered per-trial file cannot be simulated that way (drop --cluster to measure coverage of the unclustered bootstrap)`,
  notTwoFraming: (path: string) => `${path}: coverage needs a model × game × framing run; this one is a context-enrichment run`,
  missingPlanned: (path: string, model: string, game: string, framing: string) =>
    `${path}: model ${q(model)}, game ${q(game)} has no ${q(framing)} cell (coverage simulates the planned pair; choose it with --base/--alt)`,
  title: (sims: number, truth: string, n: string) =>
    `Coverage of 95 % bootstrap intervals: ${sims} simulations of this design (${n}), truth = ${truth}`,
  progressLine: (done: number, total: number) => `coverage: ${done}/${total} simulations`,
};
