/**
 * `samegame plan`: trials per cell for a target half-width, from a rates file or a pilot store,
 * with their cost. The input is refused as the other commands refuse it: --base equal to --alt, a
 * run without a valid trial, a model–game without one of the planned framings.
 */
import { resolve } from 'node:path';
import { readRates } from '../sources/rates-csv.js';
import { DEFAULT_ATTENUATION, SOURCES, sourceName, sourceOf } from '../sources/input.js';
import type { TrialStore } from '../live/store/store.js';
import { chooseRun, isRepeatedRun, storeTable } from '../sources/store.js';
import { storeReader } from '../sources/open-run.js';
import { storeGuard } from '../live/store/integrity.js';
import { PLAN_TARGETS, planTrials, type PlanStatistic } from '../analyses/precision/plan.js';
import { BUILTIN_COLUMNS } from '../stats/table3.js';
import { designFacts } from '../analyses/compare/design-facts.js';
import { missingPlannedCell, TWO_FRAMING_DEFAULTS as DEFAULTS } from '../analyses/two-framing/index.js';
import { levels, type CellTable } from '../core/cells.js';
import { UserError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { analyzeMsg } from '../core/messages/analyze.js';
import { msg } from '../core/messages/common.js';
import { checkAttenuation } from '../core/attenuation.js';
import { textTable } from '../analyses/two-framing/terminal.js';
import { fixed } from '../core/format.js';
import { commandsMsg } from './messages.js';
import { adaptivePlanText, planAdaptive, planRepeatedPilot, repeatedPlanText, type AdaptivePlan, type RepeatedPlanResult } from './plan-adaptive.js';

/** The planning settings when not given: the statistic, the bootstrap and the largest n considered. */
export const PLAN_DEFAULTS = { statistic: BUILTIN_COLUMNS.shift.column, seed: DEFAULTS.seed, reps: 2000, maxN: 100_000 } as const satisfies {
  statistic: PlanStatistic; seed: number; reps: number; maxN: number };

export interface PlanOptions {
  readonly data?: string;
  readonly store?: string;
  readonly targetHalfwidth: number;
  readonly statistic?: PlanStatistic;
  readonly attenuation?: number;
  readonly direct?: boolean;
  /** Framings (default business / friend-sharing; a store lacking them: its first two). */
  readonly base?: string;
  readonly alt?: string;
  readonly seed?: number;
  readonly reps?: number;
  readonly maxN?: number;
  readonly tokensPerCall?: number;
  /** USD per million tokens: one blended price, or input and output prices (these need the pilot store's split of its tokens). */
  readonly price?: number | { readonly input: number; readonly output: number };
  /** An adaptive run's stop rule (key=value pairs, as run --until): its expected trials beside the fixed plan. */
  readonly until?: string;
  readonly logger?: Logger;
}

/** What the plan starts from: the cell table, framings and tokens per call of a rates file or a pilot store. */
export interface PlanInput {
  readonly table: CellTable; readonly base: string; readonly alt: string; readonly tokensPerCall?: number;
  /** A pilot store's input tokens as a fraction of its tokens (prices IN,OUT weigh by it). */
  readonly inputShare?: number;
}

/** Mean tokens per call of a stored run (input + output) and the input tokens' share, streamed. */
function storedTokens(store: TrialStore, runId: number): { perCall?: number; inputShare?: number } {
  let calls = 0, tokens = 0, input = 0;
  for (const t of store.trials(runId)) {
    if (t.inputTokens === null && t.outputTokens === null) continue;
    calls++; tokens += (t.inputTokens ?? 0) + (t.outputTokens ?? 0); input += t.inputTokens ?? 0;
  }
  return calls ? { perCall: tokens / calls, ...(tokens > 0 ? { inputShare: input / tokens } : {}) } : {};
}

/** USD per million tokens of the plan: the blended price, or input and output prices weighed by the store's input share. */
function blendedPrice(price: PlanOptions['price'], input: PlanInput): number | undefined {
  if (price === undefined || typeof price === 'number') return price;
  if (price.input === price.output) return price.input;
  if (input.inputShare === undefined) throw new UserError(commandsMsg.planPriceSplit());
  return input.inputShare * price.input + (1 - input.inputShare) * price.output;
}

function inputFromStore(path: string, o: PlanOptions & { seed: number }): PlanInput | RepeatedPlanResult {
  return storeGuard(path, (store): PlanInput | RepeatedPlanResult => {
    const run = chooseRun(store, path);
    if (isRepeatedRun(run)) return planRepeatedPilot(store, path, run, o);
    const st = storeTable(store, run);
    // Planning simulates the two-framing statistics; a context-enrichment run has other ones.
    if (st.extraFactors.length) throw new UserError(commandsMsg.planTwoFramingOnly(path, st.extraFactors));
    if (st.table.cells.length === 0) throw new UserError(analyzeMsg.noValidTrials(path));
    const fr = levels(st.table, 'framing');
    const base = o.base ?? (fr.includes(DEFAULTS.base) ? DEFAULTS.base : fr[0]);
    const alt = o.alt ?? (fr.includes(DEFAULTS.alt) ? DEFAULTS.alt : fr.find((f) => f !== base) ?? base);
    if (base === alt) throw new UserError(msg.sameFraming(base));
    const m = missingPlannedCell(st.table, base, alt);
    if (m) throw new UserError(analyzeMsg.missingPlannedCell(path, m.model, m.game, m.framing, fr));
    if (designFacts(run.designJson).simulated.length) (o.logger ?? silentLogger).warn(analyzeMsg.synthetic());
    const tokens = storedTokens(store, run.id);
    return { table: st.table, tokensPerCall: o.tokensPerCall ?? tokens.perCall, inputShare: tokens.inputShare, base, alt };
  }, storeReader(path));
}

function inputFromRates(path: string, o: PlanOptions): PlanInput {
  const base = o.base ?? DEFAULTS.base, alt = o.alt ?? DEFAULTS.alt;
  if (base === alt) throw new UserError(msg.sameFraming(base));
  return { table: readRates(resolve(path), { base, alt, displayPath: path }).table, base, alt, tokensPerCall: o.tokensPerCall };
}

/**
 * The attenuation planned for, and why: what is given, else none (a = 1) for a direct run — a
 * pilot store or --direct, as `analyze` reports direct runs — else the reconstruction's default.
 */
export function plannedAttenuation(o: Pick<PlanOptions, 'attenuation' | 'direct' | 'store'>): { a: number; why: 'flag' | 'direct' | 'reconstructed' } {
  if (o.attenuation !== undefined) return { a: checkAttenuation(o.attenuation), why: 'flag' };
  const observed = o.direct === true ? 'direct' : SOURCES[sourceOf(o).kind].observed;
  return { a: DEFAULT_ATTENUATION[observed], why: observed };
}

/** What `plan` returns: a one-shot plan (rates file or one-shot pilot), or a repeated pilot's stop rule over its matches. */
export type PlanCommandResult = OneShotPlanResult | RepeatedPlanResult;

export interface OneShotPlanResult {
  readonly input: PlanInput;
  readonly result: ReturnType<typeof planTrials>;
  readonly attenuation: ReturnType<typeof plannedAttenuation>;
  /** With --until: the stop rule's expected trials at the planned rates. */
  readonly adaptive?: AdaptivePlan;
}

/** `samegame plan`: read the input (refusing what cannot be planned), plan its trials per cell, print the plan (logger.print). */
export async function plan(opts: PlanOptions): Promise<PlanCommandResult> {
  const o = { ...opts, statistic: opts.statistic ?? PLAN_DEFAULTS.statistic, seed: opts.seed ?? PLAN_DEFAULTS.seed, reps: opts.reps ?? PLAN_DEFAULTS.reps,
    maxN: opts.maxN ?? PLAN_DEFAULTS.maxN };
  if ((o.data === undefined) === (o.store === undefined)) throw new UserError(commandsMsg.needDataOrStore());
  const source = sourceOf(o);
  const input = source.kind === 'store' ? inputFromStore(source.file, o) : inputFromRates(sourceName(source), o);
  if ('kind' in input) { o.logger?.print?.(repeatedPlanText(sourceName(source), o.until!, input)); return input; }
  const attenuation = plannedAttenuation(o);
  const price = blendedPrice(o.price, input);
  const result = planTrials(input.table, {
    settings: { seed: o.seed, reps: o.reps, attenuation: attenuation.a, base: input.base, alt: input.alt },
    statistic: o.statistic, halfWidth: o.targetHalfwidth, maxN: o.maxN, logger: o.logger ?? silentLogger,
  });
  const adaptive = o.until === undefined ? undefined
    : planAdaptive(o.until, input.table, input.base, input.alt, result.nModels ?? result.nPooled ?? o.maxN, o.seed);
  const res = { input, result, attenuation, ...(adaptive ? { adaptive } : {}) };
  o.logger?.print?.(planText({ ...o, price }, res) + (adaptive ? adaptivePlanText(o.until!, adaptive) : ''));
  return res;
}

/** The plan as the terminal shows it: the trials per cell, calls, tokens and cost, then the half-widths reached. */
function planText(o: Required<Pick<PlanOptions, 'statistic' | 'targetHalfwidth' | 'maxN'>> & { price?: number }, p: OneShotPlanResult): string {
  const { input, result: res, attenuation: att } = p;
  const cells = input.table.cells.length;
  const rows = [[PLAN_TARGETS.pooled, res.nPooled], [PLAN_TARGETS.models, res.nModels]] as const;
  const cost = (n: number) => {
    const calls = n * cells;
    const tok = input.tokensPerCall === undefined ? undefined : calls * input.tokensPerCall;
    const price = tok === undefined || o.price === undefined ? undefined : (tok / 1e6) * o.price;
    return [String(calls), tok === undefined ? 'unknown (--tokens-per-call)' : String(Math.round(tok)), price === undefined ? '—' : `$${price.toFixed(2)}`];
  };
  return `Plan: 95% interval of ${o.statistic} with half-width ≤ ${o.targetHalfwidth} (attenuation a = ${fixed(att.a, 2)}, ${cells} cells)\n`
    + `${commandsMsg.planAttenuation(fixed(att.a, 2), att.why)}\n`
    + textTable(['target', 'trials per cell', 'calls', 'tokens', 'cost'],
      rows.map(([label, n]) => (n === undefined ? [label, `> ${o.maxN}`, '—', '—', '—'] : [label, String(n), ...cost(n)]))) + '\n'
    + '\nHalf-widths at the planned n (planning simulation):\n'
    + textTable(['target', 'group', 'n', 'half-width'], res.achieved.map((a) => [a.target, a.group, String(a.n), fixed(a.halfWidth, 4)])) + '\n';
}
