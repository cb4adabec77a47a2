#!/usr/bin/env node
// `merch --version` alone is answered here, without loading the CLI: it is the call scripts
// make most, and loading commander and the command table cost ~10 ms on top of Node's own
// start-up (npm run bench, start-up rows). The version is package.json's, as in the bundle.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = process.getBuiltinModule('node:fs'); // no ESM wrapper to build
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const { main } = await import('../dist/main.js');
  process.exitCode = await main(args);
}
