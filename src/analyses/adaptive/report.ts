/**
 * The analysis of an adaptive run in the report and metrics.json: each unit's anytime-valid
 * interval at its stopping look, why and at which look it stopped, trials used beside the fixed
 * design's, and why Table 3's fixed-n intervals are not valid there.
 */
import { num, type Section } from '../../render/html.js';
import { CONFSEQ_METHODS } from '../../stats/confseq/registry.js';
import type { StopRule } from '../../stats/confseq/stop-rule.js';
import type { UnitStatus } from '../../stats/confseq/units.js';
import { adaptiveMsg } from './messages.js';
import { byMatch, stoppingRows, stoppingTotals, type StoppingRow } from './stopping.js';

/** The rule as its key=value pairs (the form of run --until). */
export function ruleText(rule: StopRule): string {
  const parts: [string, unknown][] = [['target', rule.target], ['half_width', rule.halfWidth], ['decide', rule.decide], ['delta', rule.delta],
    ['confidence', rule.confidence], ['wave', rule.wave], ['max_trials', rule.maxTrials], ['method', rule.method], ['t_opt', rule.tOpt]];
  return parts.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${String(v)}`).join(',');
}

/** The look (1, 2, …) at which a unit with n observations at its last look was looked at last: n / wave, the last at max_trials. */
export const stoppingLook = (rule: StopRule, n: number): number => Math.ceil(n / rule.wave);

/**
 * The report's section of an adaptive run. Repeated play (units with an opponent): counted in matches, with `calls`, the
 * decisions those matches used beside a fixed design's.
 */
export function adaptiveSection(rule: StopRule, statuses: readonly UnitStatus[], name: (id: string) => string = (id) => id,
  calls?: { readonly used: number; readonly fixed: number }): Section {
  const rows = stoppingRows(rule, statuses);
  const t = stoppingTotals(rule, rows);
  const m = CONFSEQ_METHODS[rule.method];
  const matches = byMatch(rows);
  const unit = matches ? 'Matches' : 'Trials';
  return {
    id: 'adaptive',
    heading: 'Adaptive stopping: anytime-valid intervals',
    blocks: [
      { kind: 'text', text: adaptiveMsg.sectionText(ruleText(rule), m.describe, m.source, rule.confidence) },
      ...(matches ? [{ kind: 'text' as const, text: adaptiveMsg.byMatch }] : []),
      { kind: 'text', text: matches ? adaptiveMsg.notFixedMatches : adaptiveMsg.notFixed },
      { kind: 'text', text: adaptiveMsg.totals(t.early, rows.length, t.used, t.fixed, matches ? 'matches' : 'trials') },
      ...(calls ? [{ kind: 'text' as const, text: adaptiveMsg.calls(calls.used, calls.fixed) }] : []),
      {
        kind: 'table',
        columns: ['Model', 'Game', ...(matches ? ['Opponent'] : []), 'Framing', rule.target === 'shift' ? 'Shift' : 'Rate', num(`${unit} per framing`),
          num('Look'), num(`${Math.round(rule.confidence * 100)}% anytime-valid`), num('Half-width'), 'Stopped', num(`${unit} used`), num('Fixed design')],
        rows: rows.map((r) => [name(r.model), name(r.game), ...(matches ? [name(r.opponent ?? '')] : []), r.framings.map(name).join(' vs '), rule.target,
          num(String(r.n)), num(String(stoppingLook(rule, r.n))), num(`[${r.lo.toFixed(3)}, ${r.hi.toFixed(3)}]`), num((r.hi - r.lo) / 2),
          r.stopped, num(String(r.n * r.framings.length)), num(String(rule.maxTrials * r.framings.length))]),
      },
    ],
  };
}

/** The `adaptive` block of metrics.json: the rule, every unit at its stopping look, trials used, the fixed design's, units stopped early. */
export function adaptiveMetrics(rule: StopRule, statuses: readonly UnitStatus[]): Record<string, unknown> {
  const rows: StoppingRow[] = stoppingRows(rule, statuses);
  const t = stoppingTotals(rule, rows);
  return {
    rule: { target: rule.target, half_width: rule.halfWidth ?? null, decide: rule.decide ?? null, delta: rule.delta ?? null,
      confidence: rule.confidence, wave: rule.wave, max_trials: rule.maxTrials, method: rule.method },
    units: rows.map((r) => ({ model: r.model, game: r.game, framings: r.framings, n: r.n, look: stoppingLook(rule, r.n), lo: r.lo, hi: r.hi,
      half_width: (r.hi - r.lo) / 2, stopped: r.stopped, trials_used: r.n * r.framings.length })),
    used: t.used, fixed: t.fixed, early: t.early,
  };
}
