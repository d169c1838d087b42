import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadDesign } from '../live/design/design.js';
import { planRun } from '../live/runner/plan.js';
import { ProviderPool, DEFAULT_TIMEOUT_MS, isSimulated, providerIds } from '../live/providers/registry.js';
import { loadPlugins } from '../live/providers/plugins.js';
import { isPathSpec } from '../live/providers/plugin-spec.js';
import { runTrials, RUNNER_DEFAULTS } from '../live/runner/runner.js';
import { DEFAULT_MAX_HINT_MS } from '../live/runner/backoff.js';
import { prepareSession } from '../live/runner/session.js';
import { TrialStore } from '../live/store/store.js';
import type { Logger } from '../core/logger.js';
import type { TrialSpec } from '../live/types.js';
import { UserError } from '../core/errors.js';
import { storeError, withStoreErrors } from '../live/store/integrity.js';
import { runMsg } from '../core/messages/run.js';
import { toolInfo } from '../core/paths.js';
import { FLAG_LIMITS, parseIntFlag, parsePositiveFlag, parseProviderFlag, parseRangeFlag, parseUrlFlag } from './options.js';
import { printBatchDryRun, runBatchPart, splitBatch, type BatchFlags } from './run-batch.js';
import type { Session } from '../live/runner/session.js';
import { assertStoreOrNew } from '../live/store/identify.js';
import { checkOutFile } from '../core/out-dir.js';
import { repeatedDryRun, runRepeated } from './run-repeated.js';

interface RunFlags extends BatchFlags {
  store?: string; provider?: string; baseUrl?: string; model?: string; concurrency: number; rpm?: number; tpm?: number;
  dryRun?: boolean; maxRetries: number; timeoutMs: number; maxWait: number; seed: number; priceIn?: number; priceOut?: number; quiet?: boolean;
  verifyStore?: boolean;
}

/** After the second Ctrl-C, the process ends within this long whatever still runs. */
const FORCED_EXIT_MS = 3000;

/** Default store of a design: runs/<design name>.sqlite. */
export function defaultStore(designName: string): string {
  return join('runs', `${designName.replace(/[^A-Za-z0-9._-]/g, '-')}.sqlite`);
}

/**
 * The run's logger: a progress line redrawn in place on a terminal (closed before any other
 * message), or printed every 30 s when stderr is a file or pipe, so long runs show progress there too.
 */
