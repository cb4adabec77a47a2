// The main script of the single executables (release/merch-<target>, built by
// scripts/build-exe.mjs): a Node single executable application runs one CommonJS script.
// `--version` and `--help` alone are answered from the text the build embedded here
// (MERCH_VERSION, MERCH_HELP), without loading the CLI, as bin/merch.js does. Anything
// else loads the CLI from the executable's assets (scripts/sea-loader.cjs): the bundle's
// files, each compiled when first required, so a command loads only its own chunks, as
// from dist/. They require one another by relative path, and Node's built-in modules,
// which are all the executable's own require() can load.
const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${MERCH_VERSION}\n`);
} else if (only === '--help' || only === '-h') {
  process.stdout.write(MERCH_HELP);
} else {
  const { getAsset, getAssetKeys } = require('node:sea');
  const { seaLoader } = require('./sea-loader.cjs');
  const caches = new Set(getAssetKeys?.() ?? []);
  const { load } = seaLoader({
    source: (file) => getAsset(file, 'utf8'),
    cachedData: (file) => (caches.has(`${file}.cache`) ? Buffer.from(getAsset(`${file}.cache`)) : undefined),
    builtin: require,
  });
  const { main, processStreams, processInterrupts } = load('main.js');
  main(args, { io: processStreams(), env: process.env, interrupts: processInterrupts() }).then((code) => {
    process.exitCode = code;
  });
}
