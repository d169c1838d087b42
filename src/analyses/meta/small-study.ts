/**
 * Small-study effects of an effect table (stats/meta/small-study.ts, trimfill.ts): Egger's
 * regression test with each predictor the cells allow, Begg's rank correlation, trim and fill (L0
 * and R0) and PET-PEESE, over the cells pooled overall. Run only with MIN_SMALL_STUDY_K cells or
 * more (below, the tests have almost no power and a note says so), and labelled not applicable when
 * every study is a direct run of the user's own (no publication process chose which results exist).
 */
import { petPeese, ranktest, regtest, REGTEST_PREDICTORS, type PetPeese, type Regtest } from '../../stats/meta/small-study.js';
import { trimfill, type Trimfill } from '../../stats/meta/trimfill.js';
import type { KendallTest } from '../../stats/meta/kendall.js';
import type { MetaSettings } from '../../stats/meta/univariate.js';
import { toCsv } from '../../render/csv.js';
import { num, type Block } from '../../render/html.js';
import { fixed, interval } from '../../core/format.js';
import type { EffectRow } from './effects.js';
import { analysesMetaMsg } from './messages.js';

/** The fewest cells for the small-study tests (Sterne et al. 2011, BMJ 343:d4002: "not with fewer than 10 studies"). */
export const MIN_SMALL_STUDY_K = 10;

export type SmallStudy =
  | { readonly status: 'run'; readonly k: number; readonly regtests: readonly Regtest[]; readonly ranktest: KendallTest;
    readonly trimfill: readonly Trimfill[]; readonly petPeese?: PetPeese }
  | { readonly status: 'too few' | 'not applicable'; readonly k: number };

/** The tests, or why not (with a note). */
export function smallStudy(rows: readonly EffectRow[], s: MetaSettings, directRuns: boolean, notes: string[]): SmallStudy {
  const k = rows.length;
  if (directRuns) { notes.push(analysesMetaMsg.smallStudyNotApplicable()); return { status: 'not applicable', k }; }
  if (k < MIN_SMALL_STUDY_K) { notes.push(analysesMetaMsg.smallStudyTooFew(k, MIN_SMALL_STUDY_K)); return { status: 'too few', k }; }
  const y = Float64Array.from(rows, (r) => r.yi);
  const v = Float64Array.from(rows, (r) => r.vi);
  const sized = rows.every((r) => r.n_base !== undefined && r.n_alt !== undefined && r.n_base + r.n_alt > 0);
  const n = sized ? Float64Array.from(rows, (r) => r.n_base! + r.n_alt!) : undefined;
  const regtests = REGTEST_PREDICTORS.map((p) => regtest(y, v, s, p, n)).filter((r): r is Regtest => r !== undefined);
  const tf = (['L0', 'R0'] as const).map((e) => trimfill(y, v, s, e)).filter((t): t is Trimfill => t !== undefined);
  return { status: 'run', k, regtests, ranktest: ranktest(y, v), trimfill: tf, petPeese: petPeese(y, v) };
}

const COLUMNS = ['test', 'variant', 'stat', 'df', 'p', 'estimate', 'ci_lo', 'ci_hi', 'k0', 'side'] as const;
type TestRow = Record<(typeof COLUMNS)[number], number | string>;

/** One row per test: regtest per predictor, ranktest, trimfill per estimator, PET and PEESE. */
function testRows(x: Extract<SmallStudy, { status: 'run' }>): TestRow[] {
  const none = { stat: NaN, df: NaN, p: NaN, estimate: NaN, ci_lo: NaN, ci_hi: NaN, k0: NaN, side: '' };
  const pp = x.petPeese;
  return [
    ...x.regtests.map((r) => ({ ...none, test: 'regtest', variant: r.predictor, stat: r.stat, df: Number.isFinite(r.df) ? r.df : NaN, p: r.p,
      estimate: r.limit, ci_lo: r.limit_lo, ci_hi: r.limit_hi })),
    { ...none, test: 'ranktest', variant: `kendall tau (${x.ranktest.exact ? 'exact' : 'normal approximation'})`, stat: x.ranktest.tau, p: x.ranktest.p },
    ...x.trimfill.map((t) => ({ ...none, test: 'trimfill', variant: t.estimator, estimate: t.estimate, ci_lo: t.ci_lo, ci_hi: t.ci_hi, k0: t.k0,
      side: t.side })),
    ...(pp ? (['PET', 'PEESE'] as const).map((m) => {
      const l = m === 'PET' ? pp.pet : pp.peese;
      return { ...none, test: m, variant: pp.chosen === m ? 'chosen' : 'not chosen', p: l.p, estimate: l.estimate, stat: l.estimate / l.se };
    }) : []),
  ];
}

/** reports/meta-small-study.csv: one row per test (undefined when the tests were not run). */
export function smallStudyCsv(x: SmallStudy | undefined): string | undefined {
  if (!x || x.status !== 'run') return undefined;
  return toCsv(COLUMNS, testRows(x).map((r) => COLUMNS.map((c) => r[c])));
}

const p4 = (p: number) => (p < 1e-4 ? '< 0.0001' : `= ${fixed(p, 4)}`);

/** The report's small-study paragraph and table (or the reason there is none). */
export function smallStudyBlocks(x: SmallStudy | undefined): Block[] {
  if (!x) return [];
  if (x.status !== 'run') {
    return [{ kind: 'text', text: x.status === 'not applicable' ? analysesMetaMsg.smallStudyNotApplicable() : analysesMetaMsg.smallStudyTooFew(x.k,
      MIN_SMALL_STUDY_K) }];
  }
  const egger = x.regtests.find((r) => r.predictor === 'sei');
  const fill = x.trimfill.find((t) => t.estimator === 'L0');
  const text = [
    `Small-study effects over ${x.k} cells:`,
    egger ? `Egger's regression test ${egger.df === Infinity ? 'z' : `t(${egger.df})`} = ${fixed(egger.stat, 2)}, p ${p4(egger.p)};` : '',
    `Begg's rank correlation τ = ${fixed(x.ranktest.tau, 3)}, p ${p4(x.ranktest.p)};`,
    fill ? `trim and fill (L0) adds ${fill.k0} cell${fill.k0 === 1 ? '' : 's'} on the ${fill.side}, giving ${fixed(fill.estimate)} `
      + `${interval(fill.ci_lo, fill.ci_hi)}.` : '',
    'Asymmetry may come from publication bias, but also from heterogeneity, chance or effects that truly differ with study size; '
      + 'these tests cannot tell which (docs/methods.md).',
  ].filter((t) => t !== '').join(' ');
  const n = (x: number | string, d = 3) => (typeof x === 'number' && Number.isFinite(x) ? num(x, d) : '—');
  return [{ kind: 'text', text }, {
    kind: 'table', id: 'meta-small-study', caption: 'Small-study tests (reports/meta-small-study.csv)',
    columns: ['Test', 'Variant', 'Statistic', 'p', 'Estimate', '95 % CI', 'k0'],
    rows: testRows(x).map((r) => [String(r.test), String(r.variant), n(r.stat), n(r.p, 4), n(r.estimate),
      Number.isFinite(r.ci_lo) ? interval(Number(r.ci_lo), Number(r.ci_hi)) : '—', n(r.k0, 0)]),
  }];
}
