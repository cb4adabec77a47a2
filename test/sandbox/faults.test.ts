import { describe, expect, it } from 'vitest';
import { startSandbox, type FaultKind } from '../../src/sandbox/index.js';
import { call } from './helpers.js';
import { validOrder } from './order-fixtures.js';

async function withSandbox<T>(faultKinds: FaultKind[], use: (sandbox: Awaited<ReturnType<typeof startSandbox>>) => Promise<T>, rate = 1): Promise<T> {
  const sandbox = await startSandbox({ port: 0, catalog: 20, faults: rate, faultKinds });
  try {
    return await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

/** A valid order request, read from an unfaulted sandbox of the same seed (same ids). */
async function cleanOrderRequest(externalId: string): Promise<unknown> {
  const clean = await startSandbox({ port: 0, catalog: 20 });
  try {
    return { ...(await validOrder(clean)), external_id: externalId };
  } finally {
    await clean.close();
  }
}

const socketError = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code;

describe('fault injection', () => {
  it('answers 503 with a detail', async () => {
    await withSandbox(['status_503'], async (sandbox) => {
      const { status, body } = await call(sandbox, '/v1/supplier-products');
      expect(status).toBe(503);
      expect(body.detail).toEqual(expect.any(String));
      expect(sandbox.requests.at(-1)).toMatchObject({ path: '/v1/supplier-products', status: 503 });
    });
  });

  it('answers 429 with Retry-After', async () => {
    await withSandbox(['status_429'], async (sandbox) => {
      const { status, headers } = await call(sandbox, '/v1/orders');
      expect(status).toBe(429);
      expect(headers.get('retry-after')).toBe('1');
    });
  });

  it('drops the connection before doing the work', async () => {
    const request = await cleanOrderRequest('dropped-0');
    await withSandbox(['drop_before'], async (sandbox) => {
      const error = await call(sandbox, '/v1/orders/', { body: request }).catch((caught: unknown) => caught);
      expect(socketError(error)).toBe('UND_ERR_SOCKET');
      expect(sandbox.requests.at(-1)).toMatchObject({ method: 'POST', status: 0 });
      // No order exists: the test controls (never faulted) find none to emit an event for.
      expect((await call(sandbox, '/_sandbox/events', { body: { event: 'order.created' } })).status).toBe(404);
    });
  });

  it('drops a POST after the work was done, and only POSTs', async () => {
    const request = await cleanOrderRequest('dropped-1');
    await withSandbox(['drop_after'], async (sandbox) => {
      const error = await call(sandbox, '/v1/orders/', { body: request }).catch((caught: unknown) => caught);
      expect(socketError(error)).toBe('UND_ERR_SOCKET');
      const list = await call(sandbox, '/v1/orders?external_id=dropped-1');
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(1);
      expect(sandbox.requests.map((r) => r.status)).toEqual([0, 200]);
    });
  });

  it('fails about the given share of requests, reproducibly for a seed', async () => {
    const statuses = async () =>
      withSandbox(['status_503'], async (sandbox) => {
        const out: number[] = [];
        for (let i = 0; i < 40; i++) out.push((await call(sandbox, '/v1/supplier-products?limit=1')).status);
        return out;
      }, 0.5);
    const first = await statuses();
    const failures = first.filter((status) => status === 503).length;
    expect(failures).toBeGreaterThan(5);
    expect(failures).toBeLessThan(35);
    expect(await statuses()).toEqual(first);
  });

  it('never faults the test controls', async () => {
    await withSandbox(['status_503'], async (sandbox) => {
      expect((await call(sandbox, '/_sandbox/info')).status).toBe(200);
      expect((await call(sandbox, '/_sandbox/reset', { method: 'POST' })).status).toBe(200);
    });
  });

  it('delays responses by the latency', async () => {
    const sandbox = await startSandbox({ port: 0, catalog: 5, latency: 150 });
    try {
      const started = Date.now();
      await call(sandbox, '/v1/supplier-products');
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await sandbox.close();
    }
  });

  it('refuses bad options with a message naming the flag', async () => {
    await expect(startSandbox({ port: 0, faults: 2 })).rejects.toThrow('--faults');
    await expect(startSandbox({ port: 0, faultKinds: ['status_500' as FaultKind] })).rejects.toThrow('--fault-kinds');
    await expect(startSandbox({ port: -1 })).rejects.toThrow('--port');
    await expect(startSandbox({ port: 0, catalog: 0 })).rejects.toThrow('--catalog');
  });
});
