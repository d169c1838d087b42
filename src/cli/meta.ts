import type { Command } from 'commander';
import { TAU2_METHODS, type Tau2Method } from '../stats/meta/tau2.js';
import { EFFECT_MEASURES, type EffectMeasure } from '../stats/meta/effect-size.js';
import { META_TESTS, type MetaTest, type Pooling } from '../stats/meta/univariate.js';
import { collect, oneOf, terminalLogger } from './options.js';
import { addFigureFlags, addLatexFlag, addNamesFlags, figureStyleOf, type FigureFlags, type LatexFlags } from './figure-flags.js';

export function registerMeta(program: Command): void {
  const cmd = program
    .command('meta')
    .description('Random-effects meta-analysis of framing effects across games, models and studies (a manifest of studies, or an effect table)')
    .argument('[manifest]', 'manifest YAML listing the studies (data/meta/manifest.schema.json)')
    .option('--effects <file>', 'effect table CSV (study, model, game, yi, vi; further columns are moderators), instead of a manifest')
    .option('--out <dir>', 'output directory (reports/ and figures/ go under it)', '.')
    .option('--effect <measure>', `effect size: ${EFFECT_MEASURES.join(', ')} (default: the manifest's, else shift)`, oneOf('--effect', EFFECT_MEASURES))
    .option('--tau2 <method>', `τ² estimator: ${TAU2_METHODS.join(', ')} (default: the manifest's, else REML)`, oneOf('--tau2', TAU2_METHODS))
    .option('--test <test>', 'adhoc (Hartung–Knapp with max(1, s²), default), knha (Hartung–Knapp) or z', oneOf('--test', META_TESTS))
    .option('--pooling <kind>', 'random (default) or fixed', oneOf('--pooling', ['random', 'fixed'] as const))
    .option('--moderator <name>', 'moderator of the meta-regression (repeatable; replaces the manifest\'s list)', collect)
    .option('--pool-synthetic', 'pool synthetic studies (simulated models) with real ones; by default they are pooled apart, as "synthetic …" scopes')
    .option('-q, --quiet', 'print only the overall estimate');
  addLatexFlag(addFigureFlags(addNamesFlags(cmd, false)))
    .action(async (manifest: string | undefined, o: FigureFlags & LatexFlags & { effects?: string; out: string; effect?: EffectMeasure; tau2?: Tau2Method;
      test?: MetaTest; pooling?: Pooling; moderator?: string[]; names?: string; quiet?: boolean; poolSynthetic?: boolean }) => {
      const { meta } = await import('../commands/meta-outputs.js');
      await meta({ manifest, effects: o.effects, out: o.out, effect: o.effect, tau2: o.tau2, test: o.test, pooling: o.pooling, moderators: o.moderator,
        namesFile: o.names, poolSynthetic: o.poolSynthetic, figureStyle: figureStyleOf(o), latexWidth: o.latexWidth, quiet: o.quiet,
        logger: terminalLogger(o.quiet) });
    });
}
