// How the single executable loads the CLI's files (the bundle's main.js and chunks/, kept
// as CommonJS assets): each compiled when first required, with the V8 code cache the build
// made for it when there is one (scripts/code-cache.mjs makes it on the build machine, for
// the executable of that machine's own platform only). A cache V8 rejects (another V8, other
// flags) is ignored, and the file compiled from its source. Shared by the executable's main
// script (scripts/executable-main.cjs) and the build step that makes the cache, which runs
// the CLI through this same loader and asks V8 for the cache of every file it loaded.
const { Script } = require('node:vm');
const { posix } = require('node:path');

/**
 * A require() for the CLI's files: `source(file)` gives a file's code, `cachedData(file)` its
 * code cache or undefined; `builtin` is the require() of Node's built-in modules.
 */
function seaLoader({ source, cachedData, builtin }) {
  const loaded = new Map();
  const scripts = new Map();
  const load = (file) => {
    let module = loaded.get(file);
    if (!module) {
      module = { exports: {} };
      loaded.set(file, module);
      const requireFromFile = (id) => (id.startsWith('.') ? load(posix.join(posix.dirname(file), id)) : builtin(id));
      const script = new Script(`(function (exports, require, module) {${source(file)}\n})`, { filename: file, cachedData: cachedData(file) });
      scripts.set(file, script);
      script.runInThisContext()(module.exports, requireFromFile, module);
    }
    return module.exports;
  };
  return { load, scripts };
}

module.exports = { seaLoader };
