import { describe, expect, it } from 'vitest';
import { cellStatus, type StopRule } from '../../../src/stats/confseq/stop-rule.js';
import { CONFSEQ_METHODS, CONFSEQ_METHOD_IDS } from '../../../src/stats/confseq/registry.js';
import type { SequenceState } from '../../../src/stats/confseq/types.js';
import { streamFor } from '../../../src/stats/rng.js';
import { moverInterval, wilsonInterval } from '../../../src/stats/wilson.js';

/**
 * Coverage under optional stopping: 1,000 seeded runs per regime, looks every 5 observations up to
 * 100. The confidence sequences must keep coverage ≥ 0.95 at the stopping time; the fixed-n
 * interval (Wilson for a rate, Newcombe's MOVER for a difference) with the same looks and the same
 * rule is measured beside them and must fall below 0.95 by more than 3 Monte Carlo standard
 * errors (3·√(0.95·0.05/1000) = 0.021). Stated in docs/methods.md ("Confidence sequences").
 */
const RUNS = 1000, WAVE = 5, MAX = 100;
const MC_SLACK = 3 * Math.sqrt(0.95 * 0.05 / RUNS);

/** A fixed-n Wilson interval recomputed at every look, as a sequence state (no intersection). */
function wilsonState(): SequenceState {
  let t = 0, sum = 0;
  return { push(x) { t++; sum += x; }, get t() { return t; }, interval: () => (t === 0 ? [0, 1] : wilsonInterval(sum, t)) };
}

function bernoulli(seed: string, p: number, n: number): Float64Array {
  const rng = streamFor(2026, seed);
  return Float64Array.from({ length: n }, () => (rng.next() < p ? 1 : 0));
}

/** The share of runs whose interval at the stopping look holds `truth`, under "stop at the first look that excludes it". */
function coverageStopAtExclusion(start: () => SequenceState, p: number): number {
  let covered = 0;
  for (let r = 0; r < RUNS; r++) {
    const x = bernoulli(`exclusion ${p} ${r}`, p, MAX), s = start();
    let held = true;
    for (let n = 1; n <= MAX && held; n++) {
      s.push(x[n - 1]);
      if (n % WAVE !== 0) continue;
      const [lo, hi] = s.interval();
      held = lo <= p && p <= hi;
    }
    if (held) covered++;
  }
  return covered / RUNS;
}

const rateRule = (halfWidth: number, method: StopRule['method']): StopRule =>
  ({ target: 'rate', halfWidth, confidence: 0.95, wave: WAVE, maxTrials: MAX, method });

function coverageStopWhenNarrow(rule: StopRule, p: number, state?: () => SequenceState): { coverage: number; meanN: number } {
  let covered = 0, total = 0;
  for (let r = 0; r < RUNS; r++) {
    const st = cellStatus(rule, bernoulli(`narrow ${p} ${r}`, p, MAX), state?.());
    if (st.lo <= p && p <= st.hi) covered++;
    total += st.n;
  }
  return { coverage: covered / RUNS, meanN: total / RUNS };
}

describe('coverage under optional stopping (1,000 runs, looks every 5 up to 100)', () => {
  it('stop at the first look that excludes the true rate p = 0.5: sequences ≥ 0.95, Wilson below', () => {
    const wilson = coverageStopAtExclusion(wilsonState, 0.5);
    const seqs = CONFSEQ_METHOD_IDS.map((id) => [id, coverageStopAtExclusion(() => CONFSEQ_METHODS[id].start({ alpha: 0.05, tOpt: MAX }), 0.5)] as const);
    console.log(`exclusion rule, p = 0.5: Wilson ${wilson}; ${seqs.map(([id, c]) => `${id} ${c}`).join('; ')}`);
    for (const [, c] of seqs) expect(c).toBeGreaterThanOrEqual(0.95);
    expect(wilson).toBeLessThan(0.95 - MC_SLACK);
  });

  it('stop at the first look with half-width ≤ 0.15, p = 0.3: sequences ≥ 0.95, Wilson below', () => {
    const wilson = coverageStopWhenNarrow(rateRule(0.15, 'betting'), 0.3, wilsonState);
    const seqs = CONFSEQ_METHOD_IDS.map((id) => [id, coverageStopWhenNarrow(rateRule(0.15, id), 0.3)] as const);
    console.log(`precision rule, p = 0.3: Wilson ${JSON.stringify(wilson)}; ${seqs.map(([id, c]) => `${id} ${JSON.stringify(c)}`).join('; ')}`);
    for (const [, c] of seqs) expect(c.coverage).toBeGreaterThanOrEqual(0.95);
    expect(wilson.coverage).toBeLessThan(0.95 - MC_SLACK);
  });

  it('a shift of 0 sampled in lockstep, stop when the interval excludes 0: sequences hold 0 in ≥ 95 %, MOVER less', () => {
    const rule = (method: StopRule['method']): StopRule =>
      ({ target: 'shift', decide: 'sign', confidence: 0.95, wave: WAVE, maxTrials: MAX, method });
    const pairs = (r: number) => [bernoulli(`shift base ${r}`, 0.3, MAX), bernoulli(`shift alt ${r}`, 0.3, MAX)] as const;
    /** Newcombe's MOVER interval of the two framings' Wilson intervals, on the pairs pushed so far. */
    const mover = (base: Float64Array, alt: Float64Array): SequenceState => {
      let t = 0, xb = 0, xa = 0;
      return {
        push() { xb += base[t]; xa += alt[t]; t++; },
        get t() { return t; },
        interval() {
          const [lo, hi] = moverInterval([{ x: xa, n: t, weight: 1 }, { x: xb, n: t, weight: -1 }]);
          return [(lo + 1) / 2, (hi + 1) / 2];
        },
      };
    };
    const rate = (method: StopRule['method'], fixed: boolean) => {
      let held = 0;
      for (let r = 0; r < RUNS; r++) {
        const [base, alt] = pairs(r);
        const st = cellStatus(rule(method), alt.map((a, i) => a - base[i]), fixed ? mover(base, alt) : undefined);
        if (st.stopped !== 'sign') held++;
      }
      return held / RUNS;
    };
    const fixed = rate('betting', true);
    const seqs = CONFSEQ_METHOD_IDS.map((id) => [id, rate(id, false)] as const);
    console.log(`sign rule, shift 0 at 0.3: MOVER ${fixed}; ${seqs.map(([id, c]) => `${id} ${c}`).join('; ')}`);
    for (const [, c] of seqs) expect(c).toBeGreaterThanOrEqual(0.95);
    expect(fixed).toBeLessThan(0.95 - MC_SLACK);
  });
});
