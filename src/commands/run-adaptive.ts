/**
 * `run --dry-run` of an adaptive design (a stop rule): it says so, with the calls of the fixed
 * design (max_trials per cell) as the most the run can make, and, when every model is simulated
 * with `rates:` for every cell of the rule, the calls expected under the rule at those rates
 * (simulated as `plan --until` simulates them).
 */
import type { Logger } from '../core/logger.js';
import { isSimulated } from '../live/providers/registry.js';
import type { Session } from '../live/runner/session.js';
import { PLAN_ADAPTIVE_RUNS, plannedMatches, simulatedPlan, type RatedCell } from '../analyses/adaptive/plan.js';
import { matchUnits, unitCalls } from '../live/adaptive/matches.js';
import type { AdaptiveStop } from '../live/design/stop.js';
import { planMatches, type MatchPlan } from '../live/repeated/plan.js';
import type { StoredMove } from '../live/store/store.js';
import { ruleText } from '../analyses/adaptive/report.js';
import { stopUnits } from '../stats/confseq/units.js';
import { commandsMsg } from './messages.js';

/** The cells of the design with their fixed rates, when every model is simulated with a rate for each (else undefined). */
function ratedCells(session: Session, cells: readonly { model: string; game: string; framing: string }[]): RatedCell[] | undefined {
  const models = new Map(session.design.models.map((m) => [m.id, m]));
  const out: RatedCell[] = [];
  for (const c of cells) {
    const m = models.get(c.model);
    const rates = m && isSimulated(m) ? (m.options.rates as Record<string, unknown> | undefined) : undefined;
    const rate = rates?.[`${c.game}/${c.framing}`];
    if (typeof rate !== 'number') return undefined;
    out.push({ ...c, rate });
  }
  return out;
}

/**
 * A repeated game's (the match is the unit): the calls of max_trials matches per framing of each unit as the most, less
 * those stored; with matches stored in every framing of every unit (a resumed run's, or a pilot's), the calls expected under
 * the rule simulated on draws from them (analyses/adaptive/matches.ts).
 */
function repeatedAdaptiveDryRun(session: Session, rule: AdaptiveStop, seed: number, logger: Logger, stored: number, played: Played): void {
  const plans = played.plans ?? planMatches(session.design);
  const units = matchUnits(rule, plans);
  const fixedCalls = unitCalls(session.design, plans, units.map((unit) => ({ unit })), () => rule.maxTrials);
  logger.print?.(`${commandsMsg.adaptiveDryRun(ruleText(rule), units.length, fixedCalls, rule.maxTrials, stored, 'matches')}\n`);
  const p = plannedMatches(rule, session.design, played.moves, PLAN_ADAPTIVE_RUNS, seed, plans);
  if (p.left > 0) return;
  const drawn = p.rows.reduce((a, r) => a + r.pilot.reduce((x, y) => x + y, 0), 0);
  logger.print?.(`${commandsMsg.adaptiveDryRunMatches(p.expectedCalls, PLAN_ADAPTIVE_RUNS, drawn, fixedCalls)}\n`);
}

/** A repeated design's stored moves and its matches, as the dry run has read and planned them (not again). */
type Played = { readonly moves: readonly StoredMove[]; readonly plans?: readonly MatchPlan[] };

/** The dry run's lines of an adaptive design (nothing for a design without a stop rule); `stored`: its trials already stored. */
export function adaptiveDryRun(session: Session, seed: number, logger: Logger, stored = 0, played: Played = { moves: [] }): void {
  const rule = session.design.stop;
  if (!rule) return;
  if (session.design.play) { repeatedAdaptiveDryRun(session, rule, seed, logger, stored, played); return; }
  const seen = new Map<string, { model: string; game: string; framing: string }>();
  for (const s of session.specs) seen.set(JSON.stringify([s.model.id, s.game, s.framing]), { model: s.model.id, game: s.game, framing: s.framing });
  const units = stopUnits(rule, seen.values());
  const cells = [...seen.values()].filter((c) => units.some((u) => u.model === c.model && u.game === c.game && u.framings.includes(c.framing)));
  const fixedCalls = units.reduce((a, u) => a + rule.maxTrials * u.framings.length, 0);
  const rated = ratedCells(session, cells);
  const expected = rated ? simulatedPlan(rule, rated, PLAN_ADAPTIVE_RUNS, seed).expectedCalls : undefined;
  logger.print?.(`${commandsMsg.adaptiveDryRun(ruleText(rule), units.length, fixedCalls, rule.maxTrials, stored)}\n`);
  if (expected !== undefined) logger.print?.(`${commandsMsg.adaptiveDryRunExpected(expected, PLAN_ADAPTIVE_RUNS, fixedCalls)}\n`);
}
