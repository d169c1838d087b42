import type { Command } from 'commander';
import { FLAG_LIMITS, parseIntFlag, parsePositiveFlag, parseProviderFlag, parseRangeFlag, parseUrlFlag, terminalLogger } from './options.js';
import { providerIds, run, RUN_DEFAULTS, type RunOptions } from '../commands/run.js';
import type { Logger } from '../core/logger.js';
import { cliMsg } from './messages.js';
import { parsePriceFlag, PRICE_HELP, runPrices, type Price } from './price.js';

/** After the second Ctrl-C, the process ends within this long whatever still runs. */
const FORCED_EXIT_MS = 3000;

/**
 * `fn` with Ctrl-C (SIGINT, SIGTERM) turned into the run's signals: the first stops it (the calls
 * in flight finish and are stored), the second aborts them, and the process ends soon after
 * whatever still holds it (a plug-in's socket or timer). The handlers are removed after.
 */
export async function withCtrlC<T>(logger: Logger, fn: (signals: { stop: AbortSignal; signal: AbortSignal }) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = () => {
    if (!stop.signal.aborted) { logger.warn(cliMsg.stopping()); stop.abort(); return; }
    abort.abort();
    setTimeout(() => process.exit(130), FORCED_EXIT_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await fn({ stop: stop.signal, signal: abort.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run a design against its models and store every trial (resumes when run again)')
    .argument('<design>', 'design YAML file')
    .option('--store <file>', 'trial store (SQLite); default runs/<design name>.sqlite')
    .option('--provider <id>', `replace the provider of every model (${providerIds().join(', ')}, or a plug-in module path)`, parseProviderFlag('--provider',
      providerIds()))
    .option('--base-url <url>',
      'replace the base URL of every model (a server of its provider\'s wire format: a compatible server, a gateway, a regional endpoint)',
        parseUrlFlag('--base-url'))
    .option('--model <name>', 'replace the model name sent for every model')
    .option('--concurrency <n>', 'calls in flight at most', parseIntFlag('--concurrency', 1, FLAG_LIMITS.concurrency), RUN_DEFAULTS.concurrency)
    .option('--rpm <n>', 'requests per minute at most', parseRangeFlag('--rpm', ...FLAG_LIMITS.rpm))
    .option('--tpm <n>', 'tokens per minute at most (estimated before a call, settled by its usage)', parseRangeFlag('--tpm', ...FLAG_LIMITS.tpm))
    .option('--max-retries <n>', 'retries per trial after the first call', parseIntFlag('--max-retries', 0, FLAG_LIMITS.maxRetries), RUN_DEFAULTS.maxRetries)
    .option('--timeout-ms <n>', 'limit per call, including the response body', parseIntFlag('--timeout-ms', 1, FLAG_LIMITS.timeoutMs), RUN_DEFAULTS.timeoutMs)
    .option('--max-wait <s>',
      ('longest wait, in seconds, a server\'s retry hint (Retry-After, retryDelay) may ask for; a longer hint is ignored with a warning and the attempt ' +
        'retried on the ordinary backoff'), parseRangeFlag('--max-wait', 0, FLAG_LIMITS.maxWaitS), RUN_DEFAULTS.maxWait)
    .option('--seed <n>', 'seed of the retry jitter', parseIntFlag('--seed'), RUN_DEFAULTS.seed)
    .option('--price <in,out>', `${PRICE_HELP} (for --dry-run; overrides the design)`, parsePriceFlag())
    .option('--price-in <usd>', 'deprecated: --price IN,OUT', parseRangeFlag('--price-in', 0, FLAG_LIMITS.price))
    .option('--price-out <usd>', 'deprecated: --price IN,OUT', parseRangeFlag('--price-out', 0, FLAG_LIMITS.price))
    .option('--until <rule>',
      ('adaptive run: stop each cell or contrast when its confidence sequence meets RULE, the fields of a design\'s stop block as key=value pairs ' +
        '(target=shift,half_width=0.05,decide=sign,wave=20)'))
    .option('--probes <n>',
      ('comprehension probes per model × game × framing, asked before the decisions and stored apart from them (in place of the design\'s probes:; ' +
        'analyze writes reports/comprehension.csv)'), parseIntFlag('--probes', 1, FLAG_LIMITS.probes))
    .option('--dry-run', 'print the number of calls, estimated tokens and cost; call nothing')
    .option('--batch', 'send every model\'s trials through its vendor\'s batch API (OpenAI, Anthropic, Gemini: half price, results within 24 h)')
    .option('--batch-size <n>', 'requests per batch file at most (the API allows 50000)', parseIntFlag('--batch-size', 1))
    .option('--poll <s>', 'seconds before the first poll of a batch (later polls back off)', parsePositiveFlag('--poll'), RUN_DEFAULTS.poll)
    .option('--no-wait', 'submit the batches and exit; run the same command again to collect')
    .option('--verify-store', 'check the whole store (integrity_check) before using it; a quick check is always made')
    .option('-q, --quiet', 'print warnings and the summary only')
    .action(async (design: string, flags: Omit<RunOptions, 'design' | 'logger' | 'stop' | 'signal'> & { quiet?: boolean; price?: Price }) => {
      const logger = terminalLogger({
        // A long run shows its progress in a log file too: a line every 30 s.
        quiet: flags.quiet === true, progressText: (label, done, total) => `${done}/${total} ${label}`, plain: { everyMs: 30_000 },
      });
      const o = { ...flags, ...runPrices(flags, logger) };
      if (o.dryRun) await run({ ...o, design, logger });
      else await withCtrlC(logger, (signals) => run({ ...o, design, logger, ...signals }));
    });
}

