import type { SequenceState } from './types.js';

/** A raw interval of a sequence at its current t: [lo, hi]. */
export interface RawSequence {
  push(x: number): void;
  readonly t: number;
  raw(): readonly [number, number];
}

/**
 * The state of a sequence from its raw intervals: each raw interval, or (intersect) its running
 * intersection with all earlier ones, lo_t = max_{s ≤ t} l_s and hi_t = min_{s ≤ t} u_s. Valid
 * because the raw intervals hold at every t at once, so their intersection holds too.
 */
export function sequenceState(raw: RawSequence, intersect: boolean): SequenceState {
  let lo = 0, hi = 1;
  return {
    push(x: number) {
      if (!(x >= 0 && x <= 1)) throw new RangeError(`a confidence sequence takes observations in [0, 1], got ${x}`);
      raw.push(x);
      const [l, u] = raw.raw();
      if (intersect) { lo = Math.max(lo, l); hi = Math.min(hi, u); } else { lo = l; hi = u; }
    },
    get t() { return raw.t; },
    interval: () => [lo, hi] as const,
  };
}

/** The intervals of a sequence at every t = 1 … x.length: lo[t − 1], hi[t − 1]. */
export function sequenceBounds(state: SequenceState, x: ArrayLike<number>): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(x.length), hi = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    state.push(x[i]);
    [lo[i], hi[i]] = state.interval();
  }
  return { lo, hi };
}
