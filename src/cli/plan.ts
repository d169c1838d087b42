import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';
import { readRates } from '../sources/rates-csv.js';
import { TrialStore } from '../live/store/store.js';
import { pickRun, readStore, storeTable } from '../sources/store.js';
import { planTrials, type PlanStatistic } from '../analyses/precision/plan.js';
import { designFacts } from '../analyses/compare/design-facts.js';
import { DEFAULTS } from '../commands/reproduce.js';
import { levels, type CellTable } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { analyzeMsg } from '../core/messages/analyze.js';
import { textTable } from '../analyses/two-framing/terminal.js';
import { fixed } from '../core/format.js';
import { FLAG_LIMITS, MAX_REPS, parseIntFlag, parseRangeFlag, parseUnitFlag, terminalLogger } from './options.js';

interface PlanFlags {
  data?: string; store?: string; targetHalfwidth: number; statistic: PlanStatistic; attenuation?: number;
  base: string; alt: string; seed: number; reps: number; maxN: number;
  tokensPerCall?: number; price?: number;
}

/** Mean tokens per call of a stored run (input + output), streamed. */
function storedTokensPerCall(store: TrialStore, runId: number): number | undefined {
  let calls = 0, tokens = 0;
  for (const t of store.trials(runId)) {
    if (t.inputTokens === null && t.outputTokens === null) continue;
    calls++; tokens += (t.inputTokens ?? 0) + (t.outputTokens ?? 0);
  }
  return calls ? tokens / calls : undefined;
}

export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description('Trials per cell needed for the pooled and per-model 95% intervals to reach a target half-width, and their cost')
    .option('--data <file>', 'rates CSV giving the expected cooperation rates')
    .option('--store <file>', 'trial store of a pilot run giving the rates (and tokens per call)')
    .requiredOption('--target-halfwidth <h>', 'target half-width of the 95% interval', parseRangeFlag('--target-halfwidth', 0, 1, true))
    .option('--statistic <R|shift>', 'statistic whose interval is planned', (v: string) => {
      if (v !== 'R' && v !== 'shift') throw new InvalidArgumentError(`--statistic: ${JSON.stringify(v)} is not R or shift`);
      return v;
    }, 'shift')
    .option('--attenuation <a>', 'conservative transform (default: 0.7 with --data, 1 with --store)', parseUnitFlag('--attenuation'))
    .option('--base <name>', 'base framing', DEFAULTS.base)
    .option('--alt <name>', 'alternative framing', DEFAULTS.alt)
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), DEFAULTS.seed)
    .option('--reps <n>', 'bootstrap replicates per planning step', parseIntFlag('--reps', 100, MAX_REPS), 2000)
    .option('--max-n <n>', 'largest trials per cell considered', parseIntFlag('--max-n', 2, FLAG_LIMITS.maxN), 100_000)
    .option('--tokens-per-call <n>', 'tokens per call for the cost (default: the store\'s mean)', parseRangeFlag('--tokens-per-call', 0, FLAG_LIMITS.tokensPerCall, true))
    .option('--price <usd>', 'blended USD per 1M tokens, for the cost column', parseRangeFlag('--price', 0, FLAG_LIMITS.price))
    .action((o: PlanFlags) => {
      if ((o.data === undefined) === (o.store === undefined)) throw new UserError(analyzeMsg.needDataOrStore());
      const logger = terminalLogger();
      let table: CellTable;
      let tokensPerCall = o.tokensPerCall;
      let base = o.base, alt = o.alt;
      if (o.data) {
        table = readRates(resolve(o.data), { base, alt, displayPath: o.data }).table;
      } else {
        const store = readStore(o.store!, () => TrialStore.openExisting(o.store!));
        try {
          const { run, st } = readStore(o.store!, () => {
            const r = pickRun(store, o.store!);
            return { run: r, st: storeTable(store, r) };
          });
          // Planning simulates the two-framing statistics; a context-enrichment run has other ones.
          if (st.extraFactors.length) throw new UserError(analyzeMsg.planTwoFramingOnly(o.store!, st.extraFactors));
          table = st.table;
          tokensPerCall ??= readStore(o.store!, () => storedTokensPerCall(store, run.id));
          const fr = levels(table, 'framing');
          if (!fr.includes(base)) base = fr[0];
          if (!fr.includes(alt)) alt = fr[1] ?? fr[0];
          if (readStore(o.store!, () => designFacts(run.designJson)).simulated.length) logger.warn(analyzeMsg.synthetic());
        } finally { store.close(); }
      }
      const attenuation = o.attenuation ?? (o.data ? DEFAULTS.attenuation : 1);
      const res = planTrials(table, {
        settings: { seed: o.seed, reps: o.reps, attenuation, base, alt },
        statistic: o.statistic, halfWidth: o.targetHalfwidth, maxN: o.maxN, logger,
      });
      const cells = table.cells.length;
      const rows = [['pooled', res.nPooled], ['every model and pooled', res.nModels]] as const;
      const cost = (n: number) => {
        const calls = n * cells;
        const tok = tokensPerCall === undefined ? undefined : calls * tokensPerCall;
        const price = tok === undefined || o.price === undefined ? undefined : (tok / 1e6) * o.price;
        return [String(calls), tok === undefined ? 'unknown (--tokens-per-call)' : String(Math.round(tok)), price === undefined ? '—' : `$${price.toFixed(2)}`];
      };
      process.stdout.write(`Plan: 95% interval of ${o.statistic} with half-width ≤ ${o.targetHalfwidth} (attenuation ${attenuation}, ${cells} cells)\n`);
      process.stdout.write(textTable(['target', 'trials per cell', 'calls', 'tokens', 'cost'],
        rows.map(([label, n]) => (n === undefined ? [label, `> ${o.maxN}`, '—', '—', '—'] : [label, String(n), ...cost(n)]))) + '\n');
      process.stdout.write('\nHalf-widths at the planned n (planning simulation):\n');
      process.stdout.write(textTable(['group', 'n', 'half-width'], res.achieved.map((a) => [a.group, String(a.n), fixed(a.halfWidth, 4)])) + '\n');
    });
}
