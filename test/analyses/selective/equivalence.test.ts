import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { cellId } from '../../../src/core/cells.js';
import { bootstrap } from '../../../src/stats/bootstrap.js';
import { selectiveLayout } from '../../../src/analyses/selective/estimand.js';
import { directionalVerdict, equivalenceVerdict, invarianceVerdict, surfaceBounds, surfaceDifferenceEstimand } from '../../../src/analyses/selective/equivalence.js';
import { DEFAULT_THRESHOLDS } from '../../../src/analyses/selective/estimand.js';
import { binomial, generator } from '../../helpers/independent-rng.js';

/**
 * Selective robustness verdicts by equivalence (docs/methods.md §12), measured on data from the
 * independent generator of test/helpers: one model × condition, worlds regional (true rate 0.7 in
 * every format) and local (0.3 in every format), four formats. A perfectly invariant model (SS = 0)
 * at 20 samples per cell must be called "not invariant" in at most 5 % of data sets (the old rule,
 * SS point ≤ 0.05, called it invariant in about 3 % and surface-sensitive in the rest).
 */
const SPEC = { worlds: ['regional', 'local'] as const, formats: ['canonical', 'bullets', 'key-value', 'paraphrase'] };

function dataSet(u: () => number, n: number, rate: (world: number, format: number) => number): CellTable {
  const cells = SPEC.worlds.flatMap((world, wi) => SPEC.formats.map((format, fi) => ({
    key: { model: 'M', condition: 'c', world, format }, obs: { kind: 'binary' as const, n, x: binomial(u, n, rate(wi, fi)) },
  })));
  return { factors: ['model', 'condition', 'world', 'format'], cells };
}

function verdicts(seed: number, n: number, sims: number, rate: (w: number, f: number) => number, reps = 1000): Record<string, number> {
  const u = generator(seed);
  const tally: Record<string, number> = { invariant: 0, 'not invariant': 0, inconclusive: 0 };
  for (let s = 0; s < sims; s++) {
    const table = dataSet(u, n, rate);
    const layout = selectiveLayout(table, { worlds: [...SPEC.worlds], formats: SPEC.formats });
    const boot = bootstrap(table.cells.map((c) => ({ id: cellId(table.factors, c.key), obs: c.obs })), surfaceDifferenceEstimand(layout), { seed: s + 1, reps });
    tally[invarianceVerdict(surfaceBounds(boot, layout, layout.groups[0]), DEFAULT_THRESHOLDS)]++;
  }
  return tally;
}

const invariantModel = (w: number) => (w === 0 ? 0.7 : 0.3);

describe('surface sensitivity by equivalence', () => {
  it('a perfectly invariant model at 20 samples per cell: "not invariant" in at most 5 % of 1,000 data sets', () => {
    const t = verdicts(20, 20, 1000, invariantModel);
    console.log('invariant model, n = 20:', t);
    expect(t['not invariant'] / 1000).toBeLessThanOrEqual(0.05);
  });

  it('with enough samples the same model is called invariant (the decision is reachable)', () => {
    const t = verdicts(5000, 5000, 200, invariantModel, 500);
    console.log('invariant model, n = 5,000:', t);
    expect(t.invariant / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('a model whose every other format moves 0.3 away is called not invariant at 100 samples per cell', () => {
    // At 20 samples per cell it is called so in about a quarter of data sets, inconclusive otherwise.
    const t = verdicts(21, 100, 300, (w, f) => invariantModel(w) + (f === 0 ? 0 : w === 0 ? -0.3 : 0.3));
    console.log('sensitive model (SS = 0.3), n = 100:', t);
    expect(t['not invariant'] / 300).toBeGreaterThanOrEqual(0.9);
  });
});

describe('the verdict rules', () => {
  const t = DEFAULT_THRESHOLDS;
  it('invariance: upper bound ≤ ε, lower bound > ε, else inconclusive', () => {
    expect(invarianceVerdict({ lower: 0, upper: 0.05 }, t)).toBe('invariant');
    expect(invarianceVerdict({ lower: 0.051, upper: 0.2 }, t)).toBe('not invariant');
    expect(invarianceVerdict({ lower: 0.01, upper: 0.06 }, t)).toBe('inconclusive');
  });
  it('directional sensitivity: above 0, below 0, within ±ε, else inconclusive', () => {
    expect(directionalVerdict(0.01, 0.3, t)).toBe('moves the registered way');
    expect(directionalVerdict(-0.3, -0.01, t)).toBe('moves against');
    expect(directionalVerdict(-0.04, 0.05, t)).toBe('unmoved');
    expect(directionalVerdict(-0.1, 0.05, t)).toBe('inconclusive');
  });
  it('the combined verdict', () => {
    expect(equivalenceVerdict('invariant', 0.1, t)).toBe('selectively robust');
    expect(equivalenceVerdict('not invariant', 0.1, t)).toBe('surface-sensitive');
    expect(equivalenceVerdict('inconclusive', -0.1, t)).toBe('invariance inconclusive, not world-responsive');
  });
});
