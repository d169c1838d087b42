import { join } from 'node:path';
import type { OutputFile } from '../../core/atomic.js';
import type { BinaryObservations } from '../../core/cells.js';
import { ALL_GAMES, POOLED } from '../../core/names.js';
import type { BootstrapResult } from '../../stats/bootstrap.js';
import { finiteOrNull, fixed, interval } from '../../core/format.js';
import { jsdBernoulli } from '../../stats/jsd.js';
import { framingTest, type FramingPairCounts } from '../../stats/framing-test.js';
import { moverInterval, type WeightedRate } from '../../stats/wilson.js';
import { toCsv } from '../../render/csv.js';
import { allTable3Variants, TEST_INVERSION_HEADER } from '../../stats/table3.js';
import { num, type Block } from '../../render/html.js';
import type { CellTable } from '../../core/cells.js';
import type { FramingPair, TwoFramingLayout } from './estimand.js';

/** What the tests read of a two-framing analysis (analysis.ts's TwoFramingAnalysis, which also calls them). */
export interface FramingTestInput {
  readonly table: CellTable;
  readonly layout: TwoFramingLayout;
  readonly settings: { readonly attenuation: number };
  readonly boot: BootstrapResult;
}

/**
 * The "R = 1" (no framing effect) test beside every R, the bias-corrected R with its interval by
 * test inversion, and the shift's MOVER-Wilson interval (docs/methods.md §8.5): per pair, per
 * model (game "All") and pooled. Computed from the counts, so binary cells only; a group with any
 * other cell has no test (empty fields).
 */
export interface FramingTestRow {
  model: string; game: string; pairs: number;
  G: number; df: number; p_value: number;
  /** "yes" when p < 0.05, "no" otherwise; empty without a test. */
  framing_changes_behaviour: string;
  /** chi2, or exact: the larger of the χ² and the exact conditional p (a pair with an expected count below 5). */
  p_method: string;
  R_corrected: number; R_test_lo: number; R_test_hi: number;
  shift: number; shift_wilson_lo: number; shift_wilson_hi: number;
}

/**
 * The columns of the tests' CSV: the test, then R corrected with its test-inversion ends, the shift
 * with its MOVER-Wilson ends (the variants of stats/table3.ts).
 */
export const FRAMING_TEST_COLUMNS = ['model', 'game', 'pairs', 'G', 'df', 'p_value', 'p_method', 'framing_changes_behaviour',
  ...allTable3Variants().flatMap((v) => (v.point ? [v.column, 'R_test_lo', 'R_test_hi'] : [v.of, `${v.column}_lo`, `${v.column}_hi`]))
] as (keyof FramingTestRow)[];

/** The significance level of the "R = 1" statements. */
export const FRAMING_TEST_ALPHA = 0.05;

function binaryPair(a: Pick<FramingTestInput, 'table'>, p: FramingPair): { b: BinaryObservations; s: BinaryObservations } | undefined {
  const b = a.table.cells[p.baseIndex].obs, s = a.table.cells[p.altIndex].obs;
  return b.kind === 'binary' && s.kind === 'binary' && b.n > 0 && s.n > 0 ? { b, s } : undefined;
}

/**
 * The R = 1 test's row of a group of planned pairs from their counts (empty fields unless every cell
 * is a count with trials): the rows here, and the test beside the random-effects Table 3 (analyses/meta/table3-random.ts).
 */
