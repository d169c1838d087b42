/**
 * The Baujat plot (Baujat et al. 2002, "A graphical method for exploring heterogeneity in
 * meta-analyses", Stat. Med. 21; metafor's baujat): each cell's contribution to the heterogeneity,
 * its squared Pearson residual (x), against its influence on the overall estimate (y). Cells at the
 * top right both disagree with the rest and move the result; influential cells are marked.
 */
import { COLORS, defineFigure, F3, MARK_ROOM, type Figure } from '../figure.js';

export interface BaujatPoint {
  readonly label: string;
  readonly study: string;
  readonly x: number;
  readonly y: number;
  readonly influential: boolean;
}

/** A scale with room at its ends (no nice rounding: its ticks stay at the data's values, no negative ones). */
const ROOMY = { padding: MARK_ROOM, nice: false };

export function metaBaujat(points: readonly BaujatPoint[], o: { readonly subtitle: string }): Figure {
  const values = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).map((p) => ({ ...p, flag: p.influential ? 'influential' : 'not flagged' }));
  return defineFigure('meta-baujat', 'Baujat plot: contribution to heterogeneity against influence on the overall estimate',
    ('Each cell\'s squared Pearson residual (yᵢ − μ̂)²/(vᵢ + τ̂²), its contribution to the heterogeneity (x), against its influence on the overall '
      + 'estimate, (μ̂₍ᵢ₎ − μ̂)²/Var μ̂₍ᵢ₎ with μ̂₍ᵢ₎ the estimate without it (y). Cells influential by metafor\'s rule (reports/meta-influence.csv) '
      + 'are drawn in orange and labelled.'), {
      title: { text: 'Baujat plot', subtitle: o.subtitle },
      width: 360,
      height: 280,
      layer: [
        {
          data: { values },
          mark: { type: 'point', filled: true, opacity: 0.85, size: 50 },
          encoding: {
            // Room at the ends: a cell of no residual and no influence sits at the origin, drawn whole.
            x: { field: 'x', type: 'quantitative', title: 'contribution to heterogeneity (squared Pearson residual)', scale: ROOMY,
              axis: { format: '.2f' } },
            y: { field: 'y', type: 'quantitative', title: 'influence on the overall estimate', scale: ROOMY, axis: { format: '.2f' } },
            color: { field: 'flag', type: 'nominal', title: 'Cell', scale: { domain: ['not flagged', 'influential'], range: [COLORS.base, COLORS.alt] } },
            tooltip: [
              { field: 'label', type: 'nominal', title: 'Cell' },
              { field: 'x', type: 'quantitative', title: 'Residual²', format: F3 },
              { field: 'y', type: 'quantitative', title: 'Influence', format: F3 },
            ],
          },
        },
        // The labels of the influential cells (no layer without one: an empty layer has no extent).
        ...(values.some((p) => p.influential) ? [{
          data: { values: values.filter((p) => p.influential) },
          mark: { type: 'text' as const, align: 'left' as const, dx: 6, dy: -6, fontSize: 11, color: '#222222' },
          encoding: { x: { field: 'x', type: 'quantitative' as const }, y: { field: 'y', type: 'quantitative' as const },
            text: { field: 'study', type: 'nominal' as const } },
        }] : []),
      ],
    });
}
