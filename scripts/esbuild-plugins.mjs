// The esbuild plugins that keep start-up cheap by reaching into private files of three
// packages (commander, undici, zod). Those packages are pinned exactly in package.json; an
// upgrade that moves what a plugin replaces must fail the build loudly rather than ship a
// bundle that is silently bigger or broken: every plugin counts the imports it replaced,
// and checkPluginsApplied() throws when one replaced nothing. test/build/bundle.test.ts
// checks the effect on the built bundle.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const ROOT = new URL('..', import.meta.url);
const requireFromRoot = createRequire(new URL('package.json', ROOT));

const installedVersion = (name) => JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, ROOT), 'utf8')).version;

/** What each plugin replaces, and how many imports it replaced in this build. */
const records = new WeakMap();

/** A plugin that records how many imports it replaced, for checkPluginsApplied(). */
function replacing(name, pkg, what, setup) {
  const record = { name, pkg, what, replaced: 0 };
  const plugin = { name, setup: (b) => setup(b, () => record.replaced++) };
  records.set(plugin, record);
  return plugin;
}

// commander loads node:child_process at start-up only to run executable subcommands,
// which merch does not have; loading it cost ~2.5 ms of every run (npm run bench, start-up
// rows). commander gets a stand-in that loads the real module on first use of any export.
const lazyChildProcessForCommander = () =>
  replacing('lazy-child-process-for-commander', 'commander', "its `require('node:child_process')`", (b, count) => {
    b.onResolve({ filter: /^node:child_process$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)) return undefined;
      count();
      return { path: 'child_process', namespace: 'lazy-builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
      loader: 'js',
    }));
  });

// The API client uses only undici's Pool; undici's index loads every dispatcher, fetch,
// WebSocket, the cache and the mocks (~1 MB bundled, ~15 ms to load on every API call in
// npm run bench). src/api/client.ts gets Pool and its request() alone (not stream,
// pipeline, upgrade or connect); other importers (the webhook forwarder) still get the
// whole of undici.
const SLIM_UNDICI = [
  "const Dispatcher = require('undici/lib/dispatcher/dispatcher');",
  "Dispatcher.prototype.request = require('undici/lib/api/api-request');",
  "exports.Pool = require('undici/lib/dispatcher/pool');",
].join('\n');

/** What src/api/client.ts calls on a Pool: checked on undici itself before it is bundled. */
function checkSlimUndici() {
  const exports = {};
  new Function('require', 'exports', SLIM_UNDICI)(requireFromRoot, exports);
  for (const method of ['request', 'close']) {
    if (typeof exports.Pool?.prototype?.[method] !== 'function') {
      throw new Error(
        `slim-undici-for-the-api-client: undici ${installedVersion('undici')} no longer gives Pool.prototype.${method} through lib/dispatcher/pool and lib/api; update the plugin in scripts/esbuild-plugins.mjs`,
      );
    }
  }
}

const slimUndiciForTheApiClient = () =>
  replacing('slim-undici-for-the-api-client', 'undici', "src/api/client.ts's `import 'undici'`", (b, count) => {
    b.onStart(checkSlimUndici);
    b.onResolve({ filter: /^undici$/ }, (args) => {
      if (!/[\\/]src[\\/]api[\\/]client\.ts$/.test(args.importer)) return undefined;
      count();
      return { path: 'undici', namespace: 'slim-undici' };
    });
    b.onLoad({ filter: /.*/, namespace: 'slim-undici' }, () => ({
      contents: SLIM_UNDICI,
      resolveDir: new URL('.', ROOT).pathname,
      loader: 'js',
    }));
  });

// undici's HTTP/1 client requires its HTTP/2 client at load, which requires node:http2
// (with Node's tls and crypto): ~10 ms of every API call, for a client that only an
// `allowH2` connection uses, and merch never asks for one. The HTTP/2 client becomes a
// stand-in that loads it on the first HTTP/2 connection (its code stays in the bundle).
const lazyHttp2ClientForUndici = () =>
  replacing('lazy-http2-client-for-undici', 'undici', "lib/dispatcher/client.js's `require('./client-h2.js')`", (b, count) => {
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)) return undefined;
      count();
      return { path: 'client-h2', namespace: 'lazy-undici-h2', pluginData: args.resolveDir };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-undici-h2' }, (args) => ({
      contents: "module.exports = function connectH2(...args) { return require('./client-h2.js')(...args); };",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  });

// `import { z } from 'zod'` keeps zod's whole namespace, with its 64 locales (~0.4 MB of
// the bundled zod, loaded by every command that reads an API answer). merch uses only the
// English messages zod registers by default; `z.locales` keeps `en` alone.
const englishOnlyZodLocales = () =>
  replacing('english-only-zod-locales', 'zod', "its `import '../locales/index.js'`", (b, count) => {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      count();
      return { path: 'zod-locales', namespace: 'zod-locales', pluginData: args.resolveDir };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  });

/** A fresh set of the plugins for one build (each counts its own replacements). */
export function startUpPlugins() {
  return [lazyChildProcessForCommander(), slimUndiciForTheApiClient(), lazyHttp2ClientForUndici(), englishOnlyZodLocales()];
}

/** Throws, naming the package and its version, when a plugin replaced nothing in a build. */
export function checkPluginsApplied(plugins) {
  const idle = plugins.map((plugin) => records.get(plugin)).filter((record) => record.replaced === 0);
  if (idle.length === 0) return;
  throw new Error(
    idle
      .map((p) => `esbuild plugin ${p.name} replaced nothing: ${p.pkg} ${installedVersion(p.pkg)} no longer has ${p.what}; update scripts/esbuild-plugins.mjs for it`)
      .join('\n'),
  );
}
