import type { Command } from 'commander';
import { coverage, COVERAGE_DEFAULTS, TWO_FRAMING_DEFAULTS, type CoverageMethod, type CoverageTruth } from '../commands/coverage.js';
import {
  collect, addDigitizedFlags, addLogFlags, checkLogFlags, INTERVAL_FLAGS, oneOf, parseIntFlag, parseAttenuationFlag, terminalLogger,
} from './options.js';
import { cliMsg } from './messages.js';
import { DEFAULT_ATTENUATION } from '../commands/flags.js';

/** Simulations and replicates per simulation at most: 10,000 × 100,000 is hours of work already. */
export const MAX_SIMS = 10_000;
export const MAX_COVERAGE_REPS = 100_000;

interface CoverageFlags {
  data?: string; trials?: string[]; format?: string; rounds?: string; shortMatches?: 'drop' | 'keep'; cluster?: string; digitized?: string; layout?: string;
    pixelError?: number; out: string; run?: number; sims: number; reps: number; seed: number; interval: CoverageMethod | 'both';
  truth: CoverageTruth; attenuation?: number; base?: string; alt?: string; quiet?: boolean;
}

export function registerCoverage(program: Command): void {
  addDigitizedFlags(addLogFlags(program
    .command('coverage')
    .description(('Measure how often the intervals hold the truth on your own design: simulate it (clustered cells match by match) from rates drawn around ' +
      'the observed ones, analyze each simulation'))
    .argument('[store]', 'trial store written by `samegame run` (instead of --data)')
    .option('--data <file>', 'rates CSV giving the cells and n (default: the shipped data)')
    .option('--trials <file>',
      'per-trial CSV or JSONL giving the cells and n (instead of --data; attenuation defaults to none); or a published log with --format (repeatable)', collect)
    .option('--cluster <column>',
      'cluster column of the per-trial file: its matches are simulated as they are (beta-binomial, within-match correlation from the data)')
    .option('--digitized <file>', 'WebPlotDigitizer project (.tar or wpd.json) giving the cells and n, with --layout (instead of --data)')
    .option('--out <dir>', 'output directory (reports/ and figures/ go under it)', '.')
    .option('--run <id>', 'run id within the store (default: the latest)', parseIntFlag('--run', 1))
    .option('--sims <n>', `simulated data sets (at most ${MAX_SIMS})`, parseIntFlag('--sims', 1, MAX_SIMS), COVERAGE_DEFAULTS.sims)
    .option('--reps <n>', `bootstrap replicates per simulation (at most ${MAX_COVERAGE_REPS})`, parseIntFlag('--reps', 1, MAX_COVERAGE_REPS),
      COVERAGE_DEFAULTS.reps)
    .option('--interval <method>', 'percentile, bca, cluster-robust, cluster-bootstrap or both (every interval the analysis offers for the input)',
      oneOf('--interval', [...INTERVAL_FLAGS, 'both'] as const), 'both')
    .option('--truth <kind>',
      'jeffreys (drawn around the observed rates for each simulation), observed (the observed rates) or equal (framings made equal: R = 1)', oneOf('--truth',
        ['jeffreys', 'observed', 'equal'] as const), COVERAGE_DEFAULTS.truth)
    .option('--seed <n>', 'seed of the simulations and their bootstraps', parseIntFlag('--seed'), TWO_FRAMING_DEFAULTS.seed)
    .option('--attenuation <a>',
      `attenuation (default ${DEFAULT_ATTENUATION.reconstructed.toFixed(2)} for --data, ${DEFAULT_ATTENUATION.direct} for a store or --trials)`,
      parseAttenuationFlag())
    .option('--base <name>', 'base framing')
    .option('--alt <name>', 'alternative framing')
    .option('-q, --quiet', 'print only the table')))
    .action(async (store: string | undefined, o: CoverageFlags) => {
      checkLogFlags(o);
      // Progress on stderr: the redrawn line, or a line at each tenth when stderr is not a terminal.
      const logger = terminalLogger({ quiet: o.quiet, plain: { tenth: cliMsg.progressLine } });
      await coverage({ ...o, store, runId: o.run, logger });
    });
}
