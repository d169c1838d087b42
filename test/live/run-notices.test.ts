/**
 * What a run says under rate limiting, and with -q. With 30 % of calls answered 429 the adaptive
 * limit moves many times; stderr gets at most one concurrency line per 10 s of (clock) time and one
 * summary line that counts the rest. `run -q` prints warnings and the summary, as its help says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../src/core/logger.js';
import { FakeClock } from '../../src/live/runner/clock.js';
import { ConcurrencyNotices, NOTICE_EVERY_MS } from '../../src/live/runner/notices.js';
import { runTrials } from '../../src/live/runner/runner.js';
import { TrialStore } from '../../src/live/store/store.js';
import { ProviderError, type ProviderResponse, type TrialSpec } from '../../src/live/types.js';
import { streamFor } from '../../src/stats/rng.js';
import { model, spec } from '../helpers/trial-specs.js';
import { cleanEnv, ROOT, runCli } from '../helpers/cli.js';
import { runnerMsg } from '../../src/live/runner/messages.js';

const QUICKSTART = join(ROOT, 'data/designs/quickstart.yaml');
const TOTAL = 2 * 4 * 4 * 25; // quickstart, by hand

let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'sg-notices-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isChange = (m: string) => m.startsWith('rate limited repeatedly: concurrency lowered') || m.startsWith('rate limits eased');

describe('concurrency notices', () => {
  it('30 % 429s: at most one concurrency line per 10 s of clock time, and a summary that counts every change', async () => {
    const store = TrialStore.open(join(dir, 'r.sqlite'));
    store.openRun({ name: 'd', hash: 'h', json: '{}', toolVersion: '0', started: 'x' });
    const rng = streamFor(7, '429s');
    const clock = new FakeClock();
    let calls = 0;
    const provider = {
      id: 'p',
      async complete(req: { spec: TrialSpec }): Promise<ProviderResponse> {
        calls++;
        await clock.sleep(200); // each call takes 200 ms of clock time
        if (rng.next() < 0.3) throw new ProviderError('rate_limit', 'Rate limit reached', 429);
        return { text: 'COOP', raw: '{}', request: {}, firstTokenTopLogprobs: [{ token: req.spec.actionWords[0], logprob: 0 }] };
      },
    };
    const logger = new MemoryLogger();
    const specs = Array.from({ length: 600 }, (_, i) => spec(model('p'), i));
    const r = await runTrials({ store, runId: 1, specs, providers: { get: () => provider }, concurrency: 16, clock, logger, maxRetries: 20 });
    store.close();
    expect(r.outcome).toBe('complete');
    expect(calls).toBeGreaterThan(600 * 1.2); // the 429s happened
    const lines = logger.warnings.filter(isChange);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(1 + Math.floor(clock.now() / NOTICE_EVERY_MS));
    const summary = logger.warnings.filter((m) => m.startsWith('rate limited: concurrency lowered'));
    expect(summary).toHaveLength(1);
    const [, lowered, raised, hidden] = /lowered (\d+) times? and raised (\d+) times?.*?(?:; (\d+) of these changes were not printed)?$/.exec(summary[0])!;
    expect(Number(lowered) + Number(raised)).toBe(lines.length + Number(hidden ?? 0));
    expect(Number(hidden)).toBeGreaterThan(0);
  });

  it('the rule by hand: a line for the first change, changes within 10 s counted, the next line after 10 s', () => {
    const clock = new FakeClock();
    const logger = new MemoryLogger();
    const n = new ConcurrencyNotices(8, clock, logger);
    n.change(8, 4); // t = 0: printed
    clock.t = 3_000; n.change(4, 5); // hidden
    clock.t = 9_999; n.change(5, 2); // hidden
    clock.t = 10_000; n.change(2, 3); // printed
    n.finish();
    expect(logger.warnings).toEqual([
      runnerMsg.concurrencyLowered(8, 4), runnerMsg.concurrencyRaised(2, 3), runnerMsg.concurrencySummary(2, 2, 2, 3, 2),
    ]);
    const quiet = new MemoryLogger();
    new ConcurrencyNotices(4, clock, quiet).finish();
    expect(quiet.warnings).toEqual([]); // no change, no summary
  });
});

it('run -q prints the summary and the next command (and warnings), nothing else', async () => {
  const store = join(dir, 'q.sqlite');
  const r = await runCli(['run', QUICKSTART, '--store', store, '-q'], { env: cleanEnv() });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe(`next: samegame analyze ${store}`);
  const m = /^done: (\d+) trials stored \((\d+) ok, (\d+) invalid, 0 errors\), \d+ tokens; store (.+)$/.exec(lines[0])!;
  expect(m).not.toBeNull();
  expect([Number(m[1]), Number(m[2]) + Number(m[3]), m[4]]).toEqual([TOTAL, TOTAL, store]);
}, 300_000);
