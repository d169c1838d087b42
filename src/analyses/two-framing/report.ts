import { bandConstantsText } from './simultaneous.js';
import { wrappedCommand } from '../../core/command-line.js';
import { cellSize, levels } from '../../core/cells.js';
import { POOLED, stat } from '../../core/names.js';
import { conservativeNote, intervalKind, type TwoFramingAnalysis } from './analysis.js';
import { checkStatus, type VerificationReport } from '../../core/checks.js';
import type { Figure } from '../../render/figure.js';
import { MAX_FIGURE_ROWS, omittedFigures } from './figures.js';
import type { Logger } from '../../core/logger.js';
import { fixed, interval } from '../../core/format.js';
import { metricsObject } from './metrics.js';
import { familyRows, shownVariants, table2Rows, table3Rows, variantsNote, type Table3Row } from './tables.js';
import { BUILTIN_COLUMNS, table3Columns } from '../../stats/table3.js';
import { num, type Block, type Section } from '../../render/html.js';
import { framingTestBlocks, framingTestText, hasFramingTests } from './framing-tests.js';
import { invalidBounds, knowsInvalid } from './invalid-bounds.js';
import { countText, STAT_DECIMALS, statText } from './numbers.js';

/**
 * Report sections of a two-framing analysis (Same Game, Different Story Tables 2 and 3, figures, verification,
 * provenance, settings). Reconstructed data (`reproduce`) and direct runs use the same sections;
 * only the provenance they pass differs.
 */

/** Where the input came from: path and hash, and the values of its provenance columns. */
export interface ReportProvenance {
  readonly path: string;
  readonly sha256: string;
  readonly kind: string;
  /** Provenance columns in header order, each with its distinct values and how many rows have each. */
  readonly columns: readonly { readonly name: string; readonly values: readonly { readonly value: string; readonly rows: number }[] }[];
}


/** How games are shown: a design's game ids as their names (identity for rates files, whose games are names). */
export type GameLabel = (game: string) => string;
/** Games under their own names (no display names). */
export const gameAsIs: GameLabel = (g) => g;

export function summarySection(a: TwoFramingAnalysis, v: VerificationReport, p: ReportProvenance, o: { gameName?: GameLabel;
  notes?: readonly string[] } = {}): Section {
  const gameName = o.gameName ?? gameAsIs;
  const R = a.boot.get(stat(BUILTIN_COLUMNS.robustness.names.groupConservative, POOLED));
  const S = a.boot.get(stat(BUILTIN_COLUMNS.shift.names.groupConservative, POOLED));
  const { base, alt, reps, seed } = a.settings;
  const passed = v.checks.filter((c) => c.passed).length;
  return {
    id: 'summary',
    heading: 'Summary',
    blocks: [
      { kind: 'text', text: (`Pooled robustness R = ${fixed(R.point)}, ${ci95(R.lo, R.hi)}; pooled action shift (${alt} − ${base}) ` +
        `= ${fixed(S.point)}, ${ci95(S.lo, S.hi)}; both ${conservativeNote(a)}. Higher R means the two framings lead to more similar ` +
        `cooperation.${hasFramingTests(a) ? ` ${framingTestText(a)}` : ''}${(o.notes ?? []).map((n) => ` ${n}`).join('')}`) },
      {
        kind: 'facts',
        items: [
          ['Input', p.path],
          ['Models', a.layout.models.join(', ')],
          ['Games', [...new Set(a.layout.pairs.map((q) => gameName(q.game)))].join(', ')],
          ['Framings', levels(a.table, 'framing').join(', ')],
          ['Cells', String(a.table.cells.length)],
          ['Decisions', String(a.table.cells.reduce((s, c) => s + cellSize(c.obs), 0))],
          ['Bootstrap', `B = ${reps} replicates, seed ${seed}`],
          ['Verification', `${v.passed ? 'PASSED' : 'FAILED'} (${passed}/${v.checks.length} checks); ${v.degenerate.length} degenerate cells`],
        ],
      },
    ],
  };
}

export function table2Section(a: TwoFramingAnalysis, gameName: GameLabel = gameAsIs): Section {
  const { base, alt } = a.settings;
  return {
    id: 'table-2',
    heading: 'Table 2: cooperation rates',
    blocks: [
      { kind: 'text', text: (`Cooperation rate of each model and game under the ${base} and ${alt} framings, with the cooperative choices in parentheses; ` +
        `difference = ${alt} − ${base}, unattenuated.`) },
      {
        kind: 'table', id: 'table2',
        columns: ['Model', 'Game', num(base), num(alt), num('Difference')],
        rows: table2Rows(a).map((r) => [r.model, gameName(r.game),
          num(`${statText(r.base_rate)} (${countText(r.base_count)})`), num(`${statText(r.alt_rate)} (${countText(r.alt_count)})`),
            num(statText(r.difference))]),
      },
      ...invalidBlocks(a, gameName),
    ],
  };
}