function runLogger(quiet: boolean): Logger & { endLine(): void; summary(m: string): void } {
  const tty = process.stderr.isTTY === true;
  let open = false;
  let lastPlain = -Infinity;
  const line = (m: string) => {
    if (open) { process.stderr.write('\n'); open = false; }
    process.stderr.write(`${m}\n`);
  };
  return {
    endLine() { if (open) { process.stderr.write('\n'); open = false; } },
    info(m) { if (!quiet) line(m); },
    /** The closing summary: printed with --quiet too (its help says "warnings and the summary"). */
    summary(m) { line(m); },
    warn(m) { line(`warning: ${m}`); },
    progress(label, done, total) {
      if (quiet) return;
      const text = `${done}/${total} ${label}`;
      if (tty) {
        process.stderr.write(`\r\x1b[K${text}`);
        open = done !== total;
        if (!open) process.stderr.write('\n');
      } else if (Date.now() - lastPlain >= 30_000 || done === total) {
        lastPlain = Date.now();
        process.stderr.write(`${text}\n`);
      }
    },
  };
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run a design against its models and store every trial (resumes when run again)')
    .argument('<design>', 'design YAML file')
    .option('--store <file>', 'trial store (SQLite); default runs/<design name>.sqlite')
    .option('--provider <id>', `replace the provider of every model (${providerIds().join(', ')}, or a plug-in module path)`, parseProviderFlag('--provider', providerIds()))
    .option('--base-url <url>', 'replace the base URL of every model (a server of its provider\'s wire format: a compatible server, a gateway, a regional endpoint)', parseUrlFlag('--base-url'))
    .option('--model <name>', 'replace the model name sent for every model')
    .option('--concurrency <n>', 'calls in flight at most', parseIntFlag('--concurrency', 1, FLAG_LIMITS.concurrency), RUNNER_DEFAULTS.concurrency)
    .option('--rpm <n>', 'requests per minute at most', parseRangeFlag('--rpm', ...FLAG_LIMITS.rpm))
    .option('--tpm <n>', 'tokens per minute at most (estimated before a call, settled by its usage)', parseRangeFlag('--tpm', ...FLAG_LIMITS.tpm))
    .option('--max-retries <n>', 'retries per trial after the first call', parseIntFlag('--max-retries', 0, FLAG_LIMITS.maxRetries), RUNNER_DEFAULTS.maxRetries)
    .option('--timeout-ms <n>', 'limit per call, including the response body', parseIntFlag('--timeout-ms', 1, FLAG_LIMITS.timeoutMs), DEFAULT_TIMEOUT_MS)
    .option('--max-wait <s>', 'longest wait, in seconds, a server\'s retry hint (Retry-After, retryDelay) may ask for; a longer hint is ignored with a warning and the attempt retried on the ordinary backoff', parseRangeFlag('--max-wait', 0, FLAG_LIMITS.maxWaitS), DEFAULT_MAX_HINT_MS / 1000)
    .option('--seed <n>', 'seed of the retry jitter', parseIntFlag('--seed'), RUNNER_DEFAULTS.seed)
    .option('--price-in <usd>', 'USD per million input tokens (for --dry-run; overrides the design)', parseRangeFlag('--price-in', 0, FLAG_LIMITS.price))
    .option('--price-out <usd>', 'USD per million output tokens (for --dry-run; overrides the design)', parseRangeFlag('--price-out', 0, FLAG_LIMITS.price))
    .option('--dry-run', 'print the number of calls, estimated tokens and cost; call nothing')
    .option('--batch', 'send every model\'s trials through its vendor\'s batch API (OpenAI, Anthropic, Gemini: half price, results within 24 h)')
    .option('--batch-size <n>', 'requests per batch file at most (the API allows 50000)', parseIntFlag('--batch-size', 1))
    .option('--poll <s>', 'seconds before the first poll of a batch (later polls back off)', parsePositiveFlag('--poll'), 30)
    .option('--no-wait', 'submit the batches and exit; run the same command again to collect')
    .option('--verify-store', 'check the whole store (integrity_check) before using it; a quick check is always made')
    .option('-q, --quiet', 'print warnings and the summary only')
    .action((designPath: string, o: RunFlags) => runCommand(designPath, o));
}

/** The session of a run: flags applied, a --provider module path made absolute (it is read from the working directory). */
function sessionOf(designPath: string, o: RunFlags): Session {
  const flagPrices = o.priceIn !== undefined || o.priceOut !== undefined ? { input: o.priceIn ?? 0, output: o.priceOut ?? 0 } : undefined;
  const provider = o.provider !== undefined && isPathSpec(o.provider) ? resolve(o.provider) : o.provider;
  return prepareSession(loadDesign(designPath), { provider, baseUrl: o.baseUrl, model: o.model }, flagPrices, designPath);
}

async function dryRun(session: Session, split: { sync: readonly TrialSpec[]; batch: readonly TrialSpec[] }, storePath: string, o: RunFlags): Promise<void> {
  if (split.batch.length > 0) printBatchDryRun(session, split.batch, storePath, o);
  if (split.batch.length > 0 && split.sync.length === 0) return;
  const store = existsSync(storePath) ? TrialStore.openExisting(storePath, { verify: o.verifyStore }) : undefined;
  const plan = await withStoreErrors(storePath, () => {
    const run = store?.findRun(session.hash);
    return planRun(split.sync, (s) => run !== undefined && store!.isComplete(run.id, { model: s.model.id, game: s.game, framing: s.framing, rep: s.rep }), session.prices);
  }).finally(() => store?.close());
  process.stdout.write(`${runMsg.dryRun(plan.calls, plan.total, plan.stored, plan.inputTokens, plan.outputTokens,
    plan.cost === undefined ? runMsg.noPrices() : `$${plan.cost.toFixed(4)}`)}\n`);
}

