import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { recipientLists } from '../commands/orders/create/recipient-lists.js';
import { BIN, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// orders create --recipients --batch-size killed between batches: the real process, since
// SIGKILL is the subject. The list's other cases run in-process
// (test/commands/orders/create/batches.test.ts).

const sandbox = useSandbox();
const { lines, csvFile, args, on, results, ordersOf, parcelsOf, runIdOf, expectResultsMatchService } = recipientLists(sandbox);

describe('orders create --batch-size, killed', () => {
  it('killed between batches (SIGKILL), a rerun of the same command still makes exactly 3 orders and a complete results file', async () => {
    const csv = csvFile(lines('K', 1, 25));
    const dir = tempDir();
    const out = join(dir, 'results.csv');
    const child = spawn(process.execPath, [BIN, ...args(csv, '--batch-size', '10', '--results', out)], { cwd: ROOT, env: cliEnv(sandbox().url, { MERCH_CONFIG_DIR: dir }), stdio: ['ignore', 'ignore', 'pipe'] });
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/batch 1 \(.*\): created/.test(stderr)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`exited before its first batch: ${stderr}`)));
    });
    const runId = runIdOf(stderr);
    // --force: the killed run's partial results file is there, and the rerun rewrites it whole.
    const rerun = await on(dir, args(csv, '--batch-size', '10', '--results', out, '--force'));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((await ordersOf(runId)).map((o) => o.shipping_orders.length)).toEqual([10, 10, 5]);
    await expectResultsMatchService(out, 'K', 25, (guest) => (guest <= 10 ? 'existing' : results(out).find((l) => Number(l.row) === guest + 1)!.status));
    expect(Object.values(await parcelsOf(runId)).every((n) => n === 1)).toBe(true);
  }, 60_000);
});
