// One ESM bundle in dist/: main.js holds the start-up path (commander and the command
// table); each command's implementation and the heavy modules (sandbox, prompts, the
// webhook receiver) are split into chunks that are loaded only by dynamic import().
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The bundle is built beside dist/ and replaces it only once complete: a failed build
// leaves the last good one for the tests that run bin/merch.js.
const dist = new URL('./dist', import.meta.url);
const next = new URL(`./dist.next-${process.pid}`, import.meta.url);
rmSync(next, { recursive: true, force: true });

// commander loads node:child_process at start-up only to run executable subcommands,
// which merch does not have; loading it cost ~2.5 ms of every run (npm run bench, start-up
// rows). commander gets a stand-in that loads the real module on first use.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "exports.spawn = (...args) => require('node:child_process').spawn(...args);",
      loader: 'js',
    }));
  },
};

// The API client uses only undici's Pool; undici's index loads every dispatcher, fetch,
// WebSocket, the cache and the mocks (~1 MB bundled, ~15 ms to load on every API call in
// npm run bench). src/api/client.ts gets Pool and the request API alone; other importers
// (the webhook forwarder) still get the whole of undici.
const slimUndiciForTheApiClient = {
  name: 'slim-undici-for-the-api-client',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]api[\\/]client\.ts$/.test(args.importer) ? { path: 'undici', namespace: 'slim-undici' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'slim-undici' }, () => ({
      contents: [
        "const Dispatcher = require('undici/lib/dispatcher/dispatcher');",
        "Object.assign(Dispatcher.prototype, require('undici/lib/api'));",
        "exports.Pool = require('undici/lib/dispatcher/pool');",
      ].join('\n'),
      resolveDir: new URL('.', import.meta.url).pathname,
      loader: 'js',
    }));
  },
};

// `import { z } from 'zod'` keeps zod's whole namespace, with its 64 locales (~0.4 MB of
// the bundled zod, loaded by every command that reads an API answer). merch uses only the
// English messages zod registers by default; `z.locales` keeps `en` alone.
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-locales', pluginData: args.resolveDir } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

try {
  await build({
    entryPoints: { main: 'src/main.ts', sandbox: 'src/sandbox/index.ts' },
    outdir: next.pathname,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: false,
    minify: false,
    legalComments: 'none',
    chunkNames: 'chunks/[name]-[hash]',
    define: { MERCH_VERSION: JSON.stringify(version) },
    // CommonJS dependencies bundled into ESM call require(); give them one.
    banner: {
      js: "import { createRequire as __merchCreateRequire } from 'node:module'; const require = __merchCreateRequire(import.meta.url);",
    },
    plugins: [lazyChildProcessForCommander, slimUndiciForTheApiClient, englishOnlyZodLocales],
    logLevel: 'warning',
  });
} catch (error) {
  rmSync(next, { recursive: true, force: true });
  throw error;
}

// `merch --help` alone is the page people and completion tools ask for most; its text
// depends only on the command table, so commander renders it once here (80 columns, as on
// a pipe) and bin/merch.js prints it without loading the CLI (npm run bench, start-up rows).
const { main } = await import(new URL('main.js', `${next.href}/`).href);
const { Readable, Writable } = await import('node:stream');
let help = '';
const stdout = new Writable({ write: (chunk, _encoding, done) => done(void (help += chunk)) });
const io = { stdin: Readable.from([]), stdout, stderr: process.stderr, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
await main(['--help'], { io, env: {}, interrupts: { subscribe: () => () => undefined, exitNow: process.exit } });
writeFileSync(new URL('help.txt', `${next.href}/`), help);
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