async function runCommand(designPath: string, o: RunFlags): Promise<void> {
  const logger = runLogger(o.quiet === true);
  const session = sessionOf(designPath, o);
  const storePath = o.store ?? defaultStore(session.design.name);
  checkOutFile('--store', storePath, { inPlace: true });
  assertStoreOrNew(storePath);
  // Plug-in modules are loaded and checked, unknown providers and missing keys fail, before the store is created.
  const plugins = await loadPlugins(session.design.models, designPath);
  const split = splitBatch(session, o.batch === true);
  if (o.dryRun) { await (session.design.play ? repeatedDryRun(session, storePath, o) : dryRun(session, split, storePath, o)); return; }
  const pool = new ProviderPool({ timeoutMs: o.timeoutMs }, plugins);
  pool.prepare(session.design.models);
  const store = TrialStore.open(storePath, { verify: o.verifyStore });
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = () => {
    if (!stop.signal.aborted) { logger.warn(runMsg.stopping()); stop.abort(); return; }
    abort.abort();
    // The second Ctrl-C always ends the process: the runner drops the calls in flight at once, and
    // should anything still hold the process (a plug-in's socket or timer), it exits all the same.
    setTimeout(() => process.exit(130), FORCED_EXIT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { run, resumed } = store.openRun({
      name: session.design.name, hash: session.hash, json: session.json, toolVersion: toolInfo().version, started: new Date().toISOString(),
    });
    const synthetic = session.design.models.filter(isSimulated).map((m) => m.id);
    if (synthetic.length > 0) logger.info(runMsg.syntheticNote(synthetic));
    if (session.design.play) {
      await runRepeated({ session, store, storePath, runId: run.id, resumed, o, logger, pool, stop: stop.signal, abort: abort.signal });
      return;
    }
    const r = await runTrials({
      store, runId: run.id, specs: split.sync, providers: pool, concurrency: o.concurrency, rpm: o.rpm, tpm: o.tpm,
      maxRetries: o.maxRetries, seed: o.seed, logger, stop: stop.signal, abort: abort.signal, timeoutMs: o.timeoutMs, maxWaitMs: o.maxWait * 1000,
      onStart: (done) => { if (split.sync.length > 0) logger.info(runMsg.runPlan(session.design.name, run.id, split.sync.length, done, resumed)); },
    });
    if (r.outcome !== 'complete') {
      const complete = r.alreadyDone + r.ok + r.invalid;
      // 130 = interrupted by SIGINT (128 + 2), the shell convention.
      throw new UserError(r.outcome === 'aborted' ? runMsg.aborted(complete, r.total) : runMsg.interrupted(complete, r.total), 130);
    }
    const b = split.batch.length > 0
      ? await runBatchPart({ session, specs: split.batch, store, storePath, runId: run.id, o, logger, stop: stop.signal }) : undefined;
    const c = store.statusCounts(run.id);
    // Interrupted while waiting on batches: what was submitted stays open in the store; a rerun polls it.
    if (stop.signal.aborted) throw new UserError(runMsg.interrupted(c.ok + c.invalid, session.specs.length), 130);
    logger.summary(runMsg.runDone(c.ok + c.invalid + c.error, c.ok, c.invalid, c.error, r.tokens + (b?.tokens ?? 0), storePath));
  } catch (e) {
    throw storeError(storePath, e);
  } finally {
    logger.endLine();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    store.close();
  }
}
