import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

export default defineConfig({
  // The CLI runs in-process in most tests: its version as the build injects it.
  define: { MERCH_VERSION: JSON.stringify(version) },
  test: {
    include: ['test/**/*.test.ts'],
    // The run gets a TMPDIR of its own, and fails if anything is left in it at the end: a
    // test removes what it creates (test/support/temp-dir.ts).
    globalSetup: ['test/support/global-tmpdir.ts', 'test/support/global-keyring.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Three test files on two cores: a file spends much of its time waiting (for a child
    // process, a browser, a --max-wait, a retry's backoff), and a third keeps the cores busy
    // meanwhile. The tests wait for conditions, never for guessed times, so they hold on a
    // busy machine (docs/reliability.md, "Budget").
    maxWorkers: 3,
    // The files of a worker share one module graph instead of loading the CLI, the sandbox
    // and their dependencies again for each file (the suite took twice as long isolated).
    // The CLI keeps no module state between runs (each run gets its streams, environment
    // and MERCH_CONFIG_DIR), and spies are restored after every test. Known shared global:
    // a started sandbox (@hono/node-server) replaces globalThis.Response with its own class,
    // so tests do not check `instanceof Response`.
    isolate: false,
    restoreMocks: true,
  },
});
