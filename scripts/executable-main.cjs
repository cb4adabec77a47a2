// The main script of the single executable (release/merch-linux-x64, built by
// scripts/build-exe.mjs): a Node single executable application runs one CommonJS script.
// `--version` and `--help` alone are answered from the text the build embedded here
// (MERCH_VERSION, MERCH_HELP), without loading the CLI, as bin/merch.js does. Anything
// else compiles the CLI's bundle, kept in the executable as the asset merch.cjs, and runs
// it. The bundle requires Node's built-in modules only (everything else is in it), which
// is all the executable's require() can load.
const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${MERCH_VERSION}\n`);
} else if (only === '--help' || only === '-h') {
  process.stdout.write(MERCH_HELP);
} else {
  const { getAsset } = require('node:sea');
  const { compileFunction } = require('node:vm');
  const bundle = { exports: {} };
  compileFunction(getAsset('merch.cjs', 'utf8'), ['exports', 'require', 'module'], { filename: 'merch.cjs' })(bundle.exports, require, bundle);
  const { main, processStreams, processInterrupts } = bundle.exports;
  main(args, { io: processStreams(), env: process.env, interrupts: processInterrupts() }).then((code) => {
    process.exitCode = code;
  });
}
