/** The pooled estimates as a table for the terminal. */
import { fixed } from '../../core/format.js';
import type { MetaAnalysis } from './pool.js';

const pad = (rows: string[][]): string => {
  const widths = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  return rows.map((r) => r.map((c, j) => c.padEnd(widths[j])).join('  ').trimEnd()).join('\n');
};

/** Per model, per study and overall (and the three-level row): k, estimate, CI, PI, τ², I². */
export function pooledText(a: MetaAnalysis): string {
  const rows = [['scope', 'k', a.settings.effect, '95% CI', '95% PI', 'tau2', 'I2']];
  for (const r of a.pooled) {
    rows.push([r.scope, String(r.k), fixed(r.estimate), `[${fixed(r.ci_lo)}, ${fixed(r.ci_hi)}]`,
      Number.isFinite(r.pi_lo) ? `[${fixed(r.pi_lo)}, ${fixed(r.pi_hi)}]` : '—', fixed(r.tau2, 4), fixed(r.I2, 2)]);
  }
  const m = a.multilevel;
  if (m) rows.push(['overall, three-level', String(m.k), fixed(m.estimate), `[${fixed(m.ci_lo)}, ${fixed(m.ci_hi)}]`, `[${fixed(m.pi_lo)}, ${fixed(m.pi_hi)}]`, fixed(m.sigma2_outer + m.sigma2_inner, 4), '']);
  return pad(rows);
}
