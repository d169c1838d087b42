/**
 * The hedged-capital betting confidence sequence for a mean in [0, 1] (Waudby-Smith and Ramdas
 * 2023, "Estimating means of bounded random variables by betting", JRSS B 86(1): the hedged
 * capital process with predictable plug-in bets, the default of the confseq package's
 * `hedged_cs`). For a candidate mean m, two gamblers bet
 * on X_i − m with predictable bets λ⁺_i, λ⁻_i (functions of X_1 … X_{i−1} only):
 *   K⁺_t(m) = Π (1 + λ⁺_i(m)(X_i − m)),   K⁻_t(m) = Π (1 − λ⁻_i(m)(X_i − m)),
 *   K_t(m) = max(θK⁺_t(m), (1 − θ)K⁻_t(m)),  θ = 1/2,
 * each a nonnegative martingale when m is the mean, so by Ville's inequality
 * C_t = {m : K_t(m) < 1/α} holds at every t at once with probability ≥ 1 − α. The bets are
 *   λ_i = √(2 log(1/a) / (σ̂²_{i−1} · i · log(1 + i))),  a = θα for K⁺ and (1 − θ)α for K⁻,
 * with the regularised running mean and variance μ̂_i = min(1, (1/2 + Σ_{j≤i} X_j)/(i + 1)) and
 * σ̂²_i = (1/4 + Σ_{j≤i} (X_j − μ̂_j)²)/(i + 1) (σ̂²_0 = 1/4), truncated to keep every factor
 * positive: λ⁺_i(m) = min(λ_i, c/m), λ⁻_i(m) = min(λ_i, c/(1 − m)), c = 1/2.
 * C_t is computed on the grid m = k/B (B = breaks, k = 0 … B) and widened by one step on each
 * side: [min C_t − 1/B, max C_t + 1/B] ∩ [0, 1], and [0, 1] when no grid point is in C_t.
 */
import { sequenceState, type RawSequence } from './intersect.js';
import type { ConfSeqSettings, SequenceState } from './types.js';

const THETA = 1 / 2;
const TRUNCATION = 1 / 2;
const PRIOR_MEAN = 1 / 2;
const PRIOR_VARIANCE = 1 / 4;

/** The predictable plug-in bets λ_i of one gambler, for the next observation. */
class PlugInBets {
  private sum = 0;
  private squares = PRIOR_VARIANCE;
  private variance = PRIOR_VARIANCE;
  private t = 0;
  constructor(private readonly logInvA: number) {}
  /** The bet on observation t + 1, from the first t. */
  next(): number {
    const i = this.t + 1;
    const lambda = Math.sqrt(2 * this.logInvA / (i * Math.log(1 + i) * this.variance));
    return Number.isNaN(lambda) ? 0 : lambda;
  }
  observe(x: number): void {
    this.t++;
    this.sum += x;
    const mean = Math.min((PRIOR_MEAN + this.sum) / (this.t + 1), 1);
    this.squares += (x - mean) ** 2;
    this.variance = this.squares / (this.t + 1);
  }
}

/**
 * The two capitals at every grid point, brought up to date lazily. K⁺_t(m) is nonincreasing in m
 * and K⁻_t(m) nondecreasing (each factor is positive and monotone in m, truncation included, and
 * rounding is monotone), so {m : K_t(m) ≤ 1/α} = {θK⁺ ≤ 1/α} ∩ {(1 − θ)K⁻ ≤ 1/α} is an interval of
 * the grid, found by two binary searches; a point's capitals are multiplied by the factors it has
 * not seen only when a search reads it, in the same order as an update at every t would.
 */
class GridCapital {
  private readonly x: number[] = [];
  private readonly betsUp: number[] = [];
  private readonly betsDown: number[] = [];
  private readonly up: Float64Array;
  private readonly down: Float64Array;
  private readonly seen: Int32Array;
  constructor(private readonly grid: Float64Array) {
    this.up = new Float64Array(grid.length).fill(1);
    this.down = new Float64Array(grid.length).fill(1);
    this.seen = new Int32Array(grid.length);
  }
  add(x: number, betUp: number, betDown: number): void { this.x.push(x); this.betsUp.push(betUp); this.betsDown.push(betDown); }
  private advance(k: number): void {
    const m = this.grid[k], t = this.x.length, capUp = TRUNCATION / m, capDown = TRUNCATION / (1 - m);
    let u = this.up[k], d = this.down[k];
    for (let i = this.seen[k]; i < t; i++) {
      u *= 1 + Math.min(this.betsUp[i], capUp) * (this.x[i] - m);
      d *= 1 - Math.min(this.betsDown[i], capDown) * (this.x[i] - m);
    }
    this.up[k] = u; this.down[k] = d; this.seen[k] = t;
  }
  /** θK⁺ at grid point k, up to date. */
  hedgedUp(k: number): number { this.advance(k); return THETA * this.up[k]; }
  /** (1 − θ)K⁻ at grid point k, up to date. */
  hedgedDown(k: number): number { this.advance(k); return (1 - THETA) * this.down[k]; }
}

/** The first k in [0, n) where `ok` holds, for a predicate false … false true … true (n when none). */
function firstTrue(n: number, ok: (k: number) => boolean): number {
  let lo = 0, hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ok(mid)) hi = mid; else lo = mid + 1;
  }
  return lo;
}

export function startBetting(settings: ConfSeqSettings): SequenceState {
  const { alpha } = settings;
  const breaks = settings.breaks ?? 1000;
  if (!Number.isInteger(breaks) || breaks < 1) throw new RangeError(`breaks must be a positive integer, got ${breaks}`);
  const step = 1 / breaks, threshold = 1 / alpha, size = breaks + 1;
  const grid = Float64Array.from({ length: size }, (_, k) => k * step);
  const capital = new GridCapital(grid);
  const betUp = new PlugInBets(Math.log(1 / (alpha * THETA))), betDown = new PlugInBets(Math.log(1 / (alpha * (1 - THETA))));
  let t = 0, first = -1, last = -1;
  const raw: RawSequence = {
    push(x) {
      capital.add(x, betUp.next(), betDown.next());
      betUp.observe(x); betDown.observe(x);
      t++;
      const a = firstTrue(size, (k) => capital.hedgedUp(k) <= threshold);
      const b = firstTrue(size, (k) => capital.hedgedDown(k) > threshold) - 1;
      [first, last] = a <= b ? [a, b] : [-1, -1];
    },
    get t() { return t; },
    raw() {
      if (first < 0) return [0, 1];
      return [Math.max(0, grid[first] - step), Math.min(1, grid[last] + step)];
    },
  };
  return sequenceState(raw, settings.intersect ?? true);
}
