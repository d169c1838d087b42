import type { BinaryObservations } from '../../core/cells.js';
import { cellRate, cellSize, isDegenerate, levels } from '../../core/cells.js';
import { POOLED, stat } from '../../core/names.js';
import { jsdBernoulli } from '../../stats/jsd.js';
import type { TwoFramingAnalysis } from './analysis.js';
import type { DecimalText } from '../../core/decimal.js';
import { countReproducesRate } from '../../core/decimal.js';
import { check, makeReport, type Check, type DegenerateCell, type VerificationReport } from '../../core/checks.js';

export interface VerifyInput {
  readonly analysis: TwoFramingAnalysis;
  /** Σ n as read from the input rows, independently of the cell table. */
  /** The decisions the input says there are, and how that number was obtained. */
  readonly expectedDecisions: { readonly value: number; readonly source: string };
  /** Rows that reported a rate: the count must reproduce it at its decimals (absent for direct runs). */
  readonly reportedRates?: readonly { cell: string; x: number; n: number; rate: DecimalText }[];
  /** Names of the CSV tables the run writes (e.g. table2, table3, family-robustness, compare). */
  readonly tables: readonly string[];
  /** Tables the user asked for beside the empirical ones (analyze --compare), not counted against the check. */
  readonly requestedComparisons?: readonly string[];
}

const TOL = 1e-12;

/**
 * The numerical checks of Same Game, Different Story Appendix C. Each names what it saw; `reproduce` exits non-zero
 * when one fails. The pooled-mean check recomputes from the counts on its own path.
 */
