#!/usr/bin/env node
// `merch --version` alone is answered here, without loading the CLI: it is the call scripts
// make most, and loading commander and the command table cost ~10 ms on top of Node's own
// start-up (npm run bench, start-up rows). The version is package.json's, as in the bundle.
// `merch --help` alone prints the top-level help that the build rendered with commander
// (dist/help.txt), for the same reason.
const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
if (only === '--version' || only === '-V') {
  const { readFileSync } = process.getBuiltinModule('node:fs'); // no ESM wrapper to build
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (only === '--help' || only === '-h') {
  process.stdout.write(process.getBuiltinModule('node:fs').readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8'));
} else {
  const { main, processStreams, processInterrupts } = await import('../dist/main.js');
  process.exitCode = await main(args, { io: processStreams(), env: process.env, interrupts: processInterrupts() });
}
