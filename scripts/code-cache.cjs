// Makes the V8 code cache of the CLI's files for the single executable of the build
// machine's own platform (scripts/build-exe.mjs runs this with that executable's Node):
// runs the CLI once through the executable's own loader (scripts/sea-loader.cjs), then
// writes, for every file it loaded, what V8 compiled of it, functions compiled while it
// ran included.
//   node scripts/code-cache.cjs CJS_DIR OUT_DIR -- ARGS...
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { seaLoader } = require('./sea-loader.cjs');

const [dir, out, , ...args] = process.argv.slice(2);
const { load, scripts } = seaLoader({ source: (file) => readFileSync(join(dir, file), 'utf8'), cachedData: () => undefined, builtin: require });
const { main, processStreams, processInterrupts } = load('main.js');
main(args, { io: processStreams(), env: process.env, interrupts: processInterrupts() }).then((code) => {
  for (const [file, script] of scripts) {
    const target = join(out, `${file}.cache`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, script.createCachedData());
  }
  process.exitCode = code;
});
