/**
 * A numeric moderator far from 1 in scale (0…7 × 1e200, × 1e-200): its column is kept (it was dropped as "an exact linear
 * combination": the squares in the collinearity check overflowed or underflowed), and meta-regression.csv writes each
 * coefficient on its own scale (the intercept and a slope 200 orders apart were written 0 beside the other). The numbers
 * are metafor's for the unscaled moderator (test/reference/meta/make-reference-tiny-mods.py, "scaled").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { meta, type EffectRow } from '../../../src/analyses/meta/index.js';
import { metaDesign } from '../../../src/analyses/meta/design.js';
import { regressionCsv } from '../../../src/analyses/meta/tables.js';
import { META_DEFAULTS } from '../../../src/stats/meta/univariate.js';

const ref = JSON.parse(readFileSync(new URL('../../reference/meta/reference-tiny-mods.json', import.meta.url), 'utf8'));
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(Math.abs(b), 1e-3);

describe('a moderator of 1e200 or 1e-200', () => {
  it.each(ref.scaled.factors as number[])('× %s: kept, fitted and written as metafor fits the unscaled one', (factor) => {
    const effects: EffectRow[] = (ref.y as number[]).map((yi, i) => ({ study: 's', model: `m${i}`, game: 'g', yi, vi: ref.scaled.v[i],
      moderators: { x: String(ref.scaled.x[i] * factor) } }));
    expect(metaDesign(effects, ['x']).dropped).toEqual([]);
    const a = meta.analyze(effects, { ...META_DEFAULTS, effect: 'shift', moderators: ['x'] });
    const rows = regressionCsv(a)!.trim().split('\n').map((l) => l.split(','));
    const at = (term: string, col: string) => Number(rows.find((r) => r[0] === term)![rows[0].indexOf(col)]);
    const m = ref.scaled.metafor;
    for (const [got, want] of [[at('intercept', 'estimate'), m.b0], [at('intercept', 'se'), m.se0], [at('x', 'estimate') * factor, m.b1],
      [at('x', 'se') * factor, m.se1]]) expect(near(got, want), `${got} vs ${want}`).toBe(true);
  });
});
