import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ORDER_RECORD_TRAITS, type Sandbox } from '../../../src/sandbox/index.js';
import { runMerch, startMerch } from '../../support/run-merch.js';
import { call } from '../../sandbox/helpers.js';
import { validOrder } from '../../sandbox/order-fixtures.js';

// `merch sandbox`'s switches of the service's open choices (issue 28.7), in-process: each
// flag reaches the sandbox, and a bad value is one line naming the flag.

describe('merch sandbox: the switches of the open choices', () => {
  it('passes each flag on to the sandbox it runs', async () => {
    const run = startMerch([
      'sandbox', '--port', '0', '--catalog', '10', '--quiet',
      '--order-records', 'no-external-id, slim-list',
      '--create-answer', 'id',
      '--duplicate-order', 'field',
      '--page-cap', '3',
      '--page-limit-max', '50',
      '--page-count', 'page',
      '--ids-as-strings',
      '--money', 'no-display',
      '--order-filters', 'ignored',
      '--attribute-extras',
    ]);
    try {
      await run.io.written((_out, err) => err.includes('listening on'));
      const sandbox = { url: /listening on (http:\/\/\S+?);/.exec(run.io.errors())![1]! } as Sandbox;
      const request = { ...(await validOrder(sandbox)), external_id: 'flags' };
      request.line_items = request.line_items.map((item: any) => ({ ...item, product: Number(item.product) }));
      const created = await call(sandbox, '/v1/orders/', { body: request });
      expect([created.status, Object.keys(created.body), created.body.id]).toEqual([201, ['id'], expect.stringMatching(/^\d+$/)]);
      const again = await call(sandbox, '/v1/orders/', { body: request });
      expect([again.status, Object.keys(again.body)]).toEqual([400, ['external_id']]);
      const orders = (await call(sandbox, '/v1/orders?external_id=none')).body;
      expect(orders.count).toBe(1);
      expect(orders.results[0]).not.toHaveProperty('external_id');
      expect(orders.results[0]).not.toHaveProperty('line_items');
      const order = (await call(sandbox, `/v1/orders/${created.body.id}`)).body;
      expect(order.total).not.toHaveProperty('display');
      const products = (await call(sandbox, '/v1/supplier-products?limit=5')).body;
      expect([products.count, products.results.length]).toEqual([3, 3]);
      expect((await call(sandbox, '/v1/supplier-products?limit=51')).status).toBe(400);
      const custom = (await call(sandbox, '/v1/custom-products')).body.results[0];
      expect(custom.available_attributes.has_sizes).toEqual(expect.any(Boolean));
    } finally {
      run.interrupt();
    }
    expect((await run.done).code).toBe(0);
  });

  it('--not-authenticated 403 refuses a token it does not take as DRF behind SessionAuthentication; --reset-reused resets a connection\'s second request', async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '10', '--quiet', '--not-authenticated', '403', '--reset-reused']);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await run.io.written((_out, err) => err.includes('listening on'));
      const url = new URL(/listening on (http:\/\/\S+?);/.exec(run.io.errors())![1]!);
      const get = (token: string) =>
        new Promise<{ status: number; challenge: string | undefined; body: string }>((resolve, reject) => {
          const outgoing = request({ host: url.hostname, port: url.port, path: '/v1/orders', agent, headers: { authorization: `Bearer ${token}` } }, (incoming) => {
            let body = '';
            incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
            incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, challenge: incoming.headers['www-authenticate'], body }));
          });
          outgoing.on('error', reject);
          outgoing.end();
        });
      expect(await get('expired-or-unknown')).toEqual({ status: 403, challenge: undefined, body: '{"detail":"Authentication credentials were not provided."}' });
      // The same kept connection, again: reset unanswered.
      await expect(get('sandbox-token')).rejects.toMatchObject({ code: 'ECONNRESET' });
      // A new connection is answered.
      expect((await get('sandbox-token')).status).toBe(200);
    } finally {
      agent.destroy();
      run.interrupt();
    }
    expect((await run.done).code).toBe(0);
  });

  it('refuses a bad value with one line naming the flag (and the allowed values), exit 2, nothing started', async () => {
    for (const [flags, message] of [
      [['--order-records', 'bogus'], `error: --order-records must list some of: ${ORDER_RECORD_TRAITS.join(', ')} (got "bogus").`],
      [['--order-records', 'no-shipping-orders,shipping-orders-absent'], 'error: --order-records must not name both no-shipping-orders and shipping-orders-absent.'],
      [['--page-cap', 'many'], 'error: --page-cap must be an integer from 1 to 10000.'],
      [['--page-limit-max', '0'], 'error: --page-limit-max must be an integer from 1 to 10000.'],
      [['--fault-kinds', 'status_500_after,boom'], 'error: --fault-kinds must list some of: status_503, status_429, drop_before, drop_after, status_500_after (got "status_500_after,boom").'],
    ] as const) {
      const result = await runMerch(['sandbox', '--port', '0', ...flags]);
      expect(result.code, flags.join(' ')).toBe(2);
      expect(result.stderr.trim()).toBe(message);
      expect(result.stderr).not.toContain('listening on');
    }
    for (const flag of ['--create-answer', '--money', '--page-count', '--order-filters', '--duplicate-order', '--not-authenticated']) {
      const result = await runMerch(['sandbox', '--port', '0', flag, 'bogus']);
      expect(result.code, flag).toBe(2);
      expect(result.stderr).toContain(flag);
      expect(result.stderr).toContain('Allowed choices are');
    }
  });
});
