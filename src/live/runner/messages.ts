/**
 * The user-facing messages used only in live/runner/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

const seconds = (ms: number) => (
  ms >= 1e6 * 1000 ? `${(ms / 1000).toExponential(2)} s` : `${(ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 })} s`);


export const runnerMsg = {
  /** After a wave of an adaptive run: units open and stopped, trials so far and a fixed design's. */
  waveDone: (wave: number, open: number, stopped: number, used: number, fixed: number) =>
    `wave ${wave}: ${open} open, ${stopped} stopped; ${used.toLocaleString('en-US')} trials so far (the fixed design: ${fixed.toLocaleString('en-US')})`,
  /** A design refused once an override flag (e.g. --provider) is applied. */
  overrideRefused: (file: string, flag: string, what: string) => `${file}: ${flag}: ${what}`,
  contractBroken: (provider: string, plugin: boolean, model: string, what: string) =>
    (`${plugin ? 'plug-in' : 'provider'} ${provider} (model ${model}) broke the provider contract: ${what} (README "Write a provider"); the run stops, the ` +
      `trials stored are kept`),
  hintTooLong: (ms: number, ceiling: number) =>
    (`a retry hint (Retry-After, retryDelay or a plug-in's retryAfterMs) asked to wait ${seconds(ms)} before retrying, above the ceiling ` +
      `of ${seconds(ceiling)} (--max-wait): the hint is ignored, the attempt counts as failed and is retried on the ordinary backoff`),
  callTimedOut: (ms: number) => `no answer within --timeout-ms ${ms} (the call was ended by samegame)`,
  concurrencyLowered: (from: number, to: number) => `rate limited repeatedly: concurrency lowered from ${from} to ${to}`,
  concurrencyRaised: (from: number, to: number) => `rate limits eased: concurrency raised from ${from} to ${to}`,
  concurrencySummary: (lowered: number, raised: number, lowest: number, now: number, hidden: number) =>
    (`rate limited: concurrency lowered ${lowered} time${lowered === 1 ? '' : 's'} and raised ${raised} time${raised === 1 ? '' : 's'} (lowest ${lowest}, ` +
      `ended at ${now})${hidden > 0 ? `; ${hidden} of these changes were not printed` : ''}`),
};
