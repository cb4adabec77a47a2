import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export default defineConfig({
  // The CLI runs in-process in most tests: its version as the build injects it.
  define: { MERCH_VERSION: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: one test file per core; the sandboxes, listeners and CLI runs of a file
    // share its process.
    maxWorkers: 2,
  },
});
