import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { cellRate } from '../../../src/core/cells.js';
import { selectiveEstimand, selectiveLayout, selectiveVerdict, surfaceSensitivity, worldResponsiveness } from '../../../src/analyses/selective/estimand.js';
import { directionalSensitivity, paraphraseInvariance } from '../../../src/analyses/selective/paraphrase.js';
import { stat } from '../../../src/core/names.js';
import { jsdBernoulli } from '../../../src/stats/jsd.js';

const formats = ['canonical', 'bullets', 'key-value', 'paraphrase'];
const spec = { worlds: ['regional', 'local'] as [string, string], formats };
// Hand example: regional p = 0.9, 0.8, 0.9, 0.6 ; local p = 0.1, 0.1, 0.3, 0.1
//   SS regional = (|0.9−0.8| + |0.9−0.9| + |0.9−0.6|)/3 = 0.4/3; local = (0 + 0.2 + 0)/3 = 0.2/3
//   SS = (0.4/3 + 0.2/3)/2 = 0.1
//   WR = ((0.8) + (0.7) + (0.6) + (0.5))/4 = 0.65
const P: Record<string, number[]> = { regional: [0.9, 0.8, 0.9, 0.6], local: [0.1, 0.1, 0.3, 0.1] };
const table = (model: string, condition: string): CellTable['cells'] => Object.entries(P).flatMap(([world, ps]) =>
  ps.map((p, i) => ({ key: { model, condition, world, format: formats[i] }, obs: { kind: 'prob' as const, values: Float64Array.from([p - 0.05, p + 0.05]) } })));

describe('selective robustness estimands (hand derivation)', () => {
  const t: CellTable = { factors: ['model', 'condition', 'world', 'format'], cells: [...table('Sol', 'minimal'), ...table('Sol', 'normative')] };
  const layout = selectiveLayout(t, spec);
  const rates = Float64Array.from(t.cells.map((c) => cellRate(c.obs)));

  it('surface sensitivity = 0.1 and world responsiveness = 0.65', () => {
    expect(surfaceSensitivity(rates, layout.groups[0].cells)).toBeCloseTo(0.1, 12);
    expect(worldResponsiveness(rates, layout.groups[0].cells)).toBeCloseTo(0.65, 12);
    const est = selectiveEstimand(layout);
    const out = new Float64Array(est.names.length);
    est.evaluate(rates, out);
    expect(out[est.names.indexOf(stat('SS', 'Sol', 'normative'))]).toBeCloseTo(0.1, 12);
    expect(out[est.names.indexOf(stat('WR', 'Sol', 'normative'))]).toBeCloseTo(0.65, 12);
  });
  it('lists incomplete model × condition groups instead of guessing', () => {
    const partial: CellTable = { factors: t.factors, cells: t.cells.filter((c) => !(c.key.condition === 'normative' && c.key.format === 'bullets' && c.key.world === 'local')) };
    const l = selectiveLayout(partial, spec);
    expect(l.groups.map((g) => g.condition)).toEqual(['minimal']);
    expect(l.missing).toEqual(['Sol / normative / local / bullets']);
  });
  it('verdicts follow the thresholds (5 points, interval above 0)', () => {
    expect(selectiveVerdict(0.03, 0.2)).toBe('selectively robust');
    expect(selectiveVerdict(0.05, 0.2)).toBe('selectively robust');
    expect(selectiveVerdict(0.06, 0.2)).toBe('surface-sensitive');
    expect(selectiveVerdict(0.01, -0.01)).toBe('not world-responsive');
    expect(selectiveVerdict(0.2, 0)).toBe('surface-sensitive and not world-responsive');
    expect(selectiveVerdict(0.08, 0.1, { maxSurface: 0.1, minWorldLo: 0 })).toBe('selectively robust');
  });
});

describe('the context-enrichment summary paraphrase invariance and directional sensitivity', () => {
  it('mean JSD (divergence) and mean distance over paraphrases', () => {
    const r = paraphraseInvariance(0.5, [0.5, 1]);
    // JSD(0.5, 0.5) = 0; JSD(0.5, 1) = H(0.75) − H(0.5)/2 = 0.5623351446188083 − 0.34657359027997264
    const j = 0.5623351446188083 - 0.34657359027997264;
    expect(r.divergence).toBeCloseTo(j / 2, 14);
    expect(r.distance).toBeCloseTo(Math.sqrt(j) / 2, 14);
    expect(jsdBernoulli(0.5, 1)).toBeCloseTo(j, 14);
  });
  it('no paraphrases → NaN; direction flips the sign', () => {
    expect(paraphraseInvariance(0.3, []).divergence).toBeNaN();
    expect(directionalSensitivity(0.2, 0.5, 1)).toBeCloseTo(0.3, 15);
    expect(directionalSensitivity(0.2, 0.5, -1)).toBeCloseTo(-0.3, 15);
  });
});
