/**
 * Table 3 with random effects over games (`reproduce`/`analyze --pooling random`): per model and
 * pooled over every model–game, the shift pooled as `samegame meta` pools it (the escalc effect
 * sizes, attenuated), and R pooled on the Jensen–Shannon distance scale d = √(1 − R_c) — a metric,
 * about linear in |Δ| for small shifts, so inverse-variance pooling applies — and reported back as
 * R = 1 − d², the interval's ends mapped the same way (docs/methods.md, "Random effects in Table 3").
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
import { studyEffects, type EffectRow } from './effects.js';
import { table3Columns } from '../../stats/table3.js';
import { ALL_GAMES, POOLED } from '../../core/names.js';

export interface RandomTable3Row {
  readonly model: string;
  /** Games pooled. */
  readonly k: number;
  readonly shift: number; readonly shift_lo: number; readonly shift_hi: number;
  readonly shift_pi_lo: number; readonly shift_pi_hi: number;
  readonly shift_tau2: number; readonly shift_I2: number;
  readonly R: number; readonly R_lo: number; readonly R_hi: number;
  /** τ² and I² of R on its pooling scale, the distance √(1 − R_c). */
  readonly R_tau2: number; readonly R_I2: number;
  /** The p of the G-test of R = 1 over the group's pairs (§8.5); NaN where a cell is not a count. */
  readonly R_test_p: number;
  /** The interval ends that passed their statistic's declared bounds and were clipped to them (e.g. shift_lo). */
  readonly clipped: readonly string[];
}

export const RANDOM_TABLE3_COLUMNS = ['model', 'k', 'shift', 'shift_lo', 'shift_hi', 'shift_pi_lo', 'shift_pi_hi', 'shift_tau2', 'shift_I2',
  'R', 'R_lo', 'R_hi', 'R_tau2', 'R_I2', 'R_test_p', 'clipped'] as const;

export interface Contrast { readonly base: string; readonly alt: string; readonly attenuation: number }

/** The declared bounds of a Table 3 column (stats/table3.ts). */
const boundsOf = (column: string): readonly [number, number] => table3Columns().find((c) => c.column === column)!.info.bounds;

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

function pool(shift: readonly EffectRow[], dist: readonly EffectRow[], model: string, s: MetaSettings, test: { p: number; hi: number }): RandomTable3Row {
  const fit = (rows: readonly EffectRow[]) => fitUnivariate(Float64Array.from(rows, (r) => r.yi), Float64Array.from(rows, (r) => r.vi), s);
  const a = fit(shift);
  const b = fit(dist);
  const c = a?.coefficients[0];
  const e = b?.coefficients[0];
  const clipped: string[] = [];
  const clip = (name: string, column: string, x: number) => {
    const [lo, hi] = boundsOf(column);
    if (x < lo || x > hi) clipped.push(name);
    return Math.min(hi, Math.max(lo, x));
  };
  const ends = {
    shift_lo: clip('shift_lo', 'shift', c?.ci_lo ?? NaN), shift_hi: clip('shift_hi', 'shift', c?.ci_hi ?? NaN),
    shift_pi_lo: clip('shift_pi_lo', 'shift', a?.pi_lo ?? NaN), shift_pi_hi: clip('shift_pi_hi', 'shift', a?.pi_hi ?? NaN),
    R_lo: e ? clip('R_lo', 'R', toR(e.ci_hi)) : NaN, R_hi: e ? clip('R_hi', 'R', toR(e.ci_lo)) : NaN,
  };
  // the test of R = 1 does not reject: 1 stays in the interval (the one decision rule of §8.5)
  if (e && test.p >= FRAMING_TEST_ALPHA) ends.R_hi = 1;
  else if (e && test.hi > ends.R_hi) ends.R_hi = test.hi;
  return {
    model, k: shift.length,
    shift: c?.estimate ?? NaN, ...ends, shift_tau2: a?.tau2 ?? NaN, shift_I2: a?.I2 ?? NaN,
    R: e ? Math.min(1, Math.max(0, toR(e.estimate))) : NaN, R_tau2: b?.tau2 ?? NaN, R_I2: b?.I2 ?? NaN, R_test_p: test.p, clipped,
  };
}

