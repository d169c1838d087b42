/**
 * What the run says about rate limiting. Under sustained 429s the adaptive limit moves often
 * (halved, raised again, halved …); a line for each move flooded stderr. A change of the limit is
 * printed as one line, at most one such line per `everyMs` of clock time; the changes in between
 * are counted, and the run ends with one summary line (lowered/raised counts, lowest limit, how
 * many changes were not printed). Lines go out as warnings, so `run -q` shows them.
 */
import type { Logger } from '../../core/logger.js';
import type { Clock } from './clock.js';
import { runnerMsg } from './messages.js';

export const NOTICE_EVERY_MS = 10_000;

export class ConcurrencyNotices {
  private lowered = 0;
  private raised = 0;
  private hidden = 0;
  private lowest: number;
  private now: number;
  private lastLine = -Infinity;

  constructor(start: number, private readonly clock: Clock, private readonly logger: Logger, private readonly everyMs = NOTICE_EVERY_MS) {
    this.lowest = start;
    this.now = start;
  }

  /** The limit moved from `from` to `to`. */
  change(from: number, to: number): void {
    if (to < from) this.lowered++; else this.raised++;
    this.lowest = Math.min(this.lowest, to);
    this.now = to;
    const t = this.clock.now();
    if (t - this.lastLine < this.everyMs) { this.hidden++; return; }
    this.lastLine = t;
    this.logger.warn(to < from ? runnerMsg.concurrencyLowered(from, to) : runnerMsg.concurrencyRaised(from, to));
  }

  /** The summary line, when the limit moved at all. */
  finish(): void {
    if (this.lowered + this.raised === 0) return;
    this.logger.warn(runnerMsg.concurrencySummary(this.lowered, this.raised, this.lowest, this.now, this.hidden));
  }
}
