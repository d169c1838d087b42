/**
 * User-facing messages of the live-run commands (`samegame run`, `samegame export`) and of the
 * providers, runner and trial store, as functions (the vega-lite convention, like messages.ts).
 */
const q = (s: string) => JSON.stringify(s);

const seconds = (ms: number) => (ms >= 1e6 * 1000 ? `${(ms / 1000).toExponential(2)} s` : `${(ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 })} s`);

export const runMsg = {
  contractBroken: (provider: string, plugin: boolean, model: string, what: string) =>
    `${plugin ? 'plug-in' : 'provider'} ${provider} (model ${model}) broke the provider contract: ${what} (README "Write a provider"); the run stops, the trials stored are kept`,
  hintTooLong: (ms: number, ceiling: number) =>
    `a retry hint (Retry-After, retryDelay or a plug-in's retryAfterMs) asked to wait ${seconds(ms)} before retrying, above the ceiling of ${seconds(ceiling)} (--max-wait): the hint is ignored, the attempt counts as failed and is retried on the ordinary backoff`,
  unknownProvider: (id: string, known: readonly string[]) =>
    `provider ${q(id)} is not known (known: ${known.join(', ')})`,
  missingKey: (model: string, env: string) =>
    `model ${q(model)}: the environment variable ${env} that should hold the API key is not set`,
  storeUnreadable: (file: string, reason: string) => `${file}: cannot open the trial store (${reason})`,
  noSuchRun: (file: string, id: number, ids: readonly number[]) =>
    `${file}: --run ${id}: no such run (the store has ${ids.length === 0 ? 'no runs' : `run${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`})`,
  notAStore: (file: string) => `${file}: not a samegame trial store (no runs table)`,
  noSuchStore: (file: string) => `${file}: no such trial store`,
  runPlan: (design: string, runId: number, total: number, done: number, resumed: boolean) =>
    `${resumed ? 'resuming' : 'starting'} run ${runId} of ${q(design)}: ${total} trials, ${done} already stored, ${total - done} to request`,
  runDone: (stored: number, ok: number, invalid: number, errors: number, tokens: number, store: string) =>
    `done: ${stored} trials stored (${ok} ok, ${invalid} invalid, ${errors} errors), ${tokens} tokens; store ${store}`,
  interrupted: (done: number, total: number) =>
    `interrupted: in-flight calls were finished and stored; ${done} of ${total} trials complete. Run the same command again to resume.`,
  aborted: (done: number, total: number) =>
    `aborted: in-flight calls were dropped; ${done} of ${total} trials complete. Run the same command again to resume.`,
  callTimedOut: (ms: number) => `no answer within --timeout-ms ${ms} (the call was ended by samegame)`,
  stopping: () => 'stopping: finishing the calls in flight (press Ctrl-C again to abort them)',
  concurrencyLowered: (from: number, to: number) => `rate limited repeatedly: concurrency lowered from ${from} to ${to}`,
  errorsRecorded: (n: number) => `${n} trials failed after their retries; they are stored with status "error" and will be retried on resume`,
  dryRun: (calls: number, total: number, stored: number, inTok: number, outTok: number, cost: string) =>
    [`dry run: ${calls} calls (${total} trials, ${stored} already stored)`,
      `estimated tokens: ${inTok} input (≈ characters / 4), ${outTok} output (at most max tokens per call)`,
      `estimated cost: ${cost}`].join('\n'),
  noPrices: () => 'unknown (give --price-in and --price-out in USD per million tokens, or prices in the design)',
  badFormat: (v: string) => `--format: ${q(v)} is not jsonl or csv`,
  exported: (n: number, out: string) => `exported ${n} trials to ${out}`,
  syntheticNote: (models: readonly string[]) =>
    `note: ${models.join(', ')} answered through the simulated provider — synthetic data, not a model's answers`,
  integrityCheckFailed: (file: string, check: string, problems: number, first: string) =>
    `${file}: the trial store is damaged (${check} found ${problems === 1 ? 'a problem' : `${problems}${problems >= 20 ? '+' : ''} problems`}, first: ${first}); restore it from a copy`,
  storeLocked: (file: string, pid: number, host: string, since: string) =>
    `${file}: another samegame run is writing this store (pid ${pid} on ${host}, since ${since}); wait for it to end or stop it — a store has one writer`,
  concurrencyRaised: (from: number, to: number) => `rate limits eased: concurrency raised from ${from} to ${to}`,
  concurrencySummary: (lowered: number, raised: number, lowest: number, now: number, hidden: number) =>
    `rate limited: concurrency lowered ${lowered} time${lowered === 1 ? '' : 's'} and raised ${raised} time${raised === 1 ? '' : 's'} (lowest ${lowest}, ended at ${now})${hidden > 0 ? `; ${hidden} of these changes were not printed` : ''}`,
  storeWalReadOnly: (file: string) =>
    `${file}: cannot read the trial store: it is in WAL mode without its -wal/-shm files (written by an older samegame) and its folder is not writable; copy it to a writable folder, or run samegame run on it once to return it to one file`,
  repeatedPlan: (design: string, runId: number, matches: number, over: number, decisions: number, stored: number, resumed: boolean) =>
    `${resumed ? 'resuming' : 'starting'} run ${runId} of ${design}: ${matches} matches (${over} over), ${decisions} decisions, ${stored} already stored`,
  repeatedDone: (matches: number, over: number, forfeited: number, ok: number, invalid: number, errors: number, tokens: number, store: string) =>
    `done: ${over} of ${matches} matches over (${forfeited} forfeited); decisions stored: ${ok} ok, ${invalid} invalid, ${errors} errors; ${tokens} tokens; store ${store}`,
  repeatedOpen: (open: number) => `${open} matches are not over (a decision failed); run the same command again to continue them`,
  repeatedDryRun: (matches: number, rounds: number, calls: number, total: number, stored: number, inTok: number, outTok: number, cost: string) =>
    `dry run: ${matches} matches × ${rounds} rounds: ${calls} calls to make (${total} decisions = Σ matches × rounds × LLM seats, ${stored} already stored); `
    + `~${inTok} input tokens (growing with the history), ≤${outTok} output tokens; cost ${cost}`,
  repeatedInterrupted: (over: number, matches: number) =>
    `interrupted: in-flight calls were finished and stored; ${over} of ${matches} matches over. Run the same command again to resume.`,
  /** The closing line of a run: the command that analyses its store. */
  nextCommand: (store: string) => `next: samegame analyze ${/^[A-Za-z0-9._/+-]+$/.test(store) ? store : `'${store.replace(/'/g, "'\\''")}'`}`,
  repeatedAborted: (over: number, matches: number) =>
    `aborted: in-flight calls were dropped; ${over} of ${matches} matches over. Run the same command again to resume.`,
};