export function groupRow(a: Pick<FramingTestInput, 'table' | 'settings'>, model: string, game: string, pairs: readonly FramingPair[],
  level = 0.95): FramingTestRow {
  const counts = pairs.map((p) => binaryPair(a, p));
  const at = a.settings.attenuation;
  const none: FramingTestRow = { model, game, pairs: pairs.length, G: NaN, df: pairs.length, p_value: NaN, p_method: '', framing_changes_behaviour: '',
    R_corrected: NaN, R_test_lo: NaN, R_test_hi: NaN, shift: NaN, shift_wilson_lo: NaN, shift_wilson_hi: NaN };
  if (counts.some((c) => c === undefined)) return none;
  const cells = counts as { b: BinaryObservations; s: BinaryObservations }[];
  const fp: FramingPairCounts[] = cells.map(({ b, s }) => ({ xb: b.x, nb: b.n, xs: s.x, ns: s.n, jsd: jsdBernoulli(b.x / b.n, s.x / s.n) }));
  const t = framingTest(fp, level);
  const R = (jsd: number) => 1 - at * Math.min(1, jsd / Math.LN2);
  const w = 1 / pairs.length;
  const rates: WeightedRate[] = cells.flatMap(({ b, s }) => [{ x: b.x, n: b.n, weight: -w }, { x: s.x, n: s.n, weight: w }]);
  const [slo, shi] = moverInterval(rates, level);
  const shift = cells.reduce((acc, { b, s }) => acc + w * (s.x / s.n - b.x / b.n), 0);
  return {
    ...none, G: t.G, p_value: t.p, p_method: t.pMethod, framing_changes_behaviour: t.p < FRAMING_TEST_ALPHA ? 'yes' : 'no',
    R_corrected: R(t.jsdCorrected),
    R_test_lo: R(t.jsdInterval[1]), R_test_hi: R(t.jsdInterval[0]),
    shift: at * shift, shift_wilson_lo: at * Math.max(-1, slo), shift_wilson_hi: at * Math.min(1, shi),
  };
}

const bonferroni = new WeakMap<FramingTestInput, readonly FramingTestRow[]>();

/**
 * `--simultaneous`'s version of the per-model rows (game "All"): each at level 1 − 0.05/M over the
 * M models (Bonferroni), so every model's R corrected and MOVER-Wilson shift intervals hold
 * together with probability ≥ 95 % (each R end a one-sided bound at 1 − 0.05/M).
 */
export function simultaneousTestRows(a: FramingTestInput): readonly FramingTestRow[] {
  const known = bonferroni.get(a);
  if (known) return known;
  const { pairs, models } = a.layout;
  const level = 1 - (1 - 0.95) / models.length;
  const rows = models.map((m) => groupRow(a, m, ALL_GAMES, pairs.filter((p) => p.model === m), level));
  bonferroni.set(a, rows);
  return rows;
}

/** Rows computed once per analysis (the CSV, metrics.json, the report and the terminal all read them). */
const computed = new WeakMap<FramingTestInput, readonly FramingTestRow[]>();

/** Every pair, then every model (game "All"), then Pooled. */
export function framingTestRows(a: FramingTestInput): readonly FramingTestRow[] {
  const known = computed.get(a);
  if (known) return known;
  const { pairs, models } = a.layout;
  const rows = [
    ...pairs.map((p) => groupRow(a, p.model, p.game, [p])),
    ...models.map((m) => groupRow(a, m, ALL_GAMES, pairs.filter((p) => p.model === m))),
    groupRow(a, POOLED, ALL_GAMES, pairs),
  ];
  computed.set(a, rows);
  return rows;
}

export function framingTestsCsv(a: FramingTestInput): string {
  const rows = framingTestRows(a);
  return toCsv(FRAMING_TEST_COLUMNS, rows.map((r) => FRAMING_TEST_COLUMNS.map((c) => r[c])));
}

/** reports/framing-tests.csv. */
export function framingTestFile(reportsDir: string, a: FramingTestInput): OutputFile {
  return { path: join(reportsDir, 'framing-tests.csv'), content: framingTestsCsv(a) };
}

