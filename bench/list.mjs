// `merch products list --json` against a sandbox already running (a child process), as a
// user runs it: no token set, so the CLI sends the sandbox's public token once it knows the
// server is a sandbox (the probe's answer is remembered in the config dir: one request per
// run, checked below). The baseline: a minimal script doing the same GET with built-in
// fetch and printing the body. Wall time from spawn to exit, interleaved.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleave, median, merchBin, row, runNode } from './lib/measure.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

export const GOAL = 1.2;
const FETCH_ONE = fileURLToPath(new URL('./lib/fetch-one.mjs', import.meta.url));

export async function run({ quick = false } = {}) {
  const runs = quick ? 5 : 30;
  const sandbox = await startSandboxProcess();
  const configDir = mkdtempSync(join(tmpdir(), 'merch-bench-list-'));
  const { MERCH_TOKEN: _token, ...withoutToken } = sandbox.env;
  const merchEnv = { ...withoutToken, MERCH_CONFIG_DIR: configDir };
  try {
    const results = await interleave(
      { baseline: [FETCH_ONE, `${sandbox.url}/v1/supplier-products`], merch: [merchBin(), 'products', 'list', '--json'] },
      runs,
      async (args) => {
        const r = await runNode(args, { env: args[0] === FETCH_ONE ? sandbox.env : merchEnv, keepStdout: true });
        const records = JSON.parse(r.stdout);
        if ((Array.isArray(records) ? records : records.results).length !== 20) throw new Error(`expected 20 records from ${args.join(' ')}`);
        return r.wallMs;
      },
      { warmup: 2 },
    );
    const value = median(results.merch);
    const baseline = median(results.baseline);
    // Measured as one request: the probe's answer was remembered by the first (warm-up) run.
    const traced = await runNode([merchBin(), 'products', 'list', '--json', '--verbose'], { env: merchEnv, keepStdout: true });
    const requests = (traced.stderr.match(/^> GET /gm) ?? []).length;
    if (requests !== 1) throw new Error(`merch products list sent ${requests} requests, not 1:\n${traced.stderr}`);
    return [
      row({
        name: 'merch products list --json (one page of 20)',
        value,
        baseline,
        unit: 'ms',
        goal: `<= ${GOAL}x fetch script`,
        pass: value / baseline <= GOAL,
        note: 'no token set: the sandbox probe remembered, one request',
      }),
    ];
  } finally {
    await sandbox.stop();
    rmSync(configDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await run({ quick: process.argv.includes('--quick') }), null, 1));
