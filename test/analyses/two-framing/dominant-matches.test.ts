import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CellTable } from '../../../src/core/cells.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { analyzeTwoFraming, twoFramingEstimand, twoFramingLayout } from '../../../src/analyses/two-framing/index.js';

/**
 * Table 3 of 12 model–game pairs (3 models × 4 games) whose cells hold G = 6 matches, each huge
 * (40–80 rounds) or tiny (1–3), from the independent numpy generator test/reference/dominant_matches.py
 * (beta-binomial matches, ICC 0.3, 300 data sets: a coverage of 0.95 has a Monte Carlo SE of 0.013).
 * Pooled and per-model R and shift: coverage ≥ 0.90 of the intervals given, or no interval in ≥ 95 % of data sets.
 */
interface Col { sizes: number[]; sums: number[] }
interface Pairs { name: string; cells: { model: string; game: string; framing: string; p: number }[]; sets: Col[][] }
const REF = JSON.parse(readFileSync(new URL('../../reference/dominant_matches.json', import.meta.url), 'utf8')) as { pairs12: Pairs[] };
const FACTORS = ['model', 'game', 'framing'];

describe('12 pairs with huge and tiny matches: pooled and per-model R and shift', () => {
  for (const r of REF.pairs12) {
    it(r.name, () => {
      const keys = r.cells.map(({ model, game, framing }) => ({ model, game, framing }));
      const est = twoFramingEstimand(twoFramingLayout({ factors: FACTORS, cells: keys.map((key) => ({ key, obs: { kind: 'binary', n: 1, x: 0 } })) }, 'b', 's'), 1);
      const truth = new Float64Array(est.names.length);
      est.evaluate(Float64Array.from(r.cells, (c) => c.p), truth);
      const groups = ['m1', 'm2', 'm3', POOLED];
      const names = groups.flatMap((g) => [stat('R', g), stat('shift', g)]);
      const hit = new Map(names.map((n) => [n, 0])), shown = new Map(names.map((n) => [n, 0]));
      let means = 0;
      r.sets.forEach((set, s) => {
        const table: CellTable = { factors: FACTORS, cells: set.map((c, k) => ({ key: keys[k], obs: { kind: 'clustered', sizes: Float64Array.from(c.sizes),
          sums: Float64Array.from(c.sums) } })) };
        const a = analyzeTwoFraming(table, { reps: 1, attenuation: 1, base: 'b', alt: 's', seed: s });
        if (a.boot.notes.some((n) => n.startsWith('match means'))) means++;
        for (const n of names) {
          const v = a.boot.get(n), t = truth[est.names.indexOf(n)];
          if (!Number.isFinite(v.lo)) continue;
          shown.set(n, shown.get(n)! + 1);
          if (v.lo <= t + 1e-12 && t <= v.hi + 1e-12) hit.set(n, hit.get(n)! + 1);
        }
      });
      const sets = r.sets.length;
      console.log(`${r.name}: a match-means note in ${means} of ${sets}; ` + names.map((n) =>
        `${n} ${(hit.get(n)! / shown.get(n)!).toFixed(3)} (none ${(1 - shown.get(n)! / sets).toFixed(3)})`).join(', '));
      for (const n of names) {
        if (shown.get(n)! / sets > 0.05) expect(hit.get(n)! / shown.get(n)!, n).toBeGreaterThanOrEqual(0.9);
      }
      expect(means).toBeGreaterThan(0);
    });
  }
});
