import { onAbort } from '../abort.js';
import { MAX_WAIT_MS } from './backoff.js';

/**
 * Time, injected: the runner waits (rate limits, backoff) through a Clock so tests can run a
 * whole retry schedule without real waiting and observe every wait it asked for.
 */
export interface Clock {
  /** Milliseconds on a monotonic-enough scale. */
  now(): number;
  /** Resolve after ms, or early when the signal aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal?.aborted || ms <= 0) { resolve(); return; }
      // One listener on the shared signal however many calls wait (abort.ts).
      const done = () => { clearTimeout(t); unlink(); resolve(); };
      const t = setTimeout(done, Math.min(ms, MAX_WAIT_MS)); // a timer's largest wait
      const unlink = signal ? onAbort(signal, done) : () => {};
    });
  },
};

/** Virtual time for tests: sleep advances the clock at once and records the wait. */
export class FakeClock implements Clock {
  t = 0;
  readonly sleeps: number[] = [];
  now(): number { return this.t; }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.t += Math.max(0, ms);
    await Promise.resolve();
  }
}
