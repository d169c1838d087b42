/**
 * The clustered bootstrap's redraw (docs/methods.md §8.3): a cell's clusters drawn uniformly with
 * replacement, the replicate rate the mean over the drawn clusters' decisions.
 */
import type { ClusteredObservations } from '../core/cells.js';
import type { RandomSource } from './rng.js';

/**
 * m uniform cluster indices in [0, m): two per 32-bit draw (its 16-bit halves) when m ≤ 2^16,
 * one otherwise; values at or above the largest multiple of m are rejected, so every index is
 * exactly uniform.
 */
function drawIndices(rng: RandomSource, m: number, idx: Int32Array): void {
  let i = 0;
  if (m > 65536) {
    const lim = 4294967296 - (4294967296 % m);
    while (i < m) { const u = rng.nextUint32(); if (u < lim) idx[i++] = u % m; }
    return;
  }
  const lim = 65536 - (65536 % m);
  while (i < m) {
    const u = rng.nextUint32();
    const h = u >>> 16;
    if (h < lim) idx[i++] = h % m;
    const l = u & 0xffff;
    if (i < m && l < lim) idx[i++] = l % m;
  }
}

export function redrawClusters(obs: ClusteredObservations, rng: RandomSource, reps: number,
  out: Float64Array, offset: number, stride: number): void {
  const { sizes, sums } = obs;
  const m = sizes.length;
  if (m === 0) { for (let r = 0; r < reps; r++) out[r * stride + offset] = NaN; return; }
  const idx = new Int32Array(m);
  const equal = sizes.every((x) => x === sizes[0]);
  for (let r = 0; r < reps; r++) {
    drawIndices(rng, m, idx);
    let s = 0;
    let n = 0;
    if (equal) {
      for (let i = 0; i < m; i++) s += sums[idx[i]];
      n = m * sizes[0];
    } else {
      for (let i = 0; i < m; i++) { const j = idx[i]; s += sums[j]; n += sizes[j]; }
    }
    out[r * stride + offset] = s / n;
  }
}
