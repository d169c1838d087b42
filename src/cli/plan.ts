import { InvalidArgumentError, Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { readRates } from '../sources/rates-csv.js';
import { TrialStore } from '../live/store/store.js';
import { pickRun, readStore, storeTable } from '../sources/store.js';
import { planTrials, type PlanStatistic } from '../analyses/precision/plan.js';
import { designFacts } from '../analyses/compare/design-facts.js';
import { DEFAULTS } from '../commands/reproduce.js';
import { levels, type CellTable } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { withStoreErrors } from '../live/store/integrity.js';
import { analyzeMsg } from '../core/messages/analyze.js';
import { textTable } from '../analyses/two-framing/terminal.js';
import { fixed } from '../core/format.js';
import { FLAG_LIMITS, MAX_REPS, parseIntFlag, parseRangeFlag, parseUnitFlag, terminalLogger } from './options.js';

interface PlanFlags {
  data?: string; store?: string; targetHalfwidth: number; statistic: PlanStatistic; attenuation?: number; direct?: boolean;
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
    .addOption(new Option('--direct', 'plan a direct run (samegame run): no attenuation, a = 1, as analyze reports direct runs (the default with --store)')
      .conflicts('attenuation'))
    .option('--attenuation <a>', 'conservative transform planned for (default: 0.7 with --data, 1 with --store or --direct)', parseUnitFlag('--attenuation'))
    .option('--base <name>', 'base framing', DEFAULTS.base)
    .option('--alt <name>', 'alternative framing', DEFAULTS.alt)
    .option('--seed <n>', 'bootstrap seed', parseIntFlag('--seed'), DEFAULTS.seed)
    .option('--reps <n>', 'bootstrap replicates per planning step', parseIntFlag('--reps', 100, MAX_REPS), 2000)
    .option('--max-n <n>', 'largest trials per cell considered', parseIntFlag('--max-n', 2, FLAG_LIMITS.maxN), 100_000)
    .option('--tokens-per-call <n>', 'tokens per call for the cost (default: the store\'s mean)', parseRangeFlag('--tokens-per-call', 0, FLAG_LIMITS.tokensPerCall, true))
    .option('--price <usd>', 'blended USD per 1M tokens, for the cost column', parseRangeFlag('--price', 0, FLAG_LIMITS.price))
    .action(planCommand);
}

/** What the plan starts from: the cell table, framings and tokens per call of a rates file or a pilot store. */
interface PlanInput { table: CellTable; base: string; alt: string; tokensPerCall?: number }

function inputFromStore(path: string, o: PlanFlags, logger: Logger): PlanInput {
  const store = TrialStore.openExisting(path);
  try {
    const { run, st } = readStore(path, () => {
      const r = pickRun(store, path);
      return { run: r, st: storeTable(store, r) };
    });
    // Planning simulates the two-framing statistics; a context-enrichment run has other ones.
    if (st.extraFactors.length) throw new UserError(analyzeMsg.planTwoFramingOnly(path, st.extraFactors));
    const fr = levels(st.table, 'framing');
    if (designFacts(run.designJson).simulated.length) logger.warn(analyzeMsg.synthetic());
    return {
      table: st.table, tokensPerCall: o.tokensPerCall ?? storedTokensPerCall(store, run.id),
      base: fr.includes(o.base) ? o.base : fr[0], alt: fr.includes(o.alt) ? o.alt : fr[1] ?? fr[0],
    };
  } finally { store.close(); }
}

/**
 * The attenuation planned for, and why: what is given, else none (a = 1) for a direct run — a
 * pilot store or --direct, as `analyze` reports direct runs — else the reconstruction's default.
 */
export function plannedAttenuation(o: Pick<PlanFlags, 'attenuation' | 'direct' | 'store'>): { a: number; why: 'flag' | 'direct' | 'reconstructed' } {
  if (o.attenuation !== undefined) return { a: o.attenuation, why: 'flag' };
  if (o.direct === true || o.store !== undefined) return { a: 1, why: 'direct' };
  return { a: DEFAULTS.attenuation, why: 'reconstructed' };
}

function printPlan(o: PlanFlags, input: PlanInput, res: ReturnType<typeof planTrials>, att: ReturnType<typeof plannedAttenuation>): void {
  const cells = input.table.cells.length;
  const rows = [['pooled', res.nPooled], ['every model and pooled', res.nModels]] as const;
  const cost = (n: number) => {
    const calls = n * cells;
    const tok = input.tokensPerCall === undefined ? undefined : calls * input.tokensPerCall;
    const price = tok === undefined || o.price === undefined ? undefined : (tok / 1e6) * o.price;
    return [String(calls), tok === undefined ? 'unknown (--tokens-per-call)' : String(Math.round(tok)), price === undefined ? '—' : `$${price.toFixed(2)}`];
  };
  process.stdout.write(`Plan: 95% interval of ${o.statistic} with half-width ≤ ${o.targetHalfwidth} (attenuation a = ${fixed(att.a, 2)}, ${cells} cells)\n`);
  process.stdout.write(`${analyzeMsg.planAttenuation(fixed(att.a, 2), att.why)}\n`);
  process.stdout.write(textTable(['target', 'trials per cell', 'calls', 'tokens', 'cost'],
    rows.map(([label, n]) => (n === undefined ? [label, `> ${o.maxN}`, '—', '—', '—'] : [label, String(n), ...cost(n)]))) + '\n');
  process.stdout.write('\nHalf-widths at the planned n (planning simulation):\n');
  process.stdout.write(textTable(['group', 'n', 'half-width'], res.achieved.map((a) => [a.group, String(a.n), fixed(a.halfWidth, 4)])) + '\n');
}

async function planCommand(o: PlanFlags): Promise<void> {
  if ((o.data === undefined) === (o.store === undefined)) throw new UserError(analyzeMsg.needDataOrStore());
  const logger = terminalLogger();
  const input: PlanInput = o.data
    ? { table: readRates(resolve(o.data), { base: o.base, alt: o.alt, displayPath: o.data }).table, base: o.base, alt: o.alt, tokensPerCall: o.tokensPerCall }
    : await withStoreErrors(o.store!, () => inputFromStore(o.store!, o, logger));
  const att = plannedAttenuation(o);
  const res = planTrials(input.table, {
    settings: { seed: o.seed, reps: o.reps, attenuation: att.a, base: input.base, alt: input.alt },
    statistic: o.statistic, halfWidth: o.targetHalfwidth, maxN: o.maxN, logger,
  });
  printPlan(o, input, res, att);
}