/** Per model (first-appearance order) and "Pooled" (every model–game); a model with one game has no pooled values (NaN). */
export function randomTable3(table: CellTable, c: Contrast, pooledName: string, s: MetaSettings = META_DEFAULTS): RandomTable3Row[] {
  const contrast = { study: '', ...c, moderators: {} };
  const shift = studyEffects(table, contrast, 'shift').rows;
  // R_c = 1 − a(1 − R2), so √(1 − R_c) = √a · d: the distance takes the attenuation's square root.
  const dist = studyEffects(table, { ...contrast, attenuation: Math.sqrt(c.attenuation) }, 'distance').rows;
  const models = [...new Set(shift.map((r) => r.model))];
  return [
    ...models.map((m) => pool(shift.filter((r) => r.model === m), dist.filter((r) => r.model === m), m, s, testOfR1(table, c, m))),
    pool(shift, dist, pooledName, s, testOfR1(table, c)),
  ];
}

export const randomTable3Csv = (rows: readonly RandomTable3Row[]): string =>
  toCsv(RANDOM_TABLE3_COLUMNS, rows.map((r) => RANDOM_TABLE3_COLUMNS.map((k) => (k === 'clipped' ? r.clipped.join(' ') : r[k]))));

/** Why the random-effects R can exceed Table 3's fixed mean of R (one sentence, terminal and report). */
export const RANDOM_R_NOTE = ('R here is 1 − d̂², d̂ the pooled distance √(1 − R); the square of a mean distance is at most the mean of the squared ' +
  'distances, so this R can exceed Table 3\'s fixed mean of R = 1 − d² over the same games.');

/** The sentence naming the interval ends clipped to their statistic's bounds, or undefined when none was. */
export function clippedNote(rows: readonly RandomTable3Row[]): string | undefined {
  const hit = rows.filter((r) => r.clipped.length > 0);
  if (hit.length === 0) return undefined;
  const bounds = ['shift', 'R'].map((c) => `${c} [${boundsOf(c).join(', ')}]`).join(', ');
  return `Interval ends past the statistic's bounds (${bounds}) are shown at the bound: ${hit.map((r) => `${r.model} (${r.clipped.join(', ')})`).join('; ')}.`;
}

/** The table for the terminal. */
export function randomTable3Text(rows: readonly RandomTable3Row[]): string {
  const head = 'Table 3, random effects over games (REML, Hartung–Knapp; R pooled as the distance √(1 − R))';
  return `${head}\n${textTable(['Model', 'k', 'Shift', '95% CI', 'tau2', 'I2', 'R', '95% CI', 'I2 (R)'],
    rows.map((r) => [r.model, String(r.k), fixed(r.shift), interval(r.shift_lo, r.shift_hi), fixed(r.shift_tau2, 4), fixed(r.shift_I2, 2), fixed(r.R),
      interval(r.R_lo, r.R_hi), fixed(r.R_I2, 2)]))}\n${[clippedNote(rows), RANDOM_R_NOTE].filter((x) => x !== undefined).join('\n')}`;
}

/** The report section of the random-effects Table 3. */
export function randomTable3Section(rows: readonly RandomTable3Row[]): Section {
  const ci = (lo: number, hi: number) => (Number.isFinite(lo) ? interval(lo, hi) : '—');
  return {
    id: 'table3-random', heading: 'Table 3 with random effects over games (--pooling random)',
    blocks: [
      { kind: 'text', text: ('Per model over its games and pooled over every model–game: REML τ², Hartung–Knapp 95 % intervals, 95 % prediction intervals ' +
        '(t, k − 2 df); R pooled on the Jensen–Shannon distance √(1 − R) and mapped back (its τ² and I² on that scale). The fixed means of Table 3 above ' +
        'say what these games showed; these say what a further game would show, and how much the games disagree (reports/table3-random.csv; docs/methods.md ' +
        '§22.6). ') + [RANDOM_R_NOTE, clippedNote(rows)].filter((x) => x !== undefined).join(' ') },
      {
        kind: 'table', id: 'table3-random-rows', columns: ['Model', 'k', 'Shift', '95 % CI', '95 % PI', 'τ²', 'I²', 'R', '95 % CI', 'I² (R)'],
        rows: rows.map((r) => [r.model, num(r.k, 0), num(r.shift), ci(r.shift_lo, r.shift_hi), ci(r.shift_pi_lo, r.shift_pi_hi), num(r.shift_tau2, 4),
          num(r.shift_I2, 2), num(r.R), ci(r.R_lo, r.R_hi), num(r.R_I2, 2)]),
      },
    ],
  };
}
