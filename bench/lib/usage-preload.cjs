// Loaded with `node --require` by bench/lib/measure.mjs: at exit, writes this process's
// resourceUsage() (maxRSS in KB, user/system CPU in µs) to $MERCH_BENCH_USAGE_FILE.
'use strict';
const file = process.env.MERCH_BENCH_USAGE_FILE;
delete process.env.MERCH_BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    require('node:fs').writeFileSync(file, JSON.stringify(process.resourceUsage()));
  });
}
