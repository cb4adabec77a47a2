// `merch products list --json` against a sandbox already running (a child process), and the
// baseline: a minimal script doing the same GET with built-in fetch and printing the body.
// Wall time from spawn to exit, interleaved.
import { fileURLToPath } from 'node:url';
import { interleave, median, merchBin, row, runNode } from './lib/measure.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

export const GOAL = 1.4;
const FETCH_ONE = fileURLToPath(new URL('./lib/fetch-one.mjs', import.meta.url));

export async function run({ quick = false } = {}) {
  const runs = quick ? 5 : 30;
  const sandbox = await startSandboxProcess();
  try {
    const results = await interleave(
      { baseline: [FETCH_ONE, `${sandbox.url}/v1/supplier-products`], merch: [merchBin(), 'products', 'list', '--json'] },
      runs,
      async (args) => {
        const r = await runNode(args, { env: sandbox.env, keepStdout: true });
        const records = JSON.parse(r.stdout);
        if ((Array.isArray(records) ? records : records.results).length !== 20) throw new Error(`expected 20 records from ${args.join(' ')}`);
        return r.wallMs;
      },
      { warmup: 2 },
    );
    const value = median(results.merch);
    const baseline = median(results.baseline);
    return [
      row({
        name: 'merch products list --json (one page of 20)',
        value,
        baseline,
        unit: 'ms',
        goal: `<= ${GOAL}x fetch script`,
        pass: value / baseline <= GOAL,
      }),
    ];
  } finally {
    await sandbox.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
