/** reports/reproduction.csv, the verification check, the sentence and the report section of a reproduction. */
import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import { check, type Check } from '../../core/checks.js';
import { fixed } from '../../core/format.js';
import { shown as shownName, type DisplayNames } from '../../core/display-names.js';
import { toCsv } from '../../render/csv.js';
import { num, type Block, type CellInput, type Section } from '../../render/html.js';
import { ASSUMED_PUBLISHED_REPS, type Reproduction, type ReproductionRow } from './compare.js';
import { TABLE_NAMES } from './table-names.js';

export const REPRODUCTION_COLUMNS = ['table', 'model', 'game', 'statistic', 'published', 'computed', 'difference', 'tolerance', 'verdict'] as const;

/** "Table 3 GPT-3.5 R_lo", "Table 2 GPT-4 / Stag Hunt alt_count"; the model and game by display name where `names` gives one. */
export function rowLabel(r: Pick<ReproductionRow, 'table' | 'model' | 'game' | 'statistic'>, names?: DisplayNames): string {
  return `${TABLE_NAMES[r.table].label} ${shownName(names, r.model)}${r.game ? ` / ${shownName(names, r.game)}` : ''} ${r.statistic}`;
}

/**
 * Decimals a statistic's numbers are written at, the same for every row of the statistic (so
 * 0.08667, 0.00000 and 1.00000 line up): computed values at two more than the most its published
 * values carry (a count, published whole, as a whole number); differences and tolerances at two
 * more in every case (a count's tolerance is 0.50).
 */
export function statisticDecimals(rows: readonly ReproductionRow[]): (r: ReproductionRow) => { computed: number; spread: number } {
  const most = new Map<string, number>();
  const key = (r: ReproductionRow) => `${r.table} ${r.statistic}`;
  for (const r of rows) most.set(key(r), Math.max(most.get(key(r)) ?? 0, r.decimals));
  return (r) => { const d = most.get(key(r)) ?? r.decimals; return { computed: d === 0 ? 0 : d + 2, spread: d + 2 }; };
}

/** A computed value at two more decimals than were published (whole numbers as they are; `digits` overrides). */
export const shown = (r: ReproductionRow, x = r.computed, digits?: number): string =>
  (digits !== undefined ? fixed(x, digits) : Number.isInteger(x) ? String(x) : fixed(x, r.decimals + 2));

export function reproductionCsv(rep: Reproduction): string {
  return toCsv(REPRODUCTION_COLUMNS, rep.rows.map((r) => [
    r.table, r.model, r.game, r.statistic, { numberText: r.published }, r.computed, r.difference, r.tolerance, r.verdict,
  ]));
}

export const reproductionFile = (reportsDir: string, rep: Reproduction): OutputFile =>
  ({ path: join(reportsDir, 'reproduction.csv'), content: reproductionCsv(rep) });

/** ", did you mean model "GPT-4"?" for a missing row with a near name; else nothing. */
const hint = (r: ReproductionRow): string => (r.suggestion ? `, did you mean ${r.suggestion}?` : '');

/** Rows that are not exact of one verdict, named: "Table 3 GPT-3.5 R_lo 0.956 vs 0.9553". */
function named(rep: Reproduction, verdict: ReproductionRow['verdict'], names?: DisplayNames): string {
  const rows = rep.rows.filter((r) => r.verdict === verdict);
  if (rows.length === 0) return '';
  const label = (r: ReproductionRow) => rowLabel(r, names);
  return ` (${rows.map((r) => (verdict === 'missing' ? `${label(r)}${hint(r)}` : `${label(r)}: ${r.published} published, ${shown(r)} computed`)).join(
    '; ')})`;
}

/**
 * One sentence: the counts by verdict, naming every number that is not exact (by display names where `names` gives them),
 * e.g. "84 published numbers: 78 exact, 6 within Monte Carlo error (…), 0 differ."
 */
