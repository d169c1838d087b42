/**
 * Table 3 with random effects over games (`reproduce`/`analyze --pooling random`): per model and
 * pooled over every model–game, the shift pooled as `samegame meta` pools it (the escalc effect
 * sizes, attenuated), and R pooled on the Jensen–Shannon distance scale d = √(1 − R_c) — a metric,
 * about linear in |Δ| for small shifts, so inverse-variance pooling applies — and reported back as
 * R = 1 − d², the interval's ends mapped the same way (docs/methods.md, "Random effects in Table 3").
 * Each Table 3 column is pooled as its spec says (`pooling`, stats/table3.ts); a column that names no
 * scale is pooled as its per-pair conservative values with delta-method variances of its formula.
 * Every end is clipped to its statistic's declared bounds (Table 3's column spec, stats/table3.ts):
 * a Hartung–Knapp interval over two games can reach far past ±1; the row names the ends clipped.
 * Where every cell is a count, the G-test of R = 1 over the group's pairs stands beside R (R_test_p,
 * docs/methods.md §8.5) and decides R's upper end as for Table 3: while it does not reject at 0.05,
 * R = 1 is not excluded (R_hi = 1), so the interval never excludes 1 when framing has no effect;
 * when it rejects, R_hi is at least the test inversion's one-sided 95 % upper bound (the pooled
 * distance is biased away from 0 near R = 1, so its own upper end falls short there).
 */
import type { CellTable } from '../../core/cells.js';
import { fixed, interval } from '../../core/format.js';
import { FRAMING_TEST_ALPHA, groupRow, textTable, twoFramingLayout } from '../two-framing/index.js';
import { toCsv } from '../../render/csv.js';
import { num, type Section } from '../../render/html.js';
import { fitUnivariate, META_DEFAULTS, type MetaSettings } from '../../stats/meta/univariate.js';
import { studyEffects, type EffectRow, type StudyContrast } from './effects.js';
import { table3Columns, withInterval, type Table3Column } from '../../stats/table3.js';
import { ALL_GAMES, POOLED } from '../../core/names.js';

/**
 * One row: per Table 3 column `<c>`, `<c>_lo`, `<c>_hi` and its τ² and I² on its pooling scale
 * (`<c>_tau2`, `<c>_I2`); a column pooled on its own scale adds its prediction interval
 * (`<c>_pi_lo`, `<c>_pi_hi`), one pooled on the distance the p of the G-test of R = 1 over the
 * group's pairs (`<c>_test_p`, §8.5; NaN where a cell is not a count).
 */
export interface RandomTable3Row {
  readonly model: string;
  /** Games pooled. */
  readonly k: number;
  /** The interval ends that passed their statistic's declared bounds and were clipped to them (e.g. shift_lo). */
  readonly clipped: readonly string[];
  readonly [field: string]: number | string | readonly string[];
}

/** How a column is pooled: its spec's scale, else its formula's values (delta method). */
const poolingOf = (c: Table3Column) => c.pooling ?? 'formula';
const onDistance = (c: Table3Column) => poolingOf(c) === 'distance';

/** The columns in the table's order: those pooled on their own scale, then those pooled on the distance (registry order within each). */
const randomColumns = (): Table3Column[] => [...table3Columns().filter((c) => !onDistance(c)), ...table3Columns().filter(onDistance)];

/** A column's fields in the CSV. */
const fieldsOf = (c: Table3Column): string[] => [...withInterval(c.column),
  ...(onDistance(c) ? [`${c.column}_tau2`, `${c.column}_I2`, `${c.column}_test_p`] : [`${c.column}_pi_lo`, `${c.column}_pi_hi`, `${c.column}_tau2`,
    `${c.column}_I2`])];

/** The columns of reports/table3-random.csv. */
export const randomTable3Columns = (): string[] => ['model', 'k', ...randomColumns().flatMap(fieldsOf), 'clipped'];

export interface Contrast { readonly base: string; readonly alt: string; readonly attenuation: number }

/** R = 1 − d², extended monotonically past d < 0 (as 1 + d²) so that an end past a bound stays past it and is clipped, not folded back. */
const toR = (d: number) => (d < 0 ? 1 + d * d : 1 - d * d);

/**
 * The p of the G-test of R = 1 over the planned pairs of `model` (every model for undefined) and the
 * test inversion's upper bound of R (§8.5) at attenuation a; NaN unless every cell is a count.
 */
