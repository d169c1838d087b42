/**
 * The selective-robustness table as LaTeX (reports/selective.tex): per model and condition, surface
 * sensitivity and world responsiveness in percentage points with their 95 % intervals (as
 * selective.md prints them; selective.csv keeps fractions at full precision) and the verdict,
 * models by their display names; laid out for `--latex-width` like every .tex (render/latex.ts).
 */
import { shown } from '../../core/display-names.js';
import { intervalCell, latexTable, leftColumn, rightColumn, type LatexCell, type LatexOptions } from '../../render/latex.js';
import { points } from './equivalence.js';
import type { SelectiveAnalysis } from './types.js';

/** A metric and its interval in points ("1.2 [0.3, 2.1]"); empty where there is none. */
const inPoints = (x: number, lo: number, hi: number): LatexCell => {
  const p = (v: number) => (Number.isFinite(v) ? points(v) : '');
  return intervalCell(p(x), p(lo), p(hi));
};

export function selectiveLatex(a: SelectiveAnalysis, latex: LatexOptions = {}): string {
  const [hi, lo] = a.facts.spec.worlds;
  const synthetic = a.facts.simulated.length
    ? `Synthetic data: ${a.facts.simulated.map((m) => shown(a.names, m)).join(', ')} answered through the simulated provider.` : undefined;
  return latexTable({
    caption: (`Selective robustness of ${a.source.run.designName} (run ${a.source.run.id}): surface sensitivity (SS, the mean change of the first ` +
      `action's probability between the canonical and each other format) and world responsiveness (WR, p(${hi}) − p(${lo})), in percentage points ` +
      `with 95 % bootstrap intervals (B = ${a.settings.reps}). Selectively robust: the simultaneous 95 % upper bound of SS at most ` +
      `${points(a.thresholds.maxSurface)} points and the WR interval above ${points(a.thresholds.minWorldLo)} points.`),
    label: 'tab:selective',
    columns: [leftColumn('Model'), leftColumn('Condition'), rightColumn('SS (points)'), rightColumn('WR (points)'), leftColumn('Verdict')],
    rows: a.rows.map((r) => [shown(a.names, r.model), r.condition, inPoints(r.ss, r.ssLo, r.ssHi), inPoints(r.wr, r.wrLo, r.wrHi), r.verdict]),
    ...(synthetic ? { note: synthetic } : {}),
  }, latex);
}
