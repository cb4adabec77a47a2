import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runMerch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';

// A server of merch's own that cannot listen says why, naming the flag (issue 30.11): not
// only "run again with --verbose".

const sandbox = useSandbox();
let busy: Server | undefined;
afterEach(() => busy?.close());

async function busyPort(): Promise<number> {
  busy = createServer();
  await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve));
  return (busy.address() as AddressInfo).port;
}

describe('a port in use', () => {
  it.each([[['sandbox', '--quiet']], [['webhooks', 'listen']]])('%j: names the port and --port, exit 1', async (command) => {
    const port = await busyPort();
    const result = await runMerch([...command, '--port', String(port)], { env: cliEnv(sandbox().url) });
    expect(result).toEqual({ code: 1, stdout: '', stderr: `error: --port ${port}: the port is in use on 127.0.0.1\nhint: pass --port 0 for any free port, or another --port\n` });
  });
});

describe('an address this machine does not have', () => {
  it('sandbox --host: names --host, exit 2', async () => {
    const result = await runMerch(['sandbox', '--quiet', '--port', '0', '--host', '192.0.2.1'], { env: cliEnv(sandbox().url) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --host 192.0.2.1: not an address of this machine\nhint: pass --host 127.0.0.1, or an address this machine has\n');
  });
});
