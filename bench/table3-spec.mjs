/**
 * The two-framing estimand derived from the Table 3 column spec (stats/table3.ts) beside the
 * hand-written estimand it replaced (copied below as the baseline): the shipped rates, B = 10,000,
 * identical replicates checked, 21 alternating rounds. Usage: npm run build && node bench/table3-spec.mjs
 */
// Bootstrap of the shipped rates (B = 10,000) with the hand-written estimand before the column
// spec and with the estimand derived from the spec: same draws, same numbers, the time of each.
import { twoFramingEstimand, twoFramingLayout } from '../dist/analyses/two-framing/estimand.js';
import { bootstrap } from '../dist/stats/bootstrap.js';
import { robustness2 } from '../dist/stats/jsd.js';
import { cellId } from '../dist/core/cells.js';
import { readRates } from '../dist/sources/rates-csv.js';
const t = readRates('data/lore-heydari-2024/rates.csv', { base: 'business', alt: 'friend-sharing' }).table;
const layout = twoFramingLayout(t, 'business', 'friend-sharing');
function old(layout, a, names, info) {
  const { pairs, models } = layout; const modelOf = pairs.map((p) => models.indexOf(p.model)); const m = models.length;
  const sumR = new Float64Array(m + 1), sumS = new Float64Array(m + 1), count = new Float64Array(m + 1);
  for (const mi of modelOf) { count[mi]++; count[m]++; }
  const groupBase = pairs.length * 4;
  return { names, info, evaluate(rates, out) { sumR.fill(0); sumS.fill(0);
    for (let i = 0; i < pairs.length; i++) { const pb = rates[pairs[i].baseIndex], ps = rates[pairs[i].altIndex]; const r2 = robustness2(pb, ps), d = ps - pb;
      out[4*i] = r2; out[4*i+1] = d; out[4*i+2] = 1 - a*(1-r2); out[4*i+3] = a*d; const mi = modelOf[i]; sumR[mi] += r2; sumS[mi] += d; sumR[m] += r2; sumS[m] += d; }
    for (let g = 0; g <= m; g++) { const rR = sumR[g]/count[g], sR = sumS[g]/count[g], o = groupBase + 4*g; out[o] = rR; out[o+1] = sR; out[o+2] = 1 - a*(1-rR); out[o+3] = a*sR; } } };
}
const cells = t.cells.map((c) => ({ id: cellId(t.factors, c.key), obs: c.obs }));
const spec = twoFramingEstimand(layout, 0.7);
const hand = old(layout, 0.7, spec.names, spec.info);
const opts = { seed: 20240818, reps: 10000, method: 'percentile' };
const time = (e) => { const t0 = performance.now(); const b = bootstrap(cells, e, opts); return [performance.now() - t0, b]; };
const A = [], B = [];
for (let r = 0; r < 21; r++) {
  const [a, b1] = time(hand); const [b, b2] = time(spec);
  if (b1.replicates.some((v, i) => !Object.is(v, b2.replicates[i]))) throw new Error('replicates differ');
  A.push(a); B.push(b);
}
const med = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
console.log(`21 rounds, identical replicates: hand-written min ${Math.min(...A).toFixed(0)} ms, median ${med(A).toFixed(0)} ms; column spec min ${Math.min(...B).toFixed(0)} ms, median ${med(B).toFixed(0)} ms; ratio of minima ${(Math.min(...B) / Math.min(...A)).toFixed(2)}, of medians ${(med(B) / med(A)).toFixed(2)}`);
