import { jsonText } from '../../core/format.js';
import { toolInfo } from '../../core/paths.js';
import { framingTestMetrics, hasFramingTests } from '../two-framing/index.js';
import { POOLED, stat } from '../../core/names.js';
import type { AuditResult } from './audit.js';
import { auditCommand } from './html-sections.js';
import type { CellChange } from './reading-error.js';
import { CAMERER_2016_RATIO } from './attenuation.js';
import { DEFAULT_ATTENUATION } from '../../sources/input.js';
import { influenceKinds } from './influence.js';
import { andList, noun, table3Column } from '../../stats/table3.js';

type Result = Omit<AuditResult, 'files'>;
const changes = (c: readonly CellChange[]) => c.map((x) => ({ cell: x.cell, from: x.from, to: x.to }));

const BCA_INTERVALS = 'headline: 95% BCa bootstrap (see headline_bca); reading-error, tipping-point, attenuation, influence and Monte Carlo '
  + 'sections: 95% percentile bootstrap of the same replicates';
const CAMERER_SOURCE = 'Camerer et al. 2016, Science 351:1433 (average replication ratio)';

/** The per-cell ranges of a digitized figure's reading error (absent for ±K counts). */
const perCellJson = (r: Result) => (r.readingError.perCell ? {
  stated: r.readingError.label, unit: 'px',
    per_cell: 'each count may move within its range at ±K px of its click (reports/digitization.csv count_lo, count_hi)',
  down: r.readingError.perCell.down, up: r.readingError.perCell.up, notes: r.readingError.notes ?? [],
} : {});

/** The headline statistics (the audited Table 3 columns) with their BCa intervals (audit --interval bca). */
export function bcaHeadline(r: Result) {
  return [...r.analysis.layout.models, POOLED].flatMap((group) => influenceKinds(r.influence).map((kind) => {
    const v = r.analysis.boot.get(stat(table3Column(kind).names.groupConservative, group));
    return { statistic: kind, group, point: v.point, lo: v.lo, hi: v.hi };
  }));
}

/** reports/audit.json: everything audit.md says, in full precision, with no timestamps. */
export function auditObject(r: Result) {
  const s = r.settings;
  return {
    tool: toolInfo(),
    settings: {
      seed: s.seed, reps: s.reps, attenuation: s.attenuation, base: s.base, alt: s.alt,
      reading_error: s.readingRanges ? r.readingError.label : s.readingError, search_reps: s.searchReps, mc_target: s.mcTarget,
      interval: s.interval === 'bca'
        ? BCA_INTERVALS
        : '95% percentile bootstrap, linear interpolation between order statistics',
      headline: `conservative ${andList(influenceKinds(r.influence).map((k) => noun(table3Column(k))))}, per model and pooled (Table 3)`,
    },
    ...(s.interval === 'bca' ? { headline_bca: bcaHeadline(r) } : {}),
    ...(hasFramingTests(r.analysis) ? { framing_test: { ...framingTestMetrics(r.analysis), ...(r.framingTipping ? { tipping: r.framingTipping } : {}) } } : {}),
    command: auditCommand(r),
    input: { path: r.input.path, sha256: r.input.sha256, kind: r.input.kind, cells: r.input.rows.length },
    consistency: r.consistency.map((c) => ({
      line: c.line, cell: c.cell, n: c.n, rate: c.rate ?? null, decimals: c.decimals ?? null, count: c.count, count_given: c.countGiven,
      consistent_counts: c.consistent ?? null, nearby: c.nearby ?? null, status: c.status,
    })),
    reading_error: {
      K: r.readingError.K,
      ...perCellJson(r),
      reconstructed_cells: r.readingError.reconstructedCells,
      counts_given: r.readingError.given,
      note: r.readingError.given ? 'the counts were given, not read off a figure: no reading-error analysis'
        : 'point ranges are exact; endpoint ranges come from a coordinate search (inner bounds); only reconstructed cells move',
      ranges: r.readingError.ranges.map((x) => ({
        statistic: x.kind, group: x.group, end: x.which, observed: x.observed, min: x.min, max: x.max, exact: x.exact,
        argmin: changes(x.argmin), argmax: changes(x.argmax),
      })),
    },
    tipping_points: r.tipping.map((t) => ({
      id: t.id, statement: t.statement, holds: t.holds, observed: t.observed, method: t.method,
      changes: t.changes ?? null, upper_bound_only: t.method === 'greedy' || t.method === 'constructive', max_per_cell: t.maxPerCell ?? null,
      cells: changes(t.cells), after: t.after ?? null, verified: t.verified ?? null, scope_cells: t.scopeCells,
      reading_error: { K: t.readingError.K, budget: t.readingError.budget, worst_case: t.readingError.worstCase, can_overturn: t.readingError.overturned,
        exact: t.readingError.exact },
    })),
    attenuation: {
      default: DEFAULT_ATTENUATION.reconstructed, reference: CAMERER_2016_RATIO, reference_source: CAMERER_SOURCE,
      rows: r.attenuation.map((x) => ({ attenuation: x.attenuation, marks: x.marks, group: x.group, ...x.values })),
    },
    influence: {
      unit: 'model-game pair (leaving out either framing cell removes the pair contrast)',
      full: r.influence.full,
      pairs: r.influence.pairs.map((p) => ({ model: p.model, game: p.game, pooled: p.pooled, own_model: p.ownModel ?? null })),
      cells: r.influence.cells.map((c) => ({ cell: c.cell, removes_pair: c.removesPair })),
    },
    monte_carlo_error: r.mcError.map((m) => ({
      statistic: m.kind, group: m.group, batches: m.lo.batches,
      lo: { estimate: m.lo.estimate, se: m.lo.se, reps_needed: m.lo.repsNeeded, batch_estimates: m.lo.batchEstimates },
      hi: { estimate: m.hi.estimate, se: m.hi.se, reps_needed: m.hi.repsNeeded, batch_estimates: m.hi.batchEstimates },
    })),
    degenerate: r.degenerate.map((d) => ({
      cell: d.cell, x: d.x, n: d.n, bootstrap: d.bootstrap, exact: { method: 'Clopper-Pearson, 95%, closed form at the boundary', ...d.exact },
      pair_at_exact_bound: d.pairAtExactBound,
    })),
  };
}

export function auditJson(r: Result): string {
  return jsonText(auditObject(r), 2) + '\n';
}