export function reproductionSentence(rep: Reproduction, names?: DisplayNames): string {
  const c = rep.counts;
  const missing = c.missing ? `, ${c.missing} missing${named(rep, 'missing', names)}` : '';
  return `${rep.rows.length} published numbers: ${c.exact} exact, ${c['within-mc']} within Monte Carlo error${named(rep, 'within-mc', names)}, `
    + `${c.differs} differ${named(rep, 'differs', names)}${missing}.${assumedText(rep)}`;
}

/** Says when some endpoints were compared with the assumed B_p (no `reps`, no --published-reps); empty otherwise. */
export function assumedText(rep: Reproduction): string {
  const n = rep.rule.assumedReps;
  return n === 0 ? '' : (` ${n} interval endpoint${n === 1 ? '' : 's'} with no \`reps\` and no --published-reps: compared assuming the publication used B_p ` +
    `= ${count(ASSUMED_PUBLISHED_REPS)} bootstrap replicates (the smallest count in common use).`);
}

function failure(r: ReproductionRow): string {
  if (r.verdict === 'missing') return `${rowLabel(r)}: published ${r.published}, missing from the computation (no such model, game or statistic${hint(r)})`;
  return (`${rowLabel(r)}: published ${r.published}, computed ${shown(r)}; |difference| ${fixed(Math.abs(r.difference), r.decimals + 2)} > ` +
    `tolerance ${fixed(r.tolerance, r.decimals + 2)}`);
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The verdict rule's parameters in one sentence (the report's caption of reproduction.csv):
 * "Family-wise α = 0.05 over k = 16 interval endpoints: z = Φ⁻¹(1 − α/(2k)) = 2.955; B_c = 10,000 computed, B_p = 10,000 published replicates."
 */
export function reproductionRuleText(rep: Reproduction): string {
  const r = rep.rule;
  if (r.k === 0) return (`Family-wise α = ${r.alpha}: no interval endpoint compared (points are exact or differ); B_c = ${count(r.computedReps)} computed ` +
    `replicates.`);
  return `Family-wise α = ${r.alpha} over k = ${r.k} interval endpoint${r.k === 1 ? '' : 's'}: z = Φ⁻¹(1 − α/(2k)) = ${fixed(r.z, 3)}; `
    + `B_c = ${count(r.computedReps)} computed, B_p = ${r.publishedReps.map(count).join(' or ')} published replicates.${assumedText(rep)}${methodText(rep)}`;
}

/** Says when the endpoints were compared by another interval method than the tables show (the publication's); empty otherwise. */
export function methodText(rep: Reproduction): string {
  const shown = rep.shownMethod;
  const other = rep.rule.methods.filter((m) => m !== shown);
  return other.length === 0 ? '' : (` Endpoints compared as ${other.join(' and ')} intervals, the publication's method, read off the same replicates; the ` +
    `tables show ${shown === 'bca' ? 'BCa' : shown} intervals.`);
}

/** The comparison's settings and counts for metrics.json. */
export function reproductionMetrics(rep: Reproduction) {
  const r = rep.rule;
  return {
    published: rep.path, sha256: rep.sha256,
    rule: ('endpoints: within-mc when [p - h, p + h] meets [Q(q - delta), Q(q + delta)] of the replicates, delta = z * sqrt(q(1 - q)(1/B_c + 1/B_p)), z = ' +
      'Phi^-1(1 - alpha/(2k)); points: exact or differs'),
    alpha: r.alpha, k: r.k, z: Number.isFinite(r.z) ? r.z : null, computed_reps: r.computedReps, published_reps: [...r.publishedReps],
    ...(r.assumedReps ? { published_reps_assumed: { endpoints: r.assumedReps, reps: ASSUMED_PUBLISHED_REPS } } : {}),
    ...(r.methods.some((m) => m !== rep.shownMethod) ? { compared_methods: [...r.methods], shown_method: rep.shownMethod } : {}),
    counts: { ...rep.counts },
    ...(rep.selection ? { selection: rep.selection } : {}),
  };
}

