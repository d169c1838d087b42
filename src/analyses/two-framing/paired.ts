/**
 * Paired designs (docs/methods.md §8.3, "Paired designs"): the framings of one model–game played in
 * the same matches — their cells' cluster ids meet (a per-trial file whose cluster column names
 * the conversation both framings were asked in). Such cells form one group of the cluster-robust
 * variance: their columns are laid over the group's matches (index j the same match in each, size
 * 0 where a cell has no decision there), so a shift's variance is that of the match-level
 * differences and any statistic over them counts the covariance within a match. Cells of
 * different model–games, or whose ids do not meet, stay independent.
 */
import type { CellTable } from '../../core/cells.js';
import type { ClusterColumn } from '../../stats/cluster-robust.js';

export interface Pairing {
  /** Each cell's column, laid over its group's matches when the group has several cells. */
  readonly cols: readonly ClusterColumn[];
  /** Each cell's group: cells of one group share matches. */
  readonly groups: Int32Array;
  /** Some group holds more than one cell. */
  readonly paired: boolean;
}

/** The cells of one model–game (every factor but the framing equal) whose cluster ids meet, grouped (module header). */
export function pairCells(table: CellTable): Pairing | undefined {
  const cells = table.cells;
  if (!cells.every((c) => c.obs.kind === 'clustered')) return undefined;
  const parent = Int32Array.from(cells, (_, k) => k);
  const find = (k: number): number => { while (parent[k] !== k) k = parent[k] = parent[parent[k]]; return k; };
  const owner = new Map<string, number>();
  cells.forEach((c, k) => {
    const ids = c.obs.kind === 'clustered' ? c.obs.ids : undefined;
    const place = JSON.stringify(table.factors.filter((f) => f !== 'framing').map((f) => c.key[f]));
    for (const id of ids ?? []) {
      const key = JSON.stringify([place, id]), j = owner.get(key);
      if (j === undefined) owner.set(key, k); else parent[find(k)] = find(j);
    }
  });
  const groups = Int32Array.from(cells, (_, k) => find(k));
  const cols = cells.map((c, k) => aligned(table, groups, k));
  return { cols, groups, paired: cols.some((_, k) => groups.some((g, l) => l !== k && g === groups[k])) };
}

/** Cell k's column over the matches of its group, in order of first appearance (its own column when alone). */
function aligned(table: CellTable, groups: Int32Array, k: number): ClusterColumn {
  const obs = table.cells[k].obs;
  if (obs.kind !== 'clustered') throw new Error('pairCells: a cell is not clustered');
  const members = [...groups.keys()].filter((l) => groups[l] === groups[k]);
  if (members.length === 1 || !obs.ids) return { sizes: obs.sizes, sums: obs.sums };
  const index = new Map<string, number>();
  for (const l of members) {
    const o = table.cells[l].obs;
    if (o.kind === 'clustered') for (const id of o.ids ?? []) if (!index.has(id)) index.set(id, index.size);
  }
  const sizes = new Float64Array(index.size), sums = new Float64Array(index.size);
  obs.ids.forEach((id, j) => { const at = index.get(id)!; sizes[at] += obs.sizes[j]; sums[at] += obs.sums[j]; });
  return { sizes, sums };
}