export function verifyTwoFraming(v: VerifyInput): VerificationReport {
  const a = v.analysis;
  const { boot, layout, table } = a;
  const groups = [...layout.models, POOLED];
  const checks: Check[] = [];

  // Reported statistics: Table 3 (and the family table when present).
  const reported = groups.flatMap((g) => [stat('R', g), stat('shift', g)]);
  if (a.family) reported.push(...a.family.groups.map((g) => stat('Rfam', g.model, g.game)), ...a.family.models.map((m) => stat('Rfam', m)), stat('Rfam', POOLED));
  const robustNames = boot.names.filter((n) => /^(R2|Rc|R_raw|R|Rfam)\[/.test(n));
  const shiftNames = boot.names.filter((n) => /^(shift|shiftc|shift_raw)\[/.test(n));

  {
    const bad: string[] = [];
    let lo = Infinity, hi = -Infinity;
    for (const n of robustNames) {
      const s = boot.get(n);
      for (const x of [s.point, s.lo, s.hi]) {
        lo = Math.min(lo, x); hi = Math.max(hi, x);
        if (!(x >= 0 && x <= 1)) bad.push(`${n} = ${x}`);
      }
    }
    checks.push(check('robustness_in_unit_interval', 'every robustness score and interval endpoint lies in [0, 1]',
      `${robustNames.length} statistics, range [${lo}, ${hi}]`, bad));
  }
  {
    // R = 1 exactly (equal rates in every framing) is the top of R's range: resampling can only
    // lower it, so a percentile interval lies below its point there. That is the bootstrap at a
    // boundary, not an error; such intervals are counted and named in the value, not failed.
    const bad: string[] = [];
    const atBoundary: string[] = [];
    for (const n of reported) {
      const s = boot.get(n);
      const ordered = s.lo <= s.hi;
      if (ordered && s.point === 1 && /^(R|Rfam)\[/.test(n) && s.lo <= 1 && s.hi <= 1 && !(s.point <= s.hi + TOL)) { atBoundary.push(n); continue; }
      if (!(ordered && s.lo <= s.point + TOL && s.point <= s.hi + TOL)) bad.push(`${n}: ${s.point} not in [${s.lo}, ${s.hi}]`);
    }
    const note = atBoundary.length ? `; ${atBoundary.length} at the bound R = 1, where the interval lies below its point: ${atBoundary.join(', ')}` : '';
    checks.push(check('intervals_ordered_and_contain_point', 'every reported interval is ordered and contains its point estimate (R = 1 exactly excepted: see value)',
      `${reported.length} reported intervals${note}`, bad));
  }
  {
    const expected = levels(table, 'model').length * levels(table, 'game').length * levels(table, 'framing').length;
    const got = table.cells.length;
    checks.push(check('cell_count', 'cells = models × games × framings of the input', `${got} cells, expected ${expected}`,
      got === expected ? [] : [`${got} ≠ ${expected}`]));
  }
  {
    const got = table.cells.reduce((s, c) => s + cellSize(c.obs), 0);
    const want = v.expectedDecisions;
    checks.push(check('decision_count', `decisions analysed = ${want.source}`, `${got} decisions, expected ${want.value}`,
      got === want.value ? [] : [`${got} ≠ ${want.value}`]));
  }
  {
    const bad: string[] = [];
    for (const n of shiftNames) {
      const s = boot.get(n);
      for (const x of [s.point, s.lo, s.hi]) if (!(x >= -1 && x <= 1)) bad.push(`${n} = ${x}`);
    }
    checks.push(check('shift_in_range', 'every action shift and interval endpoint lies in [−1, 1]', `${shiftNames.length} statistics`, bad));
  }
  {
    // Independent recomputation: straight from the counts, per model then pooled, no estimand code.
    const bad: string[] = [];
    const byModel = new Map<string, number[][]>();
    const all: number[][] = [];
    const key = (m: string, g: string, f: string) => JSON.stringify([m, g, f]);
    const rateOf = new Map(table.cells.map((c) => [key(c.key.model, c.key.game, c.key.framing), cellRate(c.obs)]));
    for (const p of layout.pairs) {
      const pb = rateOf.get(key(p.model, p.game, layout.base))!;
      const ps = rateOf.get(key(p.model, p.game, layout.alt))!;
      const pair = [1 - jsdBernoulli(pb, ps) / Math.LN2, ps - pb];
      all.push(pair);
      if (!byModel.has(p.model)) byModel.set(p.model, []);
      byModel.get(p.model)!.push(pair);
    }
    const att = a.settings.attenuation;
    const compare = (g: string, vals: number[][]) => {
      const r = vals.reduce((s, x) => s + x[0], 0) / vals.length;
      const d = vals.reduce((s, x) => s + x[1], 0) / vals.length;
      const want = { R: 1 - att * (1 - r), shift: att * d, R_raw: r, shift_raw: d };
      for (const [k, w] of Object.entries(want)) {
        const got = boot.get(stat(k, g)).point;
        if (Math.abs(got - w) > 1e-12) bad.push(`${stat(k, g)} = ${got}, mean gives ${w}`);
      }
    };
    for (const [m, vals] of byModel) compare(m, vals);
    compare(POOLED, all);
    checks.push(check('pooled_equals_unrounded_mean', 'per-model and pooled values equal the unrounded means of the model–game values (recomputed from the counts)',
      `${layout.pairs.length} model–game values, ${byModel.size} models`, bad));
  }
  {
    const bad: string[] = [];
    // Same Game, Different Story Appendix C: exactly two empirical tables (Tables 2 and 3) and no external numeric
    // comparison table. Family robustness and per-cell diagnostics are supplementary, not
    // empirical tables of their own; a comparison the user asked for (--compare) is allowed.
    const empirical = v.tables.filter((t) => /^table\d+$/.test(t));
    const requested = new Set(v.requestedComparisons ?? []);
    const comparisons = v.tables.filter((t) => /compar/.test(t));
    const external = comparisons.filter((t) => !requested.has(t));
    const asked = comparisons.filter((t) => requested.has(t));
    if (empirical.length !== 2) bad.push(`${empirical.length} empirical tables: ${empirical.join(', ')}`);
    if (external.length) bad.push(`external comparison tables: ${external.join(', ')}`);
    // The description says what was written: with --compare the comparison tables are there, as requested.
    const description = asked.length
      ? `the report has exactly two empirical tables; its comparison tables (${asked.join(', ')}) are the ones requested with --compare, and no other`
      : 'the report has exactly two empirical tables and no external comparison table';
    checks.push(check('two_empirical_tables', description,
      `empirical: ${empirical.join(', ')}; external: ${external.length ? external.join(', ') : 'none'}${requested.size ? ` (requested: ${[...requested].join(', ')})` : ''}`, bad));
  }
  if (v.reportedRates) {
    const bad = v.reportedRates.filter((r) => !countReproducesRate(r.x, r.n, r.rate)).map((r) => `${r.cell}: ${r.x}/${r.n} does not round to ${r.rate.text}`);
    checks.push(check('counts_reproduce_rates', 'every reconstructed count reproduces its reported rate at the reported decimals',
      `${v.reportedRates.length} rates checked`, bad));
  }

  const degenerate: DegenerateCell[] = table.cells.filter((c) => isDegenerate(c.obs)).map((c) => {
    const o = c.obs as BinaryObservations;
    const x = o.kind === 'binary' ? o.x : NaN;
    const n = cellSize(c.obs);
    return {
      cell: `${c.key.model} / ${c.key.game} / ${c.key.framing}`, x, n,
      note: `${o.kind === 'binary' ? `${x}/${n}` : 'all trials equal'}: the bootstrap cannot vary this cell; its statistics carry no sampling uncertainty from it`,
    };
  });
  return makeReport(checks, degenerate);
}
