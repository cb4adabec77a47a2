import { describe, expect, it } from 'vitest';
import { runMerch, startMerch } from '../support/run-merch.js';
import { waitFor } from '../support/wait-for.js';

describe('merch sandbox (the command, in-process)', () => {
  it('prints the banner, logs requests and stops when interrupted', async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '10']);
    await run.io.written((_out, err) => err.includes('listening on'));
    const banner = run.io.errors().split('\n')[0]!;
    expect(banner).toContain('sandbox-token (acme)');
    expect(banner).toContain('sandbox-token-2 (globex)');
    expect(banner).toContain('sandbox-design-key');
    const url = /listening on (http:\/\/\S+?);/.exec(banner)![1]!;
    const response = await fetch(`${url}/v1/supplier-products?limit=1`, { headers: { authorization: 'Bearer sandbox-token' } });
    expect(response.status).toBe(200);
    await waitFor(() => /GET \/v1\/supplier-products 200 \d+ms/.test(run.io.errors()), 'the request logged');
    run.interrupt();
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('stopped');
    await expect(fetch(`${url}/_sandbox/info`)).rejects.toThrow();
  });

  it('refuses bad flags with a one-line message naming the flag', async () => {
    for (const [flags, message] of [
      [['--faults', '1.5'], /^error: --faults must be/m],
      [['--fault-kinds', 'status_503,boom'], /^error: --fault-kinds must list/m],
      [['--latency', 'NaN'], /^error: --latency must be/m],
    ] as const) {
      const result = await runMerch(['sandbox', '--port', '0', ...flags]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain('listening on');
    }
  });
});
