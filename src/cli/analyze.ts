import type { Command } from 'commander';
import type { TablePooling } from '../commands/pipeline/table-pooling.js';
import { addPoolingFlag } from './pooling.js';
import { InvalidArgumentError } from 'commander';
import { DEFAULTS } from '../commands/reproduce.js';
import type { ShortMatches } from '../commands/flags.js';
import {
  collect, addExpectFlag, addLogFlags, INTERVAL_HELP, intervalSettings, SIMULTANEOUS_HELP, MAX_REPS, parseIntFlag, parseIntervalFlag,
  parseAttenuationFlag, parseNumberFlag, parseUnitFlag, terminalLogger, type IntervalFlag,
} from './options.js';
import { analyze, DEFAULT_THRESHOLDS } from '../commands/analyze.js';
import { addFigureFlags, addLatexFlag, addNamesFlags, figureStyleOf, type FigureFlags, type LatexFlags } from './figure-flags.js';
import { cliMsg } from './messages.js';

/** --map-model DIRECT=RECONSTRUCTED, repeatable. */
export function collectMap(v: string, acc: Record<string, string> | undefined): Record<string, string> {
  const i = v.indexOf('=');
  if (i <= 0 || i === v.length - 1) throw new InvalidArgumentError(cliMsg.badMap(v));
  // A null-prototype map: a model named "__proto__" or "constructor" is a key like any other.
  const out: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, acc);
  out[v.slice(0, i)] = v.slice(i + 1);
  return out;
}

export function registerAnalyze(program: Command): void {
  const cmd = program
    .command('analyze')
    .description(('Analyze a trial store with the same estimands as reproduce (direct runs swap in for reconstructed data), or published logs of repeated ' +
      'play (--trials FILE --format NAME)'))
    .argument('[store]', 'trial store written by `samegame run` (or give --trials)')
    .option('--trials <file>', 'a published log of repeated play, read through --format (repeatable: files in order)', collect)
    .option('--aggregates <file>', 'an aggregates table of a log (CSV or Parquet: `samegame sql`\'s query run elsewhere); --format names its log format')
    .option('--factor <name>',
      'repeated play: a decision factor to keep in the cells, after the opponent (e.g. persona; a log format\'s personality); repeatable', collect)
    .option('--models <names>', 'with --trials: keep only these players (comma-separated)',
      (v: string) => v.split(',').map((s) => s.trim()).filter((s) => s !== ''))
    .option('--out <dir>', 'output directory (default: beside the store, named after it)')
    .option('--run <id>', 'run id within the store (default: the latest)', parseIntFlag('--run', 1))
    .option('--compare <file>', 'reconstructed rates CSV to set beside the direct run')
    .option('--map-model <direct=reconstructed>', 'match a direct model to a reconstructed one (repeatable)', collectMap)
    .option('--base <name>', 'base framing (default: business when present)')
    .option('--alt <name>', 'alternative framing (default: friend-sharing when present)')
    .option('--attenuation <a>', 'apply the conservative transform (direct runs default to 1 = none)', parseAttenuationFlag())
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), DEFAULTS.seed)
    .option('--reps <n>', 'bootstrap replicates', parseIntFlag('--reps', 1, MAX_REPS), DEFAULTS.reps)
    .option('--max-surface-sensitivity <f>', 'context-enrichment runs: largest surface sensitivity still invariant (fraction)',
      parseUnitFlag('--max-surface-sensitivity'), DEFAULT_THRESHOLDS.maxSurface)
    .option('--min-world-responsiveness <f>', 'context-enrichment runs: the world-responsiveness interval must lie above this (fraction)',
      parseUnitFlag('--min-world-responsiveness'), DEFAULT_THRESHOLDS.minWorldLo)
    .option('--interval <method>',
      (`${INTERVAL_HELP}; a direct run at a = 1 with unclustered cells: Table 3's R by inverting the R = 1 test and the shift's MOVER-Wilson interval ` +
        `unless --interval is given`), parseIntervalFlag).option('--simultaneous', SIMULTANEOUS_HELP)
    .option('--verify-store', 'check the whole store (integrity_check) before reading it; a quick check is always made')
    .option('--comprehension-threshold <f>',
      ('a run with comprehension probes: a framing whose accuracy is below this (or below another framing\'s by more than sampling error) is marked ' +
        '"not shown payoff-equivalent for this model" beside its R and shift (default 0.9)'),
      parseNumberFlag('--comprehension-threshold', { min: 0, max: 1, minOpen: true }, 'a number in (0, 1]'))
    .option('-q, --quiet', 'print only the table');
  addLatexFlag(addFigureFlags(addNamesFlags(addExpectFlag(addLogFlags(addPoolingFlag(cmd)), '; two-framing runs only'))))
    .action(async (store: string | undefined, o: { trials?: string[]; aggregates?: string;
      factor?: string[]; names?: string; players: 'models' | 'all'; format?: string;
      rounds?: string; shortMatches?: ShortMatches; models?: string[]; expect?: string; verdictAlpha?: number; publishedReps?: number;
        publishedMethod?: 'percentile' | 'bca'; out?: string; run?: number; compare?: string; mapModel?: Record<string, string>; base?: string; alt?: string;
      attenuation?: number; seed: number; reps: number; interval?: IntervalFlag; simultaneous?: boolean; quiet?: boolean; maxSurfaceSensitivity: number;
        minWorldResponsiveness: number;
      verifyStore?: boolean; pooling?: TablePooling; comprehensionThreshold?: number } & FigureFlags & LatexFlags) => {
      // A threshold left at its default is not given: analyze refuses only what the user gave for an input that does not take it.
      const given = (key: string, v: number) => (cmd.getOptionValueSource(key) === 'default' ? undefined : v);
      await analyze({
        store, trials: o.trials, aggregates: o.aggregates, format: o.format,
          rounds: o.rounds, shortMatches: o.shortMatches, models: o.models, runId: o.run, out: o.out,
          factors: o.factor, namesFile: o.names, players: o.players, figureStyle: figureStyleOf(o), latexWidth: o.latexWidth,
        compare: o.compare, modelMap: o.mapModel, base: o.base, alt: o.alt, attenuation: o.attenuation, seed: given('seed', o.seed),
          reps: given('reps', o.reps),
          ...(o.interval ? intervalSettings(o.interval) : {}), simultaneous: o.simultaneous,
        expect: o.expect, verdictAlpha: o.verdictAlpha, publishedReps: o.publishedReps, publishedMethod: o.publishedMethod,
          thresholds: { maxSurface: given('maxSurfaceSensitivity', o.maxSurfaceSensitivity), minWorldLo: given('minWorldResponsiveness',
            o.minWorldResponsiveness) },
        verifyStore: o.verifyStore, pooling: o.pooling, comprehensionThreshold: o.comprehensionThreshold, logger: terminalLogger(o.quiet), failOnChecks: true,
      });
    });
}
