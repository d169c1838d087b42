/**
 * The interval of a clustered rate near 0 or 1, variants compared (docs/methods.md §8.4): where
 * the CR2 t interval leaves [0, 1] (or V = 0), (a) the t interval clipped to [0, 1]; (b)
 * Clopper–Pearson on the Korn–Graubard effective n with svyciprop's df adjustment (t_{N−1}/t_ν)²;
 * (c) the same without the adjustment; (d) the Wilson score interval on the effective n with the
 * t_ν quantile. Cells with V = 0 take Clopper–Pearson on n* = √(N·G) in (b)–(d). samegame's
 * `clusterRateInterval` is (b), checked here to give (b)'s figures.
 * 4,000 data sets per regime from the generator of the tests (test/helpers/beta-binomial.ts):
 * G matches of 10 rounds, ICC 0.3. Width ratio: median width over the median width of the
 * t(G − 1) interval on match means where that has a width.
 *
 * Run: npx tsx bench/cluster-rate-variants.ts > bench/cluster-rate-variants.md
 */
import { cr2Contrast, type ClusterColumn } from '../src/stats/cluster-robust.js';
import { clopperPearson, clusterRateInterval } from '../src/stats/cluster-intervals.js';
import { tQuantile } from '../src/stats/t-beta.js';
import { testSampler } from '../test/helpers/beta-binomial.js';

type Variant = (col: ClusterColumn) => [number, number];
const median = (v: number[]) => { const w = [...v].sort((a, b) => a - b); return w[Math.floor(w.length / 2)]; };

function parts(col: ClusterColumn) {
  const c = cr2Contrast([{ group: 0, column: col, coef: 1 }]);
  let N = 0;
  for (let j = 0; j < col.sizes.length; j++) N += col.sizes[j];
  const G = col.sizes.length, df = Number.isFinite(c.df) ? c.df : G - 1, t = tQuantile(0.975, df), r = c.estimate, V = c.variance;
  const inside = V > 0 && r - t * Math.sqrt(V) >= 0 && r + t * Math.sqrt(V) <= 1;
  return { r, V, N, G, df, t, inside, nEff: Math.min(N, (r * (1 - r)) / V) };
}

const VARIANTS: Record<string, Variant> = {
  't, clipped': (col) => { const p = parts(col), h = p.t * Math.sqrt(p.V); return [Math.max(0, p.r - h), Math.min(1, p.r + h)]; },
  'CP, df-adjusted': (col) => {
    const p = parts(col);
    if (p.inside) return [p.r - p.t * Math.sqrt(p.V), p.r + p.t * Math.sqrt(p.V)];
    return clopperPearson(p.r, p.V > 0 ? p.nEff * (tQuantile(0.975, p.N - 1) / p.t) ** 2 : Math.sqrt(p.N * p.G), 0.95);
  },
  'samegame (clusterRateInterval)': (col) => { const iv = clusterRateInterval(col); return [iv.lo, iv.hi]; },
  'CP': (col) => {
    const p = parts(col);
    if (p.inside) return [p.r - p.t * Math.sqrt(p.V), p.r + p.t * Math.sqrt(p.V)];
    return clopperPearson(p.r, p.V > 0 ? p.nEff : Math.sqrt(p.N * p.G), 0.95);
  },
  'Wilson': (col) => {
    const p = parts(col);
    if (p.inside) return [p.r - p.t * Math.sqrt(p.V), p.r + p.t * Math.sqrt(p.V)];
    if (!(p.V > 0)) return clopperPearson(p.r, Math.sqrt(p.N * p.G), 0.95);
    const n = p.nEff, z2 = p.t * p.t, centre = (p.r + z2 / (2 * n)) / (1 + z2 / n), half = (p.t * Math.sqrt((p.r * (1 - p.r)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
    return [Math.max(0, centre - half), Math.min(1, centre + half)];
  },
};

const lines = ['# A clustered rate near 0 or 1: interval variants', '', 'Written by `npx tsx bench/cluster-rate-variants.ts > bench/cluster-rate-variants.md`. Coverage (nominal 0.95; s.e. ≈ 0.0035 at 0.95) and median width ratio.', '',
  `| rate | G | ${Object.keys(VARIANTS).join(' | ')} |`, `|---|---|${Object.keys(VARIANTS).map(() => '---').join('|')}|`];
for (const p of [0.3, 0.8, 0.95]) for (const G of [3, 5, 10]) {
  const gen = testSampler(31 * G + Math.round(100 * p));
  const data = Array.from({ length: 4000 }, () => gen.matches(G, 10, p, 0.3));
  const ref = data.map((c) => {
    const m = Array.from(c.sums, (s, j) => s / c.sizes[j]), mean = m.reduce((a, b) => a + b, 0) / G;
    return 2 * tQuantile(0.975, G - 1) * Math.sqrt(m.reduce((a, b) => a + (b - mean) ** 2, 0) / (G - 1) / G);
  }).filter((w) => w > 0);
  const cells = Object.values(VARIANTS).map((v) => {
    let hit = 0; const w: number[] = [];
    for (const c of data) { const [lo, hi] = v(c); if (lo <= p && p <= hi) hit++; w.push(hi - lo); }
    return `${(hit / data.length).toFixed(3)} (${(median(w) / median(ref)).toFixed(2)})`;
  });
  lines.push(`| ${p} | ${G} | ${cells.join(' | ')} |`);
}
console.log([...lines, ''].join('\n'));
