import { POOLED, stat } from '../../core/names.js';
import { fixed, interval } from '../../core/format.js';
import { num, type Block, type CellInput, type Section } from '../../render/html.js';
import { gameAsIs, type GameLabel, type TwoFramingAnalysis } from '../two-framing/index.js';
import type { Comparison } from './compare.js';
import type { LambdaRow } from './tables.js';
import { table3Columns } from '../../stats/table3.js';

/**
 * Report sections of a direct run beyond the two-framing ones: the λ̂ payoff-sensitivity
 * diagnostic with V_λ (Same Game, Different Story §3.4; the rows of reports/lambda.csv), and the
 * comparison with reconstructed data — the headline table of compare-headline.csv and the cells
 * of compare.csv.
 */

export function lambdaSection(rows: readonly LambdaRow[], gameName: GameLabel = gameAsIs): Section {
  const first = rows[0];
  const blocks: Block[] = [
    { kind: 'text', text: ('λ̂ = clamp(logit(p̃)/Δu, 0, 20) with p̃ = (x + 0.5)/(T + 1), the logit payoff sensitivity that reproduces a framing\'s ' +
      'cooperation; Δu is the row player\'s expected payoff gap at q = 0.5 with payoffs normalized to [0, 1]. V_λ = (λ̂ base − λ̂ alt)²/4, the population ' +
      'variance of the planned pair\'s two values (Same Game, Different Story §3.4; docs/methods.md). 95 % percentile-bootstrap intervals; NA where Δu is 0 ' +
      'or unknown. Full precision: lambda.csv.') },
  ];
  if (first) {
    blocks.push({
      kind: 'table', id: 'lambda-table',
      columns: ['Model', 'Game', num('Δu'), num(`λ̂ ${first.base_framing}`), num('95 % CI'), num(`λ̂ ${first.alt_framing}`), num('95 % CI'), num('V_λ'),
        num('95 % CI')],
      rows: rows.map((r) => [r.model, gameName(r.game), num(fixed(r.delta_u)),
        num(fixed(r.lambda_base)), num(interval(r.lambda_base_lo, r.lambda_base_hi)),
        num(fixed(r.lambda_alt)), num(interval(r.lambda_alt_lo, r.lambda_alt_hi)),
        num(fixed(r.V_lambda)), num(interval(r.V_lambda_lo, r.V_lambda_hi))]),
    });
    const notes = [...new Set(rows.map((r) => r.note))];
    blocks.push({ kind: 'list', items: notes });
  }
  return { id: 'lambda', heading: 'λ̂ payoff sensitivity and V_λ', blocks };
}

/** The Table 3 statistics of the direct run and of the reconstructed data, under the same settings. */
function headlineTable(direct: TwoFramingAnalysis, c: Comparison): Block {
  const rows: CellInput[][] = [];
  for (const [label, a] of [['direct', direct], ['reconstructed', c.reconstructed]] as const) {
    for (const g of [...a.layout.models, POOLED]) {
      rows.push([label, g, ...table3Columns().flatMap((c) => {
        const v = a.boot.get(stat(c.names.groupConservative, g));
        return [num(fixed(v.point)), num(interval(v.lo, v.hi))];
      })]);
    }
  }
  return {
    kind: 'table', id: 'compare-headline', caption: `Headline statistics of both sources (attenuation a = ${direct.settings.attenuation} for both)`,
    columns: ['Source', 'Model', ...table3Columns().flatMap((c) => [num(c.label), num('95 % CI')])], rows,
  };
}

export function compareSections(direct: TwoFramingAnalysis, c: Comparison | undefined, gameName: GameLabel = gameAsIs): Section[] {
  if (!c) return [];
  const cells: Block = {
    kind: 'table', id: 'compare-cells', caption: 'Cell by cell: direct − reconstructed cooperation rate',
    columns: ['Model', 'Game', 'Framing', num('Direct'), num('Reconstructed'), num('Difference [95 %]')],
    rows: c.rows.map((r) => [r.model, gameName(r.game), r.framing, num(fixed(r.direct_rate)), num(fixed(r.reconstructed_rate)),
      num(`${fixed(r.difference)} ${interval(r.diff_lo, r.diff_hi)}`)]),
  };
  const unmatched: Block[] = c.unmatchedDirect.length ? [{ kind: 'list', items: c.unmatchedDirect.map((u) => `unmatched direct cell: ${u}`) }] : [];
  return [{ id: 'compare', heading: 'Direct run beside the reconstructed data', blocks: [headlineTable(direct, c), cells, ...unmatched] }];
}
