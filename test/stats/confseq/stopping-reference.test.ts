import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cellStatus, type StopRule } from '../../../src/stats/confseq/stop-rule.js';

/**
 * The stopping rule against the reference sequence on the same decisions
 * (test/reference/confseq/make_stopping.py): 36 seeded series of 300 pairs at the shipped rates'
 * 12 contrasts, looked at every 20 pairs, stopped for half-width ≤ 0.05 (and, second rule, when
 * the interval excludes 0). Each series must stop at the reference's look, with its interval.
 */
const ref = JSON.parse(readFileSync(new URL('../../reference/confseq/stopping.json', import.meta.url), 'utf8')) as {
  cases: { model: string; game: string; series: number; sign: boolean; d: number[]; n: number; reason: string; lo: number; hi: number }[];
};

describe('stopping times equal the reference sequence’s on the same decisions', () => {
  it('stops every series at the same look, for the same reason, with the same interval (to one grid step)', () => {
    let ours = 0, theirs = 0;
    for (const c of ref.cases) {
      const rule: StopRule = { target: 'shift', halfWidth: 0.05, confidence: 0.95, wave: 20, maxTrials: 300, method: 'betting',
        ...(c.sign ? { decide: 'sign' as const } : {}) };
      const st = cellStatus(rule, c.d);
      const what = `${c.model} / ${c.game} #${c.series}${c.sign ? ' sign' : ''}`;
      expect(st.n, what).toBe(c.n);
      expect(st.stopped, what).toBe(c.reason);
      expect(Math.abs(st.lo - c.lo), what).toBeLessThanOrEqual(2 / 1000 + 1e-12);
      expect(Math.abs(st.hi - c.hi), what).toBeLessThanOrEqual(2 / 1000 + 1e-12);
      ours += st.n; theirs += c.n;
    }
    expect(ours / theirs).toBe(1);
    expect(ref.cases.length).toBe(72);
  });
});
