// Start-up: `merch --version` and `merch --help` against `node -e 0`, wall time from spawn
// to exit, interleaved. Nothing is sent over the network.
import { interleave, median, merchBin, row, runNode } from './lib/measure.mjs';

export const GOAL = 1.15;

export async function run({ quick = false } = {}) {
  const runs = quick ? 5 : 40;
  const env = { ...process.env, NO_COLOR: '1' };
  const results = await interleave(
    { baseline: ['-e', '0'], version: [merchBin(), '--version'], help: [merchBin(), '--help'] },
    runs,
    (args) => runNode(args, { env }).then((r) => r.wallMs),
    { warmup: 2 },
  );
  const baseline = median(results.baseline);
  return ['version', 'help'].map((name) => {
    const value = median(results[name]);
    return row({
      name: `merch --${name} (start-up)`,
      value,
      baseline,
      unit: 'ms',
      goal: `<= ${GOAL}x node -e 0`,
      pass: value / baseline <= GOAL,
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