function testOfR1(table: CellTable, c: Contrast, model?: string): { p: number; hi: number } {
  const pairs = twoFramingLayout(table, c.base, c.alt).pairs.filter((q) => model === undefined || q.model === model);
  if (!pairs.length) return { p: NaN, hi: NaN };
  const row = groupRow({ table, settings: { attenuation: c.attenuation } }, model ?? POOLED, ALL_GAMES, pairs);
  return { p: row.p_value, hi: row.R_test_hi };
}

/** A column's per-game effects, conservative: the shift × a, the distance × √a (R_c = 1 − a(1 − R2)), a formula through its transform. */
function effectsOf(table: CellTable, contrast: StudyContrast, col: Table3Column): EffectRow[] {
  const a = contrast.attenuation;
  const kind = poolingOf(col);
  if (kind === 'difference') return studyEffects(table, contrast, 'shift').rows;
  if (kind === 'distance') return studyEffects(table, { ...contrast, attenuation: Math.sqrt(a) }, 'distance').rows;
  const slope = col.conservative(1, a) - col.conservative(0, a); // the transform is affine
  return studyEffects(table, { ...contrast, attenuation: 1 }, (pb, pa) => col.cell(pb, pa)).rows
    .map((r) => ({ ...r, yi: col.conservative(r.yi, a), vi: slope * slope * r.vi }));
}

type Clip = (name: string, x: number) => number;

/** One column pooled over `rows`: its fields (fieldsOf), the ends past its bounds clipped. */
function poolColumn(col: Table3Column, rows: readonly EffectRow[], s: MetaSettings, clip: Clip, test: () => { p: number; hi: number }): Record<string, number> {
  const fit = fitUnivariate(Float64Array.from(rows, (r) => r.yi), Float64Array.from(rows, (r) => r.vi), s);
  const e = fit?.coefficients[0];
  const n = col.column;
  if (!onDistance(col)) {
    return { [n]: e?.estimate ?? NaN, [`${n}_lo`]: clip(`${n}_lo`, e?.ci_lo ?? NaN), [`${n}_hi`]: clip(`${n}_hi`, e?.ci_hi ?? NaN),
      [`${n}_pi_lo`]: clip(`${n}_pi_lo`, fit?.pi_lo ?? NaN), [`${n}_pi_hi`]: clip(`${n}_pi_hi`, fit?.pi_hi ?? NaN),
      [`${n}_tau2`]: fit?.tau2 ?? NaN, [`${n}_I2`]: fit?.I2 ?? NaN };
  }
  const t = test();
  const [lo, hi] = col.info.bounds;
  const lower = e ? clip(`${n}_lo`, toR(e.ci_hi)) : NaN;
  let upper = e ? clip(`${n}_hi`, toR(e.ci_lo)) : NaN;
  // the test of R = 1 does not reject: 1 stays in the interval (the one decision rule of §8.5)
  if (e && t.p >= FRAMING_TEST_ALPHA) upper = 1;
  else if (e && t.hi > upper) upper = t.hi;
  return { [n]: e ? Math.min(hi, Math.max(lo, toR(e.estimate))) : NaN, [`${n}_lo`]: lower, [`${n}_hi`]: upper,
    [`${n}_tau2`]: fit?.tau2 ?? NaN, [`${n}_I2`]: fit?.I2 ?? NaN, [`${n}_test_p`]: t.p };
}

/** Per model (first-appearance order) and "Pooled" (every model–game); a model with one game has no pooled values (NaN). */
export function randomTable3(table: CellTable, c: Contrast, pooledName: string, s: MetaSettings = META_DEFAULTS): RandomTable3Row[] {
  const contrast = { study: '', ...c, moderators: {} };
  const cols = randomColumns();
  const effects = cols.map((col) => effectsOf(table, contrast, col));
  const row = (model: string, model_?: string): RandomTable3Row => {
    const clipped: string[] = [];
    const values = cols.map((col, i) => {
      const [lo, hi] = col.info.bounds;
      const clip: Clip = (name, x) => { if (x < lo || x > hi) clipped.push(name); return Math.min(hi, Math.max(lo, x)); };
      const rows = effects[i].filter((r) => model_ === undefined || r.model === model_);
      return poolColumn(col, rows, s, clip, () => testOfR1(table, c, model_));
    });
    const k = effects[0].filter((r) => model_ === undefined || r.model === model_).length;
    return { model, k, ...Object.assign({}, ...values), clipped };
  };
  const models = [...new Set(effects[0].map((r) => r.model))];
  return [...models.map((m) => row(m, m)), row(pooledName)];
}

