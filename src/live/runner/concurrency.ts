/**
 * An adaptive concurrency limit, AIMD (additive increase, multiplicative decrease, as in TCP
 * congestion control): a 429 halves the limit, at most once per `limit` completed calls so one
 * burst of simultaneous 429s counts once; every `limit` consecutive successes raise it by one,
 * back up to the configured maximum.
 */
export class AdaptiveLimit {
  private inFlight = 0;
  private successes = 0;
  private sinceDecrease = Infinity;
  private waiters: (() => void)[] = [];
  limit: number;

  constructor(readonly max: number, private readonly onLower?: (from: number, to: number) => void,
    private readonly onRaise?: (from: number, to: number) => void) {
    if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`concurrency must be an integer ≥ 1, got ${max}`);
    this.limit = max;
  }

  get active(): number { return this.inFlight; }

  async acquire(): Promise<void> {
    while (this.inFlight >= this.limit) await new Promise<void>((r) => this.waiters.push(r));
    this.inFlight++;
  }

  release(): void {
    this.inFlight--;
    this.sinceDecrease++;
    this.wake();
  }

  success(): void {
    if (++this.successes >= this.limit && this.limit < this.max) {
      this.limit++;
      this.successes = 0;
      this.onRaise?.(this.limit - 1, this.limit);
      this.wake();
    }
  }

  rateLimited(): void {
    this.successes = 0;
    if (this.sinceDecrease < this.limit || this.limit === 1) return;
    const from = this.limit;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.sinceDecrease = 0;
    this.onLower?.(from, this.limit);
  }

  /** Wake as many waiters as there are free slots, first come first served (a woken waiter beaten to its slot waits again). */
  private wake(): void {
    const free = Math.max(0, this.limit - this.inFlight);
    for (const r of this.waiters.splice(0, free)) r();
  }
}
