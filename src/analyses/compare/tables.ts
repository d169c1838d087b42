import type { CellTally } from '../../sources/store.js';
import type { TwoFramingAnalysis } from '../two-framing/index.js';
import type { Comparison } from './compare.js';
import { POOLED, stat } from '../../core/names.js';
import { toCsv } from '../../render/csv.js';
import { table3Columns, table3Statistics } from '../../stats/table3.js';

/** Per cell: valid, invalid and failed trials, and how the cell was scored. */
export function invalidCsv(tallies: readonly CellTally[]): string {
  const extra = [...new Set(tallies.flatMap((t) => Object.keys(t.factors)))].sort();
  return toCsv(['model', 'game', 'framing', ...extra, 'valid', 'invalid', 'error', 'invalid_share', 'scoring'],
    tallies.map((t) => {
      const all = t.valid + t.invalid;
      return [t.model, t.game, t.framing, ...extra.map((f) => t.factors[f] ?? ''), t.valid, t.invalid, t.error, all ? t.invalid / all : NaN, t.scoring];
    }));
}

export interface LambdaRow {
  model: string; game: string; delta_u: number;
  base_framing: string; lambda_base: number; lambda_base_lo: number; lambda_base_hi: number;
  alt_framing: string; lambda_alt: number; lambda_alt_lo: number; lambda_alt_hi: number;
  V_lambda: number; V_lambda_lo: number; V_lambda_hi: number; note: string;
}

/** λ̂ per framing of the planned pair and V_λ (population variance of the two), Same Game, Different Story §3.4. */
export function lambdaRows(a: TwoFramingAnalysis, gaps: ReadonlyMap<string, number>): LambdaRow[] {
  const { base, alt } = a.layout;
  return a.layout.pairs.map((p) => {
    const lb = a.boot.get(stat('lambda', p.model, p.game, base));
    const ls = a.boot.get(stat('lambda', p.model, p.game, alt));
    const v = a.boot.get(stat('Vlambda', p.model, p.game));
    const du = gaps.get(p.game) ?? NaN;
    const note = !Number.isFinite(du) ? 'payoffs unknown: no λ̂'
      : du === 0 ? 'Δu = 0 at q = 0.5: the game gives no expected payoff gap, so λ̂ is undefined'
        : 'λ̂ clamped to [0, 20]; V_λ is the population variance of the two values';
    return {
      model: p.model, game: p.game, delta_u: du,
      base_framing: base, lambda_base: lb.point, lambda_base_lo: lb.lo, lambda_base_hi: lb.hi,
      alt_framing: alt, lambda_alt: ls.point, lambda_alt_lo: ls.lo, lambda_alt_hi: ls.hi,
      V_lambda: v.point, V_lambda_lo: v.lo, V_lambda_hi: v.hi, note,
    };
  });
}

export function lambdaCsv(a: TwoFramingAnalysis, gaps: ReadonlyMap<string, number>): string {
  const rows = lambdaRows(a, gaps);
  const cols = ['model', 'game', 'delta_u', 'base_framing', 'lambda_base', 'lambda_base_lo', 'lambda_base_hi', 'alt_framing',
    'lambda_alt', 'lambda_alt_lo', 'lambda_alt_hi', 'V_lambda', 'V_lambda_lo', 'V_lambda_hi', 'note'] as const;
  return toCsv(cols, rows.map((r) => cols.map((c) => r[c])));
}

export function compareCsv(c: Comparison): string {
  const cols = ['model', 'game', 'framing', 'direct_rate', 'direct_n', 'reconstructed_rate', 'reconstructed_n', 'difference', 'diff_lo', 'diff_hi'] as const;
  return toCsv(cols, c.rows.map((r) => cols.map((k) => r[k])));
}

/** Headline statistics (Table 3 rows) of the direct run and of the reconstructed data. */
export function compareHeadlineCsv(direct: TwoFramingAnalysis, c: Comparison): string {
  const rows: (string | number)[][] = [];
  for (const [label, a] of [['direct', direct], ['reconstructed', c.reconstructed]] as const) {
    for (const g of [...a.layout.models, POOLED]) {
      const values = table3Columns().flatMap((c) => { const v = a.boot.get(stat(c.names.groupConservative, g)); return [v.point, v.lo, v.hi]; });
      rows.push([label, g, ...values, a.settings.attenuation]);
    }
  }
  // Both sources under the same settings (direct runs default to attenuation 1, so these
  // reconstructed values are then the unattenuated ones, not the seed's 0.70 Table 3).
  return toCsv(['source', 'model', ...table3Statistics(), 'attenuation'], rows);
}
