import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/sandbox/run.js';
import { waitFor } from './listener.js';

const defaults = { host: '127.0.0.1', port: 0, seed: 1, catalog: 10, faults: 0, latency: 0, quiet: false };

describe('merch sandbox (run)', () => {
  it('prints the banner, logs requests and stops on SIGTERM', async () => {
    const stderr = new PassThrough();
    let output = '';
    stderr.on('data', (chunk) => (output += chunk));
    const running = run(defaults, { stderr });
    await waitFor(() => output.includes('listening on'));
    const banner = output.split('\n')[0]!;
    expect(banner).toContain('sandbox-token (acme)');
    expect(banner).toContain('sandbox-token-2 (globex)');
    expect(banner).toContain('sandbox-design-key');
    const url = /listening on (http:\/\/\S+?);/.exec(banner)![1]!;
    const response = await fetch(`${url}/v1/supplier-products?limit=1`, { headers: { authorization: 'Bearer sandbox-token' } });
    expect(response.status).toBe(200);
    await waitFor(() => /GET \/v1\/supplier-products 200 \d+ms/.test(output));
    process.emit('SIGTERM');
    await running;
    expect(output).toContain('stopped');
    await expect(fetch(`${url}/_sandbox/info`)).rejects.toThrow();
  });

  it('refuses bad flags with a one-line message naming the flag', async () => {
    const io = { stderr: new PassThrough() };
    await expect(run({ ...defaults, faults: 1.5 }, io)).rejects.toThrow(/^--faults must be/);
    await expect(run({ ...defaults, faultKinds: 'status_503,boom' }, io)).rejects.toThrow(/^--fault-kinds must list/);
    await expect(run({ ...defaults, latency: Number.NaN }, io)).rejects.toThrow(/^--latency must be/);
  });
});
