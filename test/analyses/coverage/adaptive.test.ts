import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { adaptiveCoverage, coverageCsv } from '../../../src/analyses/coverage/index.js';
import type { StopRule } from '../../../src/stats/confseq/stop-rule.js';
import { cell } from '../../helpers/cells.js';

/**
 * Coverage of an adaptive run's intervals: each unit of its stop rule simulated at the run's rates, the confidence
 * sequence at the stop beside the fixed-n interval at the same stop (reported, not claimed: computed after a stop the
 * sequence chose, it has no guarantee; at these regimes it measured 0.96–0.97).
 */
const table: CellTable = {
  factors: ['model', 'game', 'framing'],
  cells: [cell('M', 'G1', 'b', 30, 300), cell('M', 'G1', 's', 150, 300), cell('M', 'G2', 'b', 150, 300), cell('M', 'G2', 's', 150, 300)],
};
const rule = (o: Partial<StopRule>): StopRule & { base: string; alt: string } => ({
  target: 'shift', confidence: 0.95, wave: 10, maxTrials: 300, method: 'betting', base: 'b', alt: 's', ...o,
});
const SIMS = 400;

describe('adaptiveCoverage', () => {
  it('two rows per contrast, at the observed shift; the sequence holds 95 % at its stop (decide: sign, and half-width)', () => {
    for (const r of [rule({ decide: 'sign' }), rule({ halfWidth: 0.1 })]) {
      const rows = adaptiveCoverage(r, table, SIMS, 5);
      expect(rows.map((x) => x.statistic)).toEqual(['shift M/G1 (s − b)', 'shift M/G1 (s − b)', 'shift M/G2 (s − b)', 'shift M/G2 (s − b)']);
      expect(rows.map((x) => x.truth)).toEqual([0.4, 0.4, 0, 0]);
      expect(rows.map((x) => x.method)).toEqual(['betting sequence at the stop', 'MOVER-Wilson at the stop (fixed-n)',
        'betting sequence at the stop', 'MOVER-Wilson at the stop (fixed-n)']);
      for (const x of rows.filter((y) => y.method.startsWith('betting'))) {
        // anytime-valid: ≥ 0.95 in expectation; 400 runs, MC s.e. ≤ 0.011 — a floor three s.e. below
        expect(x.coverage, `${x.statistic} ${JSON.stringify(r)}`).toBeGreaterThanOrEqual(0.95 - 3 * 0.011);
        expect(x.coverage_lo).toBeLessThanOrEqual(x.coverage);
      }
      // the sequence is wider than the fixed-n interval at the same look
      expect(rows[0].mean_width).toBeGreaterThan(rows[1].mean_width);
      expect(coverageCsv(rows).split('\n')).toHaveLength(1 + 4 + 1);
    }
  });

  it('rates stopped for precision near 0 (p = 0.02–0.1, looks every 5 trials): the sequence holds at its stop, on both methods', () => {
    for (const [p, halfWidth, method] of [[0.05, 0.2, 'normal-mixture'], [0.1, 0.2, 'betting'], [0.02, 0.1, 'betting']] as const) {
      const rows = adaptiveCoverage({ target: 'rate', confidence: 0.95, wave: 5, maxTrials: 200, method, halfWidth },
        { factors: ['model', 'game', 'framing'], cells: [cell('M', 'G', 'b', p * 200, 200)] }, SIMS, 9);
      const [seq, fixed] = rows;
      expect(seq.truth).toBeCloseTo(p, 12);
      expect(seq.coverage, `${p} ${method}`).toBeGreaterThanOrEqual(0.95 - 3 * 0.011);
      expect(fixed.method).toBe('Wilson at the stop (fixed-n)');
      expect(fixed.mean_width).toBeLessThan(seq.mean_width);
    }
  });
});
