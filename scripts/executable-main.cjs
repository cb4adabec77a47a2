// The main script of the single executable (release/merch-linux-x64, built by
// scripts/build-exe.mjs): a Node single executable application runs one CommonJS script.
// `--version` and `--help` alone are answered from the text the build embedded here
// (MERCH_VERSION, MERCH_HELP), without loading the CLI, as bin/merch.js does. Anything
// else loads the CLI from the executable's assets: the bundle's files (main.js and
// chunks/), each compiled when first required, so a command loads only its own chunks, as
// from dist/. They require one another by relative path, and Node's built-in modules,
// which are all the executable's own require() can load.
const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${MERCH_VERSION}\n`);
} else if (only === '--help' || only === '-h') {
  process.stdout.write(MERCH_HELP);
} else {
  const { getAsset } = require('node:sea');
  const { compileFunction } = require('node:vm');
  const { posix } = require('node:path');
  const loaded = new Map();
  const load = (file) => {
    let module = loaded.get(file);
    if (!module) {
      module = { exports: {} };
      loaded.set(file, module);
      const requireFromFile = (id) => (id.startsWith('.') ? load(posix.join(posix.dirname(file), id)) : require(id));
      compileFunction(getAsset(file, 'utf8'), ['exports', 'require', 'module'], { filename: file })(module.exports, requireFromFile, module);
    }
    return module.exports;
  };
  const { main, processStreams, processInterrupts } = load('main.js');
  main(args, { io: processStreams(), env: process.env, interrupts: processInterrupts() }).then((code) => {
    process.exitCode = code;
  });
}
