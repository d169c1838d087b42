import { InvalidArgumentError, Option, type Command } from 'commander';
import { plan, PLAN_DEFAULTS, type PlanOptions } from '../commands/plan.js';
import { DEFAULTS } from '../commands/reproduce.js';
import { DEFAULT_ATTENUATION } from '../commands/flags.js';
import { table3Columns } from '../stats/table3.js';
import { parsePriceFlag, planStore, PRICE_HELP } from './price.js';
import { FLAG_LIMITS, MAX_REPS, parseIntFlag, parseRangeFlag, parseAttenuationFlag, terminalLogger } from './options.js';

/** Words joined as alternatives: "a", "a or b", "a, b or c". */
const orList = (words: readonly string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`);

export function registerPlan(program: Command): void {
  // Table 3's columns (stats/table3.ts), registered ones included, when the command is registered.
  const statistics = table3Columns().map((c) => c.column);
  program
    .command('plan')
    .description('Trials per cell needed for the pooled and per-model 95% intervals to reach a target half-width, and their cost')
    .argument('[store]', 'trial store of a pilot run giving the rates (and tokens per call); or give --data')
    .option('--data <file>', 'rates CSV giving the expected cooperation rates')
    .option('--store <file>', 'deprecated: give the store as the argument')
    .requiredOption('--target-halfwidth <h>', 'target half-width of the 95% interval', parseRangeFlag('--target-halfwidth', 0, 1, true))
    .option(`--statistic <${statistics.join('|')}>`, 'statistic whose interval is planned', (v: string) => {
      if (!statistics.includes(v)) throw new InvalidArgumentError(`--statistic: ${JSON.stringify(v)} is not ${orList(statistics)}`);
      return v;
    }, PLAN_DEFAULTS.statistic)
    .addOption(new Option('--direct', 'plan a direct run (samegame run): no attenuation, a = 1, as analyze reports direct runs (the default with --store)')
      .conflicts('attenuation'))
    .option('--attenuation <a>', 'conservative transform planned for '
      + `(default: ${DEFAULT_ATTENUATION.reconstructed} with --data, ${DEFAULT_ATTENUATION.direct} with --store or --direct)`,
      parseAttenuationFlag())
    .option('--base <name>', `base framing (default "${DEFAULTS.base}"; a store without it: its first framing)`)
    .option('--alt <name>', `alternative framing (default "${DEFAULTS.alt}"; a store without it: its next framing)`)
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), PLAN_DEFAULTS.seed)
    .option('--reps <n>', 'bootstrap replicates per planning step', parseIntFlag('--reps', 100, MAX_REPS), PLAN_DEFAULTS.reps)
    .option('--max-n <n>', 'largest trials per cell considered', parseIntFlag('--max-n', 2, FLAG_LIMITS.maxN), PLAN_DEFAULTS.maxN)
    .option('--tokens-per-call <n>', 'tokens per call for the cost (default: the store\'s mean)', parseRangeFlag('--tokens-per-call', 0,
      FLAG_LIMITS.tokensPerCall, true))
    .option('--until <rule>', 'also plan an adaptive run\'s stop rule (key=value pairs as run --until, e.g. '
      + 'target=shift,half_width=0.05,max_trials=300): its expected calls at these rates, simulated, beside the fixed design; '
      + 'a repeated pilot store: the rule (with max_trials) simulated on draws from its matches')
    .option('--price <in,out>', `${PRICE_HELP}, for the cost column (IN,OUT needs a pilot store's input and output tokens)`, parsePriceFlag())
    .option('-q, --quiet', 'print only the plan')
    .action(async (store: string | undefined, o: Omit<PlanOptions, 'logger'> & { quiet?: boolean }) => {
      const logger = terminalLogger(o.quiet);
      await plan({ ...o, store: planStore(store, o.store, logger), logger });
    });
}
