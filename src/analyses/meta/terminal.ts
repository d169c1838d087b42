/** The pooled estimates as a table for the terminal. */
import { fixed, interval } from '../../core/format.js';
import { textTable } from '../two-framing/index.js';
import type { MetaAnalysis } from './pool.js';

const orDash = (lo: number, hi: number) => (Number.isFinite(lo) ? interval(lo, hi) : '—');

/** Per model, per study and overall (and the three-level row): k, estimate, CI, PI, τ², I². */
export function pooledText(a: MetaAnalysis): string {
  const rows = a.pooled.map((r) => [r.scope, String(r.k), fixed(r.estimate), interval(r.ci_lo, r.ci_hi), orDash(r.pi_lo, r.pi_hi), fixed(r.tau2, 4),
    fixed(r.I2, 2)]);
  const m = a.multilevel;
  if (m) {
    rows.push(['overall, three-level', String(m.k), fixed(m.estimate), orDash(m.ci_lo, m.ci_hi), orDash(m.pi_lo, m.pi_hi),
      fixed(m.sigma2_outer + m.sigma2_inner, 4), '']);
  }
  return textTable(['scope', 'k', a.settings.effect, '95% CI', '95% PI', 'tau2', 'I2'], rows);
}
