import { describe, expect, it } from 'vitest';
import { runMerch, startMerch } from '../../support/run-merch.js';
import { waitFor } from '../../support/wait-for.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { call } from '../../sandbox/helpers.js';
import { validOrder } from '../../sandbox/order-fixtures.js';

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

  it('answers a reused external_id with 409 naming the order under --duplicate-order 409', async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '10', '--quiet', '--duplicate-order', '409']);
    await run.io.written((_out, err) => err.includes('listening on'));
    const url = /listening on (http:\/\/\S+?);/.exec(run.io.errors())![1]!;
    const sandbox = { url } as Sandbox;
    const request = { ...(await validOrder(sandbox)), external_id: 'again' };
    const first = await call(sandbox, '/v1/orders/', { body: request });
    expect(first.status).toBe(201);
    const second = await call(sandbox, '/v1/orders/', { body: request });
    expect([second.status, second.body.order_id]).toEqual([409, first.body.id]);
    run.interrupt();
    expect((await run.done).code).toBe(0);
  });

  it('bound to every interface (--host 0.0.0.0): the banner says so, a warning on stderr; a foreign Host is 421 (issue 41.7)', async () => {
    const run = startMerch(['sandbox', '--host', '0.0.0.0', '--port', '0', '--catalog', '10', '--quiet']);
    await run.io.written((_out, err) => err.includes('warning:'));
    const [banner] = run.io.errors().split('\n');
    const [, port, url] = /^merch sandbox listening on 0\.0\.0\.0:(\d+) \(every interface; from this machine (http:\/\/127\.0\.0\.1:\d+)\); tokens: /.exec(banner!)!;
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(run.io.errors()).toContain(`warning: the sandbox listens on every interface, not only on loopback: any machine that reaches port ${port} can use it`);
    expect((await fetch(`${url}/v1/supplier-products?limit=1`, { headers: { authorization: 'Bearer sandbox-token' } })).status).toBe(200);
    // A name that is not this machine's (a page of another site whose name was made to resolve here): 421.
    const { request } = await import('node:http');
    const rebound = await new Promise<number>((resolve, reject) => {
      const sent = request(`${url}/v1/supplier-products?limit=1`, { headers: { host: `rebound.example:${port}`, authorization: 'Bearer sandbox-token' } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(rebound).toBe(421);
    run.interrupt();
    expect((await run.done).code).toBe(0);
  });

  it('on loopback (the default), no warning', async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '10', '--quiet']);
    await run.io.written((_out, err) => err.includes('listening on'));
    run.interrupt();
    const result = await run.done;
    expect(result.stderr).toMatch(/^merch sandbox listening on http:\/\/127\.0\.0\.1:\d+; /);
    expect(result.stderr).not.toContain('warning');
  });

  it('--allow-host NAME: requests naming it are answered, on any port', async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '10', '--quiet', '--allow-host', 'tunnel.example']);
    await run.io.written((_out, err) => err.includes('listening on'));
    const url = /listening on (http:\/\/\S+?);/.exec(run.io.errors())![1]!;
    const { request } = await import('node:http');
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = request(`${url}/_sandbox/info`, { headers: { host } }, (response) => {
          response.resume();
          resolve(response.statusCode!);
        });
        sent.on('error', reject);
        sent.end();
      });
    expect([await status('tunnel.example:443'), await status('other.example:443')]).toEqual([200, 421]);
    run.interrupt();
    expect((await run.done).code).toBe(0);
  });

  it('refuses bad flags with a one-line message naming the flag', async () => {
    for (const [flags, message] of [
      [['--duplicate-order', 'sometimes'], /--duplicate-order/],
      [['--faults', '1.5'], /^error: option '--faults <rate>' argument '1\.5' is invalid\. expected a number from 0 to 1/m],
      [['--fault-kinds', 'status_503,boom'], /^error: --fault-kinds must list/m],
      [['--latency', 'NaN'], /^error: option '--latency <duration>' argument 'NaN' is invalid\. expected a duration in ms/m],
      [['--latency', '2m'], /^error: option '--latency <duration>' argument '2m' is invalid\. expected a duration of at most 1m/m],
      [['--allow-host', 'tunnel.example:443'], /^error: --allow-host must be a host name or address, without a port/m],
    ] as const) {
      const result = await runMerch(['sandbox', '--port', '0', ...flags]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain('listening on');
    }
  });
});
