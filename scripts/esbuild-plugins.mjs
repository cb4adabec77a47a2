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

/**
 * A plugin that hands `importer`'s import of `specifier` a stand-in module of `contents`,
 * resolved in `resolveDir` (by default beside the importer, so the stand-in's own relative
 * requires reach the package's real files). Other importers get the real module.
 */
function standIn({ name, pkg, what, specifier, importer, contents, resolveDir, onStart }) {
  return replacing(name, pkg, what, (b, count) => {
    if (onStart) b.onStart(onStart);
    b.onResolve({ filter: specifier }, (args) => {
      if (!importer.test(args.importer)) return undefined;
      count();
      return { path: name, namespace: name, pluginData: resolveDir ?? args.resolveDir };
    });
    b.onLoad({ filter: /.*/, namespace: name }, (args) => ({ contents, resolveDir: args.pluginData, loader: 'js' }));
  });
}

// commander loads node:child_process at start-up only to run executable subcommands,
// which merch does not have; loading it cost ~2.5 ms of every run (npm run bench, start-up
// rows). commander gets a stand-in that loads the real module on first use of any export.
const lazyChildProcessForCommander = () =>
  standIn({
    name: 'lazy-child-process-for-commander',
    pkg: 'commander',
    what: "its `require('node:child_process')`",
    specifier: /^node:child_process$/,
    importer: /[\\/]node_modules[\\/]commander[\\/]/,
    contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
  });

// Requests through a proxy are undici's EnvHttpProxyAgent's alone (direct ones go through
// node:http); undici's index loads every dispatcher, fetch, WebSocket, the cache and the
// mocks (~1 MB bundled, ~15 ms to load). src/api/proxy-transport.ts gets the proxy agent
// with request() and connect() (a CONNECT tunnel is opened with it), not stream, pipeline
// or upgrade.
const SLIM_UNDICI = [
  "const Dispatcher = require('undici/lib/dispatcher/dispatcher');",
  "Dispatcher.prototype.request = require('undici/lib/api/api-request');",
  "Dispatcher.prototype.connect = require('undici/lib/api/api-connect');",
  "exports.EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent');",
].join('\n');

/** What src/api/proxy-transport.ts uses of undici: checked on undici itself before it is bundled. */
function checkSlimUndici() {
  const exports = {};
  new Function('require', 'exports', SLIM_UNDICI)(requireFromRoot, exports);
  for (const [name, method] of [['EnvHttpProxyAgent', 'request'], ['EnvHttpProxyAgent', 'close'], ['EnvHttpProxyAgent', 'connect']]) {
    if (typeof exports[name]?.prototype?.[method] !== 'function') {
      throw new Error(
        `slim-undici-for-the-proxy: undici ${installedVersion('undici')} no longer gives ${name}.prototype.${method} through lib/dispatcher and lib/api; update the plugin in scripts/esbuild-plugins.mjs`,
      );
    }
  }
}

const slimUndiciForTheProxy = () =>
  standIn({
    name: 'slim-undici-for-the-proxy',
    pkg: 'undici',
    what: "src/api/proxy-transport.ts's `import 'undici'`",
    specifier: /^undici$/,
    importer: /[\\/]src[\\/]api[\\/]proxy-transport\.ts$/,
    contents: SLIM_UNDICI,
    resolveDir: new URL('.', ROOT).pathname,
    onStart: checkSlimUndici,
  });

// undici's HTTP/1 client requires its HTTP/2 client at load, which requires node:http2
// (with Node's tls and crypto): ~10 ms of every API call, for a client that only an
// `allowH2` connection uses, and merch never asks for one. The HTTP/2 client becomes a
// stand-in that loads it on the first HTTP/2 connection (its code stays in the bundle).
const lazyHttp2ClientForUndici = () =>
  standIn({
    name: 'lazy-http2-client-for-undici',
    pkg: 'undici',
    what: "lib/dispatcher/client.js's `require('./client-h2.js')`",
    specifier: /^\.\/client-h2\.js$/,
    importer: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    contents: "module.exports = function connectH2(...args) { return require('./client-h2.js')(...args); };",
  });

// `import { z } from 'zod'` keeps zod's whole namespace, with its 64 locales (~0.4 MB of
// the bundled zod, loaded by every command that reads an API answer). merch uses only the
// English messages zod registers by default; `z.locales` keeps `en` alone.
const englishOnlyZodLocales = () =>
  standIn({
    name: 'english-only-zod-locales',
    pkg: 'zod',
    what: "its `import '../locales/index.js'`",
    specifier: /^\.\.\/locales\/index\.js$/,
    importer: /[\\/]node_modules[\\/]zod[\\/]/,
    contents: "export { default as en } from '../locales/en.js';",
  });

/** A fresh set of the plugins for one build (each counts its own replacements). */
export function startUpPlugins() {
  return [lazyChildProcessForCommander(), slimUndiciForTheProxy(), lazyHttp2ClientForUndici(), englishOnlyZodLocales()];
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
