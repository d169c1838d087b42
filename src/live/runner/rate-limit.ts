/**
 * Token bucket (the classic traffic-shaping algorithm; OpenAI states its limits as requests and
 * tokens per minute): tokens refill continuously at rate/60000 per ms up to a capacity; a request
 * takes its cost before it is sent. The capacity is one second's worth (at least 1), so a fresh
 * bucket does not fire a whole minute's budget at once. A cost above the capacity is let through
 * when the bucket is full and drives the level negative, so the average rate still holds; actual
 * usage can be settled afterwards (tokens per minute: estimate before, usage after).
 */
import type { Clock } from './clock.js';

export class TokenBucket {
  private level: number;
  private last: number;
  readonly capacity: number;
  private readonly perMs: number;

  constructor(perMinute: number, private readonly clock: Clock) {
    if (!(perMinute > 0)) throw new RangeError(`rate must be positive, got ${perMinute}`);
    this.perMs = perMinute / 60_000;
    this.capacity = Math.max(1, perMinute / 60);
    this.level = this.capacity;
    this.last = clock.now();
  }

  private refill(): void {
    const now = this.clock.now();
    this.level = Math.min(this.capacity, this.level + (now - this.last) * this.perMs);
    this.last = now;
  }

  /** Wait until `cost` can be taken, then take it. Returns early (taking nothing) when the signal aborts. */
  async take(cost: number, signal?: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal?.aborted) return false;
      this.refill();
      const need = Math.min(cost, this.capacity);
      if (this.level >= need) {
        this.level -= cost;
        return true;
      }
      await this.clock.sleep(Math.ceil((need - this.level) / this.perMs), signal);
    }
  }

  /** Settle the difference between what was taken and what was used (may be negative). */
  settle(delta: number): void {
    this.refill();
    this.level = Math.min(this.capacity, this.level - delta);
  }
}
