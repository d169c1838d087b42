import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that take the most time (vitest's per-file durations, longest first), started first: with two
 * workers taking files from one queue, the long ones then run side by side and the short ones
 * fill in behind them, instead of one long file starting last while the other worker idles.
 * A clean clone has no timing cache to order by, so the order is written down here
 * (test/suite-config.test.ts checks that every entry names a test file that exists).
 */
const SLOWEST = [
  'test/docs/guides/audit-secondary-data.test.ts', 'test/live/adaptive-repeated.test.ts', 'test/commands/audit-threads.test.ts',
  'test/docs/guides/tables-and-figures-for-a-paper.test.ts', 'test/fuzz/campaign.test.ts', 'test/analyses/audit/golden.test.ts', 'test/suite-config.test.ts',
  'test/live/plugins.test.ts', 'test/docs/guides/combine-studies.test.ts', 'test/messages-placement.test.ts', 'test/docs/guides/readme.test.ts',
  'test/analyses/two-framing/framing-tests-coverage.test.ts', 'test/commands/analyze.test.ts', 'test/docs/library-examples.test.ts',
  'test/analyses/audit/cli.test.ts', 'test/analyses/two-framing/simultaneous-near-zero.test.ts', 'test/cli/expect.test.ts', 'test/cli/trials.test.ts',
  'test/docs/guides/reproduce-a-paper.test.ts', 'test/cli/interval-flags.test.ts', 'test/analyses/two-framing/extra-statistic.test.ts',
  'test/docs/guides/run-your-own-study.test.ts', 'test/docs/guides.test.ts', 'test/browser/report.test.ts', 'test/fuzz/corpus.test.ts',
  'test/commands/plan-adaptive.test.ts', 'test/live/store-readonly.test.ts', 'test/live/batch-vendors.test.ts', 'test/sources/names.property.test.ts',
  'test/cli/framing-templates.test.ts', 'test/live/kill.test.ts', 'test/cli/logs-one-table.test.ts', 'test/analyses/two-framing/clustered-coverage.test.ts',
  'test/live/adaptive-match-coverage.test.ts', 'test/analyses/audit/scale.test.ts', 'test/analyses/coverage/truthful.test.ts',
  'test/analyses/two-framing/simultaneous.test.ts', 'test/live/batch-vendors-kill.test.ts', 'test/sources/engine/aggregates.test.ts',
  'test/commands/names-and-paper.test.ts', 'test/package-files.test.ts', 'test/commands/number-noise.property.test.ts',
  'test/analyses/selective/equivalence.test.ts', 'test/live/repeated/batch.test.ts', 'test/library-api.test.ts', 'test/live/adaptive-repeated-batch.test.ts',
  'test/live/repeated/kill.test.ts', 'test/commands/meta.test.ts', 'test/docs/guides/reanalyse-a-published-log.test.ts', 'test/cli/report-exit.test.ts',
  'test/live/runner.test.ts', 'test/sources/effects-limit.test.ts', 'test/live/batch-kill.test.ts', 'test/live/writer-lock.test.ts',
  'test/analyses/two-framing/table3-test-inversion.test.ts', 'test/cli/names-unused.test.ts', 'test/live/batch-probes.test.ts', 'test/architecture.test.ts',
  'test/live/probes-run.test.ts', 'test/stats/cluster-coverage.test.ts', 'test/commands/digitized.test.ts', 'test/browser/match-browser.test.ts',
  'test/live/adaptive-batch.test.ts', 'test/fuzz/special-files.test.ts', 'test/cli/exit.test.ts', 'test/sources/digitized/closed-loop.test.ts',
  'test/live/abort-listeners.test.ts', 'test/analyses/coverage/coverage.test.ts', 'test/live/batch-interrupt.test.ts', 'test/live/payoff-check.test.ts',
  'test/analyses/reproduction/unknown-reps.test.ts', 'test/commands/reproduce-outputs.test.ts', 'test/analyses/audit/shipped.test.ts',
  'test/fuzz/readers.property.test.ts', 'test/stats/framing-exact.test.ts', 'test/commands/near-one.test.ts', 'test/cli/logs.test.ts',
  'test/core/command-line.test.ts', 'test/commands/store-logprobs.test.ts', 'test/stats/confseq/optional-stopping.test.ts',
  'test/cli/report-pooling.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((s) => f.moduleId.replace(/\\/g, '/').endsWith(s));
      return i < 0 ? SLOWEST.length : i;
    };
    return [...await super.sort(files)].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Test files get their temporary folders in one folder of their own (on tmpfs where there is
    // one: the trial stores fsync every write), removed when the run ends.
    globalSetup: ['test/helpers/global-tmp.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on a two-core machine,
    // which runs every file in turn while the CLI processes the tests spawn leave a core idle.
    // Test files share no output paths (each writes under its own temporary directory).
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker runs its test files one after another in one module graph: the CLI's modules (vega,
    // SQLite, the OpenAI SDK) load once per worker, not once per file. No test relies on module
    // state: the src modules keep only caches, and the CLI helper restores what a call changes
    // (working directory, environment, stdout and stderr).
    isolate: false,
    // Quiet: what a passing test logs (the campaigns' tallies, the coverage simulations' rates) is
    // not printed; a failing test's logs are. `npx vitest run FILE --silent=false` shows them all.
    silent: 'passed-only',
    sequence: { sequencer: SlowestFirst },
  },
});
