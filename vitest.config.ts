import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
  },
});
