import type { CompareRow } from './compare.js';
import { COLORS, defineFigure, F3, ONE_ROW, type Figure } from '../../render/figure.js';

/**
 * Side by side: per matched cell, the direct-run rate minus the reconstructed rate
 * with its 95 % bootstrap interval (both cells redrawn), against a zero line.
 */
export function compareFigure(rows: readonly CompareRow[], subtitle: string): Figure {
  const values = rows.map((r) => ({ ...r, cell: `${r.model} · ${r.game} · ${r.framing}` }));
  const y = { field: 'cell', type: 'nominal', sort: values.map((v) => v.cell), title: null } as const;
  return defineFigure(
    'compare-direct-reconstructed',
    'Direct run vs reconstructed data, cell by cell',
    ('Difference of the direct-run cooperation rate and the reconstructed one, per matched cell, with the 95 % percentile-bootstrap interval of the ' +
      'difference (both cells redrawn). Zero means the direct run reproduces the reconstruction.'),
    {
      title: { text: 'Direct − reconstructed cooperation rate', subtitle },
      data: { values },
      width: 420,
      height: { step: 22 },
      layer: [
        { mark: { type: 'rule', color: '#999999', strokeDash: [4, 3] }, transform: ONE_ROW, encoding: { x: { datum: 0, type: 'quantitative' } } },
        { mark: { type: 'rule', strokeWidth: 2.5, color: COLORS.base }, encoding: { y, x: { field: 'diff_lo', type: 'quantitative' },
          x2: { field: 'diff_hi' } } },
        {
          mark: { type: 'point', filled: true, size: 60, color: COLORS.base, opacity: 1 },
          encoding: {
            y,
            x: { field: 'difference', type: 'quantitative', title: 'Direct − reconstructed rate (95 % interval)', axis: { format: '.2f' } },
            tooltip: [
              { field: 'cell', type: 'nominal', title: 'Cell' },
              { field: 'direct_rate', type: 'quantitative', title: 'Direct rate', format: F3 },
              { field: 'direct_n', type: 'quantitative', title: 'Direct n' },
              { field: 'reconstructed_rate', type: 'quantitative', title: 'Reconstructed rate', format: F3 },
              { field: 'difference', type: 'quantitative', title: 'Difference', format: F3 },
              { field: 'diff_lo', type: 'quantitative', title: '2.5 %', format: F3 },
              { field: 'diff_hi', type: 'quantitative', title: '97.5 %', format: F3 },
            ],
          },
        },
      ],
    },
  );
}