/** "95 % interval [lo, hi]", or why there is none (a clustered cell of fewer than 3 matches). */
const ci95 = (lo: number,
  hi: number) => (Number.isNaN(lo) && Number.isNaN(hi) ? 'no interval (a cell of fewer than 3 matches)' : `95 % interval ${interval(lo, hi)}`);
/** Pairs with invalid trials: each cell's invalid share and the worst-case (Manski) bounds of its rates and difference. */
function invalidBlocks(a: TwoFramingAnalysis, gameName: GameLabel): Block[] {
  if (!knowsInvalid(a.table)) return [];
  const rows = a.layout.pairs.map((p) => ({ p, b: invalidBounds(a.table, p) })).filter(({ b }) => b.base_invalid_share > 0 || b.alt_invalid_share > 0);
  const share = (x: number) => `${fixed(100 * x, 1)} %`;
  return [
    { kind: 'text', text: (`Invalid answers in ${rows.length} of ${a.layout.pairs.length} pairs. Whatever the invalid trials would have answered, the rate ` +
      `over all trials lies within the worst-case (Manski) bounds below, and so does the difference (reports/table2.csv, metrics.json invalid_bounds).`) },
    {
      kind: 'table', id: 'invalid-bounds',
      columns: ['Model', 'Game', num('Invalid (base, alt)'), num(`${a.settings.base} bounds`), num(`${a.settings.alt} bounds`), num('Difference bounds')],
      rows: rows.map(({ p, b }) => [p.model, gameName(p.game), num(`${share(b.base_invalid_share)}, ${share(b.alt_invalid_share)}`),
        num(interval(b.base_rate_lo, b.base_rate_hi)), num(interval(b.alt_rate_lo, b.alt_rate_hi)), num(interval(b.difference_lo, b.difference_hi))]),
    },
  ];
}

export function table3Section(a: TwoFramingAnalysis, gameName: GameLabel = gameAsIs): Section {
  const cols = table3Columns();
  // no interval (a clustered cell of fewer than 3 matches): —
  const ci = (lo: number, hi: number) => (Number.isNaN(lo) && Number.isNaN(hi) ? '—' : interval(lo, hi, STAT_DECIMALS));
  const variants = shownVariants(a);
  const end = (r: Table3Row, c: string) => num(ci(r[`${c}_lo`] as number, r[`${c}_hi`] as number));
  const rows = table3Rows(a).map((r) => [r.model, ...cols.flatMap((c) => [num(statText(r[c.column] as number)), end(r, c.column)]),
    ...variants.flatMap((v) => [...(v.point ? [num(statText(r[v.column] as number))] : []), end(r, v.column)])]);
  const variantColumns = variants.flatMap((v) => [...(v.point ? [num(v.label)] : []), num(v.header)]);
  const blocks: Block[] = [
    { kind: 'text', text: (`Robustness R and action shift per model (unweighted mean over its games) and pooled (mean over all model–game ` +
      `values), ${conservativeNote(a)}; `)
      + `95 % ${intervalKind(a)} intervals${variantsNote(
        variants)}.`
      + (a.bands ? ` The per-model rows show simultaneous 95 % bands (sup-t over the ${a.layout.models.length} models from the same replicates, `
        + `c = ${bandConstantsText(a.bands.c, (x) => fixed(x, 2), 'and')}): all models' values lie in their bands together with `
        + 'probability about 95 %; Pooled is pointwise.' : '') },
    { kind: 'table', id: 'table3', columns: ['Model', ...cols.flatMap((c) => [num(c.label), num('95% CI')]), ...variantColumns], rows },
    ...(a.clusterRobust && a.boot.notes.length ? [{ kind: 'list' as const, items: [...a.boot.notes] }] : []),
  ];
  if (a.family) {
    blocks.push(
      { kind: 'text', text: (`Family robustness over all ${a.family.framings.length} framings present: 1 − max over framing pairs of JSD / ln 2; 95 ` +
        `% ${intervalKind(a)} intervals.`) },
      {
        kind: 'table', id: 'family',
        columns: ['Model', 'Game', num('R family'), num('95% CI')],
        rows: familyRows(a).map((r) => [r.model, r.game === 'All' ? r.game : gameName(r.game), num(statText(r.R)), num(interval(r.R_lo, r.R_hi,
          STAT_DECIMALS))]),
      },
    );
  }
  if (hasFramingTests(a)) blocks.push(...framingTestBlocks(a));
  return { id: 'table-3', heading: 'Table 3: robustness and action shift', blocks };
}

