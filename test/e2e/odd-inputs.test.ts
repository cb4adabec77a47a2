import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, collect, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// Issue 41.6, the process as its subject: `--recipients` on a FIFO with no writer hung,
// ignoring SIGTERM and two SIGINTs (the open waited in a thread of Node's pool, where no
// signal reaches it and from which the process cannot even exit); `--file -` fed by
// /dev/zero grew until Ctrl-C. Both now end at once, exit 2, with one line naming the flag.

const sandbox = useSandbox();

/** bin/merch.js with `stdin` as its standard input; killed when the test ends, if it still runs. */
function run(args: string[], stdin: 'ignore' | number = 'ignore') {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(sandbox().url), stdio: [stdin, 'pipe', 'pipe'] });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const started = Date.now();
  return collect(child).then((result) => ({ ...result, ms: Date.now() - started }));
}

describe('odd inputs end (the real process)', () => {
  it('--recipients naming a FIFO nobody writes to: exit 2 at once, naming the flag', async () => {
    const fifo = join(tempDir('merch-odd-'), 'list.csv');
    execFileSync('mkfifo', [fifo]);
    const result = await run(['orders', 'create', '--product', '100003', '--recipients', fifo, '--dry-run']);
    expect([result.code, result.stderr]).toEqual([2, `error: --recipients: ${fifo} is a FIFO (named pipe), not a regular file\n`]);
    expect(result.ms).toBeLessThan(15_000);
  }, 30_000);

  it('--file - fed by /dev/zero: stops at 64 MiB, exit 2', async () => {
    const zero = openSync('/dev/zero', 'r');
    onTestFinished(() => closeSync(zero));
    const result = await run(['orders', 'create', '--file', '-', '--dry-run'], zero);
    expect([result.code, result.stderr.split('\n')[0]]).toEqual([2, "error: --file -: standard input holds more than 64 MiB; an order's JSON body is far smaller"]);
  }, 30_000);
});
