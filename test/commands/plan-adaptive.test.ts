/** plan --until: an adaptive stop rule's expected calls at the planned rates, beside the fixed design. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/commands/plan.js';
import { PLAN_ADAPTIVE_RUNS } from '../../src/commands/plan-adaptive.js';
import { simulateRule } from '../../src/stats/confseq/simulate.js';
import { ROOT } from '../helpers/cli.js';

const RATES = join(ROOT, 'data/lore-heydari-2024/rates.csv');

describe('plan --until', () => {
  it('simulates the rule for every contrast of the planned framings at the rates file\'s rates', async () => {
    let printed = '';
    const r = await plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: 'target=shift,decide=sign,max_trials=300',
      logger: { info: () => {}, warn: () => {}, print: (t) => { printed += t; } } });
    const a = r.adaptive!;
    expect(a.rows).toHaveLength(12);
    expect(a.maxTrials).toBe(300);
    expect(a.fixedCalls).toBe(12 * 2 * 300);
    expect(a.expectedCalls).toBeLessThan(a.fixedCalls);
    // One unit by hand: GPT-4's Prisoner's Dilemma, business 0 vs friend-sharing 0.987, the same seed and key.
    const row = a.rows.find((x) => x.model === 'GPT-4' && x.game === "Prisoner's Dilemma")!;
    const sim = simulateRule({ target: 'shift', decide: 'sign', confidence: 0.95, wave: 20, maxTrials: 300, method: 'betting' },
      { base: 0, alt: 0.987 }, PLAN_ADAPTIVE_RUNS, 20240818, "GPT-4\u0000Prisoner's Dilemma\u0000business\u0000friend-sharing");
    expect(row.meanTrials).toBe(sim.meanTrials);
    expect(row.coverage).toBe(sim.coverage);
    // The sequences hold at the stopping look: over the 12 contrasts' 2,400 simulated runs, at least 95 %.
    expect(a.rows.reduce((s, x) => s + x.coverage, 0) / a.rows.length).toBeGreaterThanOrEqual(0.95);
    expect(printed).toMatch(/Adaptive rule target=shift,decide=sign,max_trials=300 \(200 simulated runs per unit, at most 300 trials per cell\): /);
    expect(printed).toMatch(/expected [\d,]+ calls beside 7,200/);
  });
  it('takes max_trials from the fixed plan when the rule does not give it, and refuses a bad rule in one line', async () => {
    const r = await plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: 'target=rate,half_width=0.1' });
    expect(r.adaptive!.rows).toHaveLength(24);
    expect(r.adaptive!.maxTrials).toBe(r.result.nModels);
    await expect(plan({ data: RATES, targetHalfwidth: 0.05, reps: 100, until: 'target=rate,decide=sign' }))
      .rejects.toThrow(/^--until: decide: decide applies to target: shift/);
  });
});
