import { FAMILY_R } from '../../stats/table3.js';
import type { CellTable } from '../../core/cells.js';
import { ROBUSTNESS, type Estimand } from '../../stats/bootstrap.js';
import { entropyUnchecked } from '../../stats/jsd.js';
import { POOLED, stat } from '../../core/names.js';

export interface FamilyGroup {
  readonly model: string;
  readonly game: string;
  /** Indices of the cells of every framing present for this model–game. */
  readonly cellIndices: readonly number[];
}

export interface FamilyLayout {
  readonly models: readonly string[];
  readonly groups: readonly FamilyGroup[];
  readonly framings: readonly string[];
}

/** Group the cells of a model × game × framing table by model–game, in input order. */
export function familyLayout(table: CellTable): FamilyLayout {
  const models: string[] = [];
  const framings: string[] = [];
  const byMg = new Map<string, { model: string; game: string; cellIndices: number[] }>();
  table.cells.forEach((c, i) => {
    const { model, game, framing } = c.key;
    if (!models.includes(model)) models.push(model);
    if (!framings.includes(framing)) framings.push(framing);
    const k = `${model}\u001f${game}`;
    let g = byMg.get(k);
    if (!g) { g = { model, game, cellIndices: [] }; byMg.set(k, g); }
    g.cellIndices.push(i);
  });
  return { models, groups: [...byMg.values()], framings };
}

/** The family robustness's statistic name (stat(FAMILY_R, model, game)), named in Table 3's registry. */
export { FAMILY_R };

/**
 * Family robustness R(M,G) = 1 − max over framing pairs of JSD/ln 2 (Same Game, Different Story §3.2), unattenuated;
 * R(M) = uniform mean over games; pooled = mean over all model–game values.
 * Names: stat(FAMILY_R, model, game), stat(FAMILY_R, model), stat(FAMILY_R, POOLED).
 */
export function familyEstimand(layout: FamilyLayout): Estimand {
  const { groups, models } = layout;
  const names = [
    ...groups.map((g) => stat(FAMILY_R, g.model, g.game)),
    ...models.map((m) => stat(FAMILY_R, m)),
    stat(FAMILY_R, POOLED),
  ];
  const modelOf = groups.map((g) => models.indexOf(g.model));
  const m = models.length;
  const sum = new Float64Array(m + 1);
  const count = new Float64Array(m + 1);
  for (const mi of modelOf) { count[mi]++; count[m]++; }
  const h = new Float64Array(Math.max(0, ...groups.map((g) => g.cellIndices.length)));
  return {
    names,
    info: names.map(() => ROBUSTNESS),
    evaluate(rates, out) {
      sum.fill(0);
      groups.forEach((g, i) => {
        const idx = g.cellIndices;
        // JSD(p, q) = H((p+q)/2) − (H(p) + H(q))/2: each cell's entropy once, not once per pair.
        for (let x = 0; x < idx.length; x++) h[x] = entropyUnchecked(rates[idx[x]]);
        let maxJ = 0;
        for (let x = 0; x < idx.length; x++) {
          for (let y = x + 1; y < idx.length; y++) {
            const j = entropyUnchecked((rates[idx[x]] + rates[idx[y]]) / 2) - (h[x] + h[y]) / 2;
            if (j > maxJ) maxJ = j;
          }
        }
        const r = 1 - maxJ / Math.LN2;
        out[i] = r;
        sum[modelOf[i]] += r;
        sum[m] += r;
      });
      for (let g = 0; g <= m; g++) out[groups.length + g] = sum[g] / count[g];
    },
  };
}
