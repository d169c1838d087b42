import { cellRate, cellSize } from '../../core/cells.js';
import { POOLED, stat } from '../../core/names.js';
import { intervalKind, type TwoFramingAnalysis } from './analysis.js';
import type { Figure } from '../../render/figure.js';
import { table2Dumbbell, type RatePoint } from '../../render/charts/dumbbell.js';
import { table3Forest, type ForestRow } from '../../render/charts/forest.js';
import { cellR2Figure, type CellR2Row } from '../../render/charts/cell-r2.js';
import { bootstrapFigure, histogram } from '../../render/charts/histogram.js';
import { andList, BUILTIN_COLUMNS, named, noun, table3Columns } from '../../stats/table3.js';

/** Bins of the bootstrap histograms: fine enough to show the shape of 10,000 replicates. */
export const BOOTSTRAP_BINS = 40;

function gamesInOrder(a: TwoFramingAnalysis): string[] {
  return [...new Set(a.layout.pairs.map((p) => p.game))];
}

/** Label of the conservative statistics, naming the attenuation (none when a = 1). */
function conservative(a: TwoFramingAnalysis): string {
  return a.settings.attenuation === 1 ? 'no attenuation' : `conservative, a = ${a.settings.attenuation}`;
}

export function ratePoints(a: TwoFramingAnalysis): RatePoint[] {
  const { table, layout } = a;
  const point = (model: string, game: string, i: number): RatePoint => {
    const obs = table.cells[i].obs;
    const n = cellSize(obs);
    const rate = cellRate(obs);
    return { model, game, framing: table.cells[i].key.framing, rate, count: obs.kind === 'binary' ? obs.x : rate * n, n };
  };
  return layout.pairs.flatMap((p) => [point(p.model, p.game, p.baseIndex), point(p.model, p.game, p.altIndex)]);
}

/** Table 3's columns (stats/table3.ts) per model and pooled, one panel each, labelled as the tables label them. */
export function forestRows(a: TwoFramingAnalysis): { rows: ForestRow[]; statistics: string[] } {
  const c = conservative(a);
  const columns = table3Columns();
  const statistics = columns.map((col) => `${col.label} (${c})`);
  const rows: ForestRow[] = [];
  for (const [k, col] of columns.entries()) {
    const label = statistics[k];
    for (const m of [...a.layout.models, POOLED]) {
      const v = a.boot.get(stat(col.names.groupConservative, m));
      rows.push({ model: m, statistic: label, estimate: v.point, lo: v.lo, hi: v.hi, group: m === POOLED ? 'Pooled' : 'Model' });
    }
  }
  return { rows, statistics };
}

export function cellR2Rows(a: TwoFramingAnalysis): { rows: CellR2Row[]; versions: string[] } {
  const versions = ['raw', conservative(a)];
  const rows: CellR2Row[] = [];
  for (const p of a.layout.pairs) {
    const { cell, cellConservative } = BUILTIN_COLUMNS.robustness.names;
    for (const [kind, version] of [[cell, versions[0]], [cellConservative, versions[1]]] as const) {
      const v = a.boot.get(stat(kind, p.model, p.game));
      rows.push({ model: p.model, game: p.game, version, estimate: v.point, lo: v.lo, hi: v.hi });
    }
  }
  return { rows, versions };
}

/** Replicates of one statistic (the bootstrap stores them statistic-major). */
export function replicatesOf(a: TwoFramingAnalysis, name: string): Float64Array {
  const j = a.boot.names.indexOf(name);
  if (j < 0) throw new Error(`no statistic named ${name}`);
  return a.boot.replicates.subarray(j * a.boot.reps, (j + 1) * a.boot.reps);
}

/**
 * The four figures of a two-framing analysis (Same Game, Different Story Tables 2 and 3 and their
 * bootstrap). `gameName` shows a design's game ids as their names (rates files already hold names).
 */
/**
 * Figures with a row per model–game (Table 2 dumbbell, cell R2) or per model (Table 3 forest) are
 * drawn for at most this many rows. Beyond it they are unreadable and take minutes to draw (the
 * cell-R2 PNG of 1,000 models is 20 MB); the tables and CSV files keep every row.
 */
export const MAX_FIGURE_ROWS = 500;

/** The per-row figures an analysis leaves out, with their rows. */
export function omittedFigures(a: TwoFramingAnalysis): { readonly id: string; readonly rows: number }[] {
  const pairs = a.layout.pairs.length, models = a.layout.models.length + 1;
  return [['table2-dumbbell', pairs], ['table3-forest', models], ['cell-r2', pairs]]
    .filter(([, rows]) => (rows as number) > MAX_FIGURE_ROWS).map(([id, rows]) => ({ id: id as string, rows: rows as number }));
}

/** "95 % <method> intervals" with B for the bootstrap's, "match as cluster" for the cluster-robust ones: the figures' subtitles. */
const intervalsNote = (a: TwoFramingAnalysis): string =>
  `95 % ${intervalKind(a)} intervals${a.clusterRobust ? ' (match as cluster)' : `, B = ${a.settings.reps}`}`;

/** What the bootstrap redraws: whole clusters when any cell is clustered (--interval cluster-bootstrap), else binomial counts. */
const resampling = (a: TwoFramingAnalysis): string => (a.table.cells.some((c) => c.obs.kind === 'clustered') ? 'cluster' : 'binomial');

export function twoFramingFigures(a: TwoFramingAnalysis, gameName: (game: string) => string = (g) => g): Figure[] {
  const left = new Set(omittedFigures(a).map((o) => o.id));
  const keep = (id: string, f: () => Figure): Figure[] => (left.has(id) ? [] : [f()]);
  const models = [...a.layout.models];
  const games = gamesInOrder(a).map(gameName);
  const { base, alt, reps, seed } = a.settings;
  const c = conservative(a);
  const columns = table3Columns();
  const panels = columns.map((col) => {
    const name = stat(col.names.groupConservative, POOLED);
    const v = a.boot.get(name);
    return { label: `Pooled ${noun(col)} (${c})`, bins: histogram(replicatesOf(a, name), BOOTSTRAP_BINS), estimate: v.point, lo: v.lo, hi: v.hi };
  });
  return [
    ...keep('table2-dumbbell', () => table2Dumbbell(ratePoints(a).map((p) => ({ ...p, game: gameName(p.game) })), { base, alt, models, games })),
    ...keep('table3-forest', () => {
      const forest = forestRows(a);
      return table3Forest(forest.rows, {
        rows: [...models, POOLED], statistics: forest.statistics,
        subtitle: `${c}; shift = ${alt} − ${base}; ${intervalsNote(a)}`,
        intervalKind: intervalKind(a), named: andList(columns.map(named)), quantities: andList(columns.map((col) => col.text.quantity)),
      });
    }),
    ...keep('cell-r2', () => {
      const r2 = cellR2Rows(a);
      return cellR2Figure(r2.rows.map((r) => ({ ...r, game: gameName(r.game) })), { models, games, versions: r2.versions, intervals: intervalsNote(a) });
    }),
    bootstrapFigure(panels, andList(columns.map(noun)), `B = ${reps} ${resampling(a)} bootstrap replicates, seed ${seed}; 95 % ${intervalKind(a)} intervals`,
      a.clusterRobust
      ? 'the ends of the 95 % cluster-robust interval (CR2 variance, Satterthwaite degrees of freedom), not read off these replicates'
      : a.boot.method === 'bca' ? 'the ends of the 95 % BCa interval (replicate quantiles moved by the bias correction and acceleration)' : undefined),
  ];
}
