/** The figures of a meta-analysis: the forest plot, the funnel plot and the Baujat plot. */
import type { Figure } from '../../render/figure.js';
import { metaForest, metaFunnel, type MetaForestRow } from '../../render/charts/meta.js';
import type { MetaAnalysis } from './pool.js';
import { metaBaujat } from '../../render/charts/meta-baujat.js';
import { META_TEST_NAMES } from '../../stats/meta/univariate.js';
import { tQuantile } from '../../stats/meta/distributions.js';

/** A forest plot draws every cell up to this many; beyond it, only the pooled rows (the CSV has every cell). */
export const MAX_FOREST_CELLS = 300;

const EFFECT_NAMES = { shift: 'shift (p_alt − p_base)', logor: 'log odds ratio', distance: 'Jensen–Shannon distance √(1 − R2)' } as const;
export const effectName = (a: MetaAnalysis): string => EFFECT_NAMES[a.settings.effect];

function forestRows(a: MetaAnalysis): MetaForestRow[] {
  const z = tQuantile(1 - (1 - a.settings.level) / 2, Infinity);
  const cells: MetaForestRow[] = a.effects.length > MAX_FOREST_CELLS ? [] : [...a.effects]
    .sort((x, y) => (x.study === y.study ? 0 : a.effects.findIndex((r) => r.study === x.study) - a.effects.findIndex((r) => r.study === y.study)))
    .map((r) => ({ label: `${r.study} · ${r.model} · ${r.game}`, estimate: r.yi, lo: r.yi - z * Math.sqrt(r.vi), hi: r.yi + z * Math.sqrt(r.vi),
      kind: 'Cell' as const }));
  const pooled = a.pooled.map((p) => ({ label: `${p.scope} (pooled, k = ${p.k})`, estimate: p.estimate, lo: p.ci_lo, hi: p.ci_hi, kind: 'Pooled' as const }));
  // The three-level row when it has an interval (3 studies or more); else the overall row's prediction interval.
  const m = a.multilevel && Number.isFinite(a.multilevel.ci_lo) ? a.multilevel : undefined;
  const three = m ? [{ label: `overall, three-level (k = ${m.k}, ${m.studies} studies)`, estimate: m.estimate, lo: m.ci_lo, hi: m.ci_hi,
    kind: 'Pooled' as const }] : [];
  const headline = m ?? a.pooled.find((p) => p.scope === 'overall');
  const pi = headline && Number.isFinite(headline.pi_lo)
    ? [{ label: `prediction interval${m ? ' (three-level)' : ''}`, estimate: headline.estimate, lo: headline.pi_lo, hi: headline.pi_hi,
      kind: 'Prediction interval' as const }] : [];
  return [...cells, ...pooled, ...three, ...pi];
}

export function metaFigures(a: MetaAnalysis): Figure[] {
  if (a.effects.length === 0) return [];
  const effect = effectName(a);
  const s = a.settings;
  const how = s.pooling === 'fixed' ? 'fixed effect' : `random effects, τ² by ${s.tau2}, ${META_TEST_NAMES[s.test]} intervals`;
  const drawn = a.effects.length > MAX_FOREST_CELLS ? (`The ${a.effects.length.toLocaleString('en-US')} cells are not drawn (at most ${MAX_FOREST_CELLS}; ` +
    `reports/effects.csv has every one); `) : 'Each cell\'s effect with its 95 % Wald interval (circles), ';
  const caption = (`${drawn}the pooled estimates per model, per study and overall with their 95 % intervals (diamonds; ${how}) and the prediction interval ` +
    `of a new cell's effect (orange line).`);
  const overall = a.multilevel?.estimate ?? a.pooled.find((p) => p.scope === 'overall')?.estimate ?? 0;
  const subtitle = `${a.effects.length} cells from ${new Set(a.effects.map((r) => r.study)).size} studies; ${how}`;
  return [
    metaForest(forestRows(a), { effect, subtitle, caption }),
    metaFunnel(a.effects.map((r) => ({ study: r.study, label: `${r.study} · ${r.model} · ${r.game}`, yi: r.yi, se: Math.sqrt(r.vi) })), { effect,
      estimate: overall, subtitle }),
    ...(a.influence.length ? [metaBaujat(a.influence.map((r) => ({ label: `${r.study} · ${r.model} · ${r.game}`, study: r.study, x: r.baujat_x,
      y: r.baujat_y, influential: r.influential })), { subtitle })] : []),
  ];
}
