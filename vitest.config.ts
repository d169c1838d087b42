import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on a two-core machine,
    // which runs every file in turn while the CLI processes the tests spawn leave a core idle.
    // Test files share no output paths (each writes under its own temporary directory).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