/** metrics.json's `framing_tests`: the method and the per-model and pooled rows. */
export function framingTestMetrics(a: FramingTestInput) {
  return {
    method: 'G-test of equal rates per pair, summed over a group (df = pairs), p the larger of the chi-squared and the exact conditional p '
      + 'where a pair has an expected count below 5; R_corrected = 1 - a * mean(JSD - (1/n_b + 1/n_s)/8)/ln 2; R interval by inverting the '
      + 'noncentral chi-squared of the summed G, each end a one-sided 95% bound (where G = 0: the JSD range over cell-wise Bonferroni '
      + 'Wilson intervals); shift interval MOVER-Wilson (Zou and Donner 2008)',
    alpha: FRAMING_TEST_ALPHA,
    groups: framingTestRows(a).filter((r) => r.game === ALL_GAMES).map((r) => ({
      model: r.model, pairs: r.pairs, G: finiteOrNull(r.G), df: r.df, p_value: finiteOrNull(r.p_value),
      p_method: r.p_method || null,
      framing_changes_behaviour: r.framing_changes_behaviour === '' ? null : r.framing_changes_behaviour === 'yes',
      R_corrected: finiteOrNull(r.R_corrected), R_test: { lo: finiteOrNull(r.R_test_lo), hi: finiteOrNull(r.R_test_hi) },
      shift_wilson: { lo: finiteOrNull(r.shift_wilson_lo), hi: finiteOrNull(r.shift_wilson_hi) },
    })),
  };
}

const pText = (p: number) => (!Number.isFinite(p) ? '—' : p < 0.001 ? '< 0.001' : fixed(p));

/** The terminal line of the pooled test. */
export function framingTestText(a: FramingTestInput): string {
  const r = framingTestRows(a).at(-1)!;
  if (!Number.isFinite(r.G)) return 'R = 1 test: none (the cells are not counts).';
  return (`R = 1 test (G-test, pooled): G = ${fixed(r.G, 2)}, df = ${r.df}, ` +
    `p ${r.p_value < 0.001 ? '< 0.001' : `= ${fixed(
      r.p_value)}`}: ${r.framing_changes_behaviour === 'yes' ? 'framing changes behaviour' : 'no evidence that framing changes behaviour'}.`);
}

/** True when every cell is a count, so every group has its test. */
export function hasFramingTests(a: FramingTestInput): boolean {
  return a.layout.pairs.every((p) => binaryPair(a, p) !== undefined);
}

/** The report's "R = 1 tests" blocks (under Table 3): per model and pooled. */
export function framingTestBlocks(a: FramingTestInput): Block[] {
  const rows = framingTestRows(a).filter((r) => r.game === ALL_GAMES);
  const blocks: Block[] = [
    { kind: 'text', text: (`R = 1 tests. Whether framing changes behaviour is decided by the G-test of "R = 1" (equal rates in every pair; G summed over a ` +
      `model's `)
      + `pairs, df = pairs; p < ${FRAMING_TEST_ALPHA}; where a pair has an expected count below 5, p is the larger of the χ² and the exact `
      + `conditional p). R corrected = R with each pair's JSD less its small-sample bias (1/n_b + 1/n_s)/8 nats; its interval inverts the noncentral `
      + `χ² of the summed G, each end a one-sided 95 % bound (a 90 % interval), so its upper end is below 1 exactly when the test says framing `
      + `changes behaviour (where G = 0, equal rates in every pair, it spans the JSDs allowed by the cells' Wilson intervals). The shift's `
      + `95 % interval is MOVER-Wilson, which has width at 0/n and n/n. All per reports/framing-tests.csv (every pair there too); methods.md `
      + `§8.5.` },
    {
      kind: 'table', id: 'framing-tests',
      columns: ['Model', num('G'), num('df'), num('p'), 'Framing changes behaviour', num('R corrected'), num(TEST_INVERSION_HEADER),
        num('Shift'), num('95% CI (MOVER-Wilson)')],
      rows: rows.map((r) => [r.model, num(fixed(r.G, 2)), num(String(r.df)), num(pText(r.p_value)), r.framing_changes_behaviour || '—',
        num(fixed(r.R_corrected)), num(Number.isFinite(r.R_test_lo) ? interval(r.R_test_lo, r.R_test_hi) : '—'),
        num(fixed(r.shift)), num(Number.isFinite(r.shift_wilson_lo) ? interval(r.shift_wilson_lo, r.shift_wilson_hi) : '—')]),
    },
  ];
  return blocks;
}