/** `published_values_reproduced`: fails when any published number differs or is missing. */
export function reproductionCheck(rep: Reproduction): Check {
  const c = rep.counts;
  return check('published_values_reproduced', 'every published number is reproduced exactly or within Monte Carlo error (--expect)',
    (`${rep.rows.length} published numbers from ${rep.path}: ${c.exact} exact, ${c['within-mc']} within Monte Carlo ` +
      `error, ${c.differs} differ, ${c.missing} missing`),
    rep.rows.filter((r) => r.verdict === 'differs' || r.verdict === 'missing').map(failure));
}

/** Exact numbers green, differing or missing ones red; within Monte Carlo error is left plain. */
/** The verdict in its colour, the same as in the figure (render/verdict-colors.ts). */
const verdictCell = (r: ReproductionRow): CellInput => ({ text: r.verdict, verdict: r.verdict });

/**
 * A row's computed value, difference and tolerance as the tables print them (the report's and
 * reproduction.tex): each statistic at its decimals (statisticDecimals); undefined for a missing row.
 */
export function shownNumbers(rows: readonly ReproductionRow[]): (r: ReproductionRow) => { computed: string; difference: string;
  tolerance: string } | undefined {
  const digits = statisticDecimals(rows);
  return (r) => {
    if (r.verdict === 'missing') return undefined;
    const d = digits(r);
    return { computed: shown(r, r.computed, d.computed), difference: fixed(r.difference, d.spread), tolerance: fixed(r.tolerance, d.spread) };
  };
}

/** The report's section: the sentence and the table of reproduction.csv, models and games by display name where `names` gives one. */
export function reproductionSection(rep: Reproduction, names?: DisplayNames): Section {
  const numbers = shownNumbers(rep.rows);
  const row = (r: ReproductionRow): CellInput[] => {
    const n = numbers(r);
    return [TABLE_NAMES[r.table].label, shownName(names, r.model), r.game ? shownName(names, r.game) : r.game, r.statistic, num(r.published),
      num(n?.computed ?? 'NA'), num(n?.difference ?? 'NA'), num(n?.tolerance ?? 'NA'), verdictCell(r)];
  };
  // The numbers that are not exact first, in a table of their own; the exact ones folded below it.
  const notExact = rep.rows.filter((r) => r.verdict !== 'exact'), exact = rep.rows.filter((r) => r.verdict === 'exact');
  const blocks: Block[] = [
    { kind: 'text', text: reproductionSentence(rep, names) },
    ...(rep.selection ? [{ kind: 'text' as const, text: `Compared in part: ${rep.selection}.` }] : []),
    { kind: 'text', text: (`Published values: ${rep.path} (SHA-256 ${rep.sha256}). A number is exact when the computed value rounds to it at its printed ` +
      `precision (|computed − published| ≤ h, half a unit of its last digit, in exact decimal arithmetic). An interval endpoint read at quantile level q is ` +
      `within Monte Carlo error when the published value's rounding interval [p − h, p + h] meets [Q̂(q − δ), Q̂(q + δ)], quantiles of the computation's ` +
      `own replicates, with δ = z·√(q(1 − q)(1/B_c + 1/B_p)): the values a correct publication with B_p replicates reports, all k endpoints together, with ` +
      `probability about 1 − α. Points do not depend on the bootstrap: exact or they differ. Tolerance: the distance from the computed value to the edge of ` +
      `the accepted band on the published value's side (a number differs when |difference| > tolerance). Missing: the computation has no such model, game ` +
      `or statistic.`) },
    {
      kind: 'table', id: 'reproduction-values', caption: `reports/reproduction.csv. ${reproductionRuleText(rep)}`,
      columns: ['Table', 'Model', 'Game', 'Statistic', num('Published'), num('Computed'), num('Difference'), num('Tolerance'), 'Verdict'],
      rows: notExact.map(row),
      ...(exact.length ? { folded: { summary: `The ${exact.length} exact number${exact.length === 1 ? '' : 's'} (all in reports/reproduction.csv)`,
        rows: exact.map(row) } } : {}),
    },
  ];
  return { id: 'reproduction', heading: 'Reproduction of the published values', blocks };
}