export function figuresSection(figures: readonly Figure[], heading = 'Figures', id = 'figures',
  omitted: readonly { readonly id: string; readonly rows: number }[] = []): Section {
  return {
    id, heading,
    blocks: [
      { kind: 'text', text: 'Interactive: hover a mark for its values. The same figures are written as Vega-Lite specs, SVG and PNG under figures/.' },
      ...(omitted.length ? [{ kind: 'text' as const, text: `N${omittedText(omitted).slice(1)}` }] : []),
      ...figures.map((figure): Block => ({ kind: 'figure', figure })),
    ],
  };
}

/** Warn (once per output set) about the per-row figures an analysis is too large to draw. */
export function warnOmittedFigures(a: TwoFramingAnalysis, logger?: Logger): void {
  const omitted = omittedFigures(a);
  if (omitted.length) logger?.warn(omittedText(omitted));
}

/** Why per-row figures are missing: their rows, and where the values are instead (a warning's clause, in lower case). */
export function omittedText(omitted: readonly { readonly id: string; readonly rows: number }[]): string {
  return (`not drawn (a figure shows at most ${MAX_FIGURE_ROWS} rows; the tables and CSV files have every ` +
    `row): ${omitted.map((o) => `${o.id} (${o.rows.toLocaleString('en-US')} rows)`).join(', ')}.`);
}

export function verificationSection(v: VerificationReport, heading = 'Verification (Appendix C checks)'): Section {
  const warned = v.checks.filter((c) => checkStatus(c) === 'warn');
  const shown = { pass: 'pass', warn: 'warn', fail: 'FAIL' } as const;
  const blocks: Block[] = [
    { kind: 'text', text: `Overall: ${v.passed ? 'PASSED' : 'FAILED'} (${v.checks.filter((c) =>
      c.passed).length}/${v.checks.length} checks${warned.length ? `, ${warned.length} with warnings` : ''}).` },
    {
      kind: 'table', id: 'checks',
      columns: ['Check', 'Result', 'Value', 'Description'],
      rows: v.checks.map((c) => [c.name, { text: shown[checkStatus(c)], status: checkStatus(c) }, c.value, c.description]),
    },
  ];
  for (const c of warned) blocks.push({ kind: 'text', text: `${c.name} warnings (not failures):` }, { kind: 'list', items: [...(c.warnings ?? [])] });
  for (const c of v.checks.filter((k) => !k.passed)) blocks.push({ kind: 'text', text: `${c.name} failed:` }, { kind: 'list', items: [...(c.failures ?? [])] });
  blocks.push(v.degenerate.length === 0
    ? { kind: 'text', text: 'Degenerate cells: none.' }
    : {
      kind: 'table', id: 'degenerate', caption: 'Degenerate cells',
      columns: ['Cell', num('Count'), 'Note'],
      rows: v.degenerate.map((d) => [d.cell, num(`${d.x}/${d.n}`), d.note]),
    });
  return { id: 'verification', heading, blocks };
}

export function provenanceSection(p: ReportProvenance): Section {
  const blocks: Block[] = [
    { kind: 'facts', items: [['Path', p.path], ['SHA-256', p.sha256], ['Kind', p.kind], ['Source columns',
      p.columns.length ? p.columns.map((c) => c.name).join(', ') : 'none']] },
  ];
  if (p.columns.length) {
    blocks.push({
      kind: 'table', id: 'provenance-values', caption: 'Values of the source columns',
      columns: ['Column', 'Value', num('Rows')],
      rows: p.columns.flatMap((c) => c.values.map((v) => [c.name, v.value, num(String(v.rows))])),
    });
  }
  return { id: 'provenance', heading: 'Input provenance', blocks };
}

export function settingsSection(a: TwoFramingAnalysis, command: string, extraFacts: readonly (readonly [string, string])[] = []): Section {
  const s = metricsObject(a, { path: '', sha256: '', kind: '' }, { name: '', version: '' }).settings as Record<string, unknown>;
  return {
    id: 'settings',
    heading: 'Settings',
    blocks: [
      { kind: 'facts', items: [...Object.entries(s).map(([k, v]) => [k, String(v)] as const), ...extraFacts] },
      { kind: 'text', text: 'Regenerate with:' },
      { kind: 'code', text: wrappedCommand(command) },
    ],
  };
}
