/**
 * The run's progress line: done/total, rate, ETA, errors, tokens. Rate and ETA count only this
 * session's trials (resumed ones were free). Emitted through the injected Logger at most every
 * `everyMs` of clock time, and always on the last trial.
 */
import type { Logger } from '../../core/logger.js';
import type { Clock } from './clock.js';

export function duration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

export function compact(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

export class Progress {
  private doneNow = 0;
  errors = 0;
  tokens = 0;
  private readonly start: number;
  private lastEmit = -Infinity;
  /** What is counted ("trials"; a repeated game counts decisions). */
  noun = 'trials';
  /** More to say at the end of the line (a repeated game: matches over). */
  extra?: () => string;

  constructor(readonly total: number, private readonly before: number, private readonly clock: Clock,
    private readonly logger: Logger, private readonly everyMs = 250) {
    this.start = clock.now();
  }

  get done(): number { return this.before + this.doneNow; }

  /** Count one stored trial. */
  tick(isError: boolean, tokens: number): void {
    this.doneNow++;
    if (isError) this.errors++;
    this.tokens += tokens;
    const now = this.clock.now();
    if (now - this.lastEmit >= this.everyMs || this.done === this.total) {
      this.lastEmit = now;
      this.logger.progress?.(this.label(), this.done, this.total);
    }
  }

  label(): string {
    const secs = (this.clock.now() - this.start) / 1000;
    const rate = secs > 0 ? this.doneNow / secs : NaN;
    const eta = rate > 0 ? ((this.total - this.done) / rate) * 1000 : NaN;
    return (`${this.noun} (${Number.isFinite(rate) ? rate.toFixed(1) : '?'}/s, ` +
      `ETA ${duration(eta)}, ${this.errors} errors, ${compact(this.tokens)} tokens${this.extra ? `; ${this.extra()}` : ''})`);
  }
}