export const randomTable3Csv = (rows: readonly RandomTable3Row[]): string => {
  const columns = randomTable3Columns();
  return toCsv(columns, rows.map((r) => columns.map((k) => (k === 'clipped' ? r.clipped.join(' ') : r[k] as number | string))));
};

/** Why the random-effects R can exceed Table 3's fixed mean of R (one sentence, terminal and report). */
export const RANDOM_R_NOTE = ('R here is 1 − d̂², d̂ the pooled distance √(1 − R); the square of a mean distance is at most the mean of the squared ' +
  'distances, so this R can exceed Table 3\'s fixed mean of R = 1 − d² over the same games.');

/** The sentence naming the interval ends clipped to their statistic's bounds, or undefined when none was. */
export function clippedNote(rows: readonly RandomTable3Row[]): string | undefined {
  const hit = rows.filter((r) => r.clipped.length > 0);
  if (hit.length === 0) return undefined;
  const bounds = randomColumns().map((c) => `${c.column} [${c.info.bounds.join(', ')}]`).join(', ');
  return `Interval ends past the statistic's bounds (${bounds}) are shown at the bound: ${hit.map((r) => `${r.model} (${r.clipped.join(', ')})`).join('; ')}.`;
}

/**
 * A table's columns per Table 3 column: its point and interval, a column pooled on its own scale its
 * prediction interval (`pi`) and τ², and I²; the first column's τ² and I² unnamed, later ones named
 * by the column ("I2 (R)"); a column pooled on the distance shows no τ² (another scale).
 */
function shownColumns(pi: boolean, words: { ci: string; pi: string; tau2: string; I2: string }) {
  return randomColumns().map((c, i) => {
    const own = !onDistance(c);
    const of = (w: string) => (i === 0 ? w : `${w} (${c.text.short})`);
    const header = [c.text.short, words.ci, ...(own && pi ? [words.pi] : []), ...(own ? [of(words.tau2)] : []), of(words.I2)];
    const cells = <T>(r: RandomTable3Row, ci: (lo: number, hi: number) => string, show: (x: number, digits?: number) => T): (T | string)[] => {
      const v = (f: string) => r[`${c.column}${f}`] as number;
      return [show(v('')), ci(v('_lo'), v('_hi')), ...(own && pi ? [ci(v('_pi_lo'), v('_pi_hi'))] : []), ...(own ? [show(v('_tau2'), 4)] : []),
        show(v('_I2'), 2)];
    };
    return { header, cells };
  });
}

/** The table for the terminal. */
export function randomTable3Text(rows: readonly RandomTable3Row[]): string {
  const head = 'Table 3, random effects over games (REML, Hartung–Knapp; R pooled as the distance √(1 − R))';
  const cols = shownColumns(false, { ci: '95% CI', pi: '', tau2: 'tau2', I2: 'I2' });
  return `${head}\n${textTable(['Model', 'k', ...cols.flatMap((c) => c.header)],
    rows.map((r) => [r.model, String(r.k), ...cols.flatMap((c) => c.cells(r, interval, fixed))]))}\n${[clippedNote(rows), RANDOM_R_NOTE]
    .filter((x) => x !== undefined).join('\n')}`;
}

/** The report section of the random-effects Table 3. */
export function randomTable3Section(rows: readonly RandomTable3Row[]): Section {
  const ci = (lo: number, hi: number) => (Number.isFinite(lo) ? interval(lo, hi) : '—');
  const cols = shownColumns(true, { ci: '95 % CI', pi: '95 % PI', tau2: 'τ²', I2: 'I²' });
  return {
    id: 'table3-random', heading: 'Table 3 with random effects over games (--pooling random)',
    blocks: [
      { kind: 'text', text: ('Per model over its games and pooled over every model–game: REML τ², Hartung–Knapp 95 % intervals, 95 % prediction intervals ' +
        '(t, k − 2 df); R pooled on the Jensen–Shannon distance √(1 − R) and mapped back (its τ² and I² on that scale). The fixed means of Table 3 above ' +
        'say what these games showed; these say what a further game would show, and how much the games disagree (reports/table3-random.csv; docs/methods.md ' +
        '§22.6). ') + [RANDOM_R_NOTE, clippedNote(rows)].filter((x) => x !== undefined).join(' ') },
      {
        kind: 'table', id: 'table3-random-rows', columns: ['Model', 'k', ...cols.flatMap((c) => c.header)],
        rows: rows.map((r) => [r.model, num(r.k, 0), ...cols.flatMap((c) => c.cells(r, ci, num))]),
      },
    ],
  };
}
