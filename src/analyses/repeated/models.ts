/**
 * The per-model summary over opponents (reports/models.csv, the report's "Per model" table):
 * for each model (game, framing, chosen factors), cooperation over all rounds, in the first round,
 * in the last round, and after each previous round (CC, CD, DC, DD), each the mean over the
 * model's opponents of the cell's rate — every opponent weighs the same, however many matches it
 * played — with its cluster-robust interval (docs/methods.md §8.4, §21), or with
 * `--interval cluster-bootstrap` a 95 % percentile interval from the cluster bootstrap by match
 * (the cells' own streams, so the draws are those of the cell statistics).
 */
import { stat } from '../../core/names.js';
import { toCsv } from '../../render/csv.js';
import type { Estimand } from '../../stats/bootstrap.js';
import { groupBootstrap } from '../../stats/group-bootstrap.js';
import { clusterCount, clusterMeanRateInterval } from '../../stats/cluster-intervals.js';
import { MIN_MATCHES, type RepeatedAnalysis } from './analysis.js';
import { cellId, columnOf, columnSize, PREVIOUS, type RepeatedCell } from './layout.js';
import { withNameColumns, type DisplayNames } from '../../core/display-names.js';

/** The statistics of a model's summary, in column order. */
export const MODEL_STATS = ['cooperation', 'first_round', 'last_round', 'after_CC', 'after_CD', 'after_DC', 'after_DD'] as const;
export type ModelStat = typeof MODEL_STATS[number];

const columnFor = (c: RepeatedCell, s: ModelStat): number => {
  if (s === 'cooperation') return columnOf.all;
  if (s === 'first_round') return columnOf.round(1);
  if (s === 'last_round') return columnOf.round(c.horizon);
  return columnOf.previous(c.horizon, s.slice(6) as typeof PREVIOUS[number]);
};

export interface ModelRow {
  readonly model: string; readonly game: string; readonly framing: string;
  readonly factors: Readonly<Record<string, string>>;
  readonly opponents: number; readonly matches: number; readonly decisions: number;
  /** Per statistic: the mean over opponents and its interval (NaN where no opponent's cell has the decisions, or fewer than MIN_MATCHES matches). */
  readonly values: Readonly<Record<ModelStat, { readonly point: number; readonly lo: number; readonly hi: number }>>;
}

interface Group { readonly key: RepeatedCell['key']; readonly factors: RepeatedCell['factors']; readonly cells: number[] }

function groupsOf(cells: readonly RepeatedCell[]): Group[] {
  const groups = new Map<string, Group>();
  cells.forEach((c, i) => {
    const id = JSON.stringify([c.key.model, c.key.game, c.key.framing, ...Object.values(c.factors)]);
    const g = groups.get(id) ?? { key: c.key, factors: c.factors, cells: [] };
    g.cells.push(i);
    groups.set(id, g);
  });
  return [...groups.values()];
}

/** Per group and statistic: the rate columns (global index) averaged, those of cells with decisions there. */
function summaryEstimand(cells: readonly RepeatedCell[], groups: readonly Group[]): { estimand: Estimand; members: number[][] } {
  const offsets: number[] = [];
  let k = 0;
  for (const c of cells) { offsets.push(k); k += c.columns.sizes.length; }
  const names: string[] = [];
  const members: number[][] = [];
  for (const g of groups) {
    for (const s of MODEL_STATS) {
      names.push(stat(`model_${s}`, g.key.model, g.key.game, g.key.framing, ...Object.values(g.factors)));
      members.push(g.cells.filter((i) => columnSize(cells[i], columnFor(cells[i], s)) > 0).map((i) => offsets[i] + columnFor(cells[i], s)));
    }
  }
  return {
    members,
    estimand: {
      names, info: names.map(() => ({ kind: 'other' as const, bounds: [0, 1] as [number, number] })),
      evaluate(rates, out) {
        for (let j = 0; j < members.length; j++) {
          const m = members[j];
          let s = 0;
          for (const c of m) s += rates[c];
          out[j] = m.length === 0 ? NaN : s / m.length;
        }
      },
    },
  };
}

/**
 * Each summary's point and interval: by default the mean's cluster-robust interval (a linear
 * combination of independent cells' rates, Clopper–Pearson on the effective n near 0 or 1:
 * `clusterMeanRateInterval`, src/stats/cluster-intervals.ts); with the cluster
 * bootstrap, one more bootstrap over the same cells, seed and replicates. No interval where an
 * opponent's cell it averages has fewer than MIN_MATCHES matches.
 */
function summaries(a: RepeatedAnalysis, groups: readonly Group[]): { point: number; lo: number; hi: number }[] {
  const { estimand, members } = summaryEstimand(a.cells, groups);
  const columns = a.cells.flatMap((c) => c.columns.sizes.map((sizes, k) => ({ sizes, sums: c.columns.sums[k] })));
  if (a.settings.interval !== 'cluster-bootstrap') {
    return members.map((m) => {
      if (m.length === 0) return { point: NaN, lo: NaN, hi: NaN };
      // One opponent: that cell's rate with its own interval (as cells.csv, rounds.csv and reactions.csv give it);
      // more: the mean's, effective-n Clopper–Pearson where its t interval leaves [0, 1].
      return clusterMeanRateInterval(m.map((k) => columns[k]));
    });
  }
  const boot = groupBootstrap(a.cells.map((c) => ({ id: cellId(c), columns: c.columns })), estimand, { seed: a.settings.seed, reps: a.settings.reps });
  return members.map((m, j) => {
    const thin = m.some((k) => clusterCount(columns[k]) < MIN_MATCHES);
    return { point: boot.point[j], lo: thin ? NaN : boot.lo[j], hi: thin ? NaN : boot.hi[j] };
  });
}

/** The per-model rows of an analysis. */
export function modelRows(a: RepeatedAnalysis): ModelRow[] {
  const groups = groupsOf(a.cells);
  const stats = summaries(a, groups);
  return groups.map((g, gi) => {
    const matches = g.cells.reduce((s, i) => s + a.cells[i].matches.length, 0);
    const values = Object.fromEntries(MODEL_STATS.map((s, si) => {
      const v = stats[gi * MODEL_STATS.length + si];
      return [s, { point: v.point, lo: v.lo, hi: v.hi }];
    })) as ModelRow['values'];
    return {
      model: g.key.model, game: g.key.game, framing: g.key.framing, factors: g.factors,
      opponents: g.cells.length, matches, decisions: g.cells.reduce((s, i) => s + columnSize(a.cells[i], columnOf.all), 0), values,
    };
  });
}

export const MODEL_COLUMNS = ['model', 'game', 'framing', 'opponents', 'matches', 'decisions', ...MODEL_STATS.flatMap((s) => [s, `${s}_lo`, `${s}_hi`])];

/** reports/models.csv; with display names, a `<column>_name` column per key column with a named level. */
export function modelsCsv(rows: readonly ModelRow[], factors: readonly string[], names?: DisplayNames): string {
  const t = withNameColumns(names, ['model', 'game', 'framing', ...factors, ...MODEL_COLUMNS.slice(3)], rows.map((r) => [
    r.model, r.game, r.framing, ...factors.map((f) => r.factors[f]), r.opponents, r.matches, r.decisions,
    ...MODEL_STATS.flatMap((s) => [r.values[s].point, r.values[s].lo, r.values[s].hi]),
  ]), ['model', 'game', 'framing']);
  return toCsv(t.header, t.rows);
}
