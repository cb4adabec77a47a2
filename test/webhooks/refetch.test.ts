import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { JournalEvent } from '../../src/webhooks/event-journal.js';
import { refetch, UnreadableEventError } from '../../src/webhooks/refetch.js';
import { createOrder, requestsDuring, sandboxApi, useSandbox } from '../support/sandbox.js';
import { TOKEN } from '../support/run-merch.js';
import { delivery } from './helpers.js';

// `webhooks listen --refetch`'s domain: from an event's kind to the resource to read again.

const sandbox = useSandbox({ recordRequests: true });
let client: ApiClient | undefined;
afterAll(() => client?.close());

function api(): ApiClient {
  client ??= new ApiClient({ baseUrl: sandbox().url, token: TOKEN, timeoutMs: 10_000, retries: 0, insecure: false });
  return client;
}

function event(kind: string, data: Record<string, unknown>): JournalEvent {
  const { hook } = delivery(kind, data);
  return { id: 1, received_at: new Date().toISOString(), event: kind, hook, data };
}

describe('refetch', () => {
  it("reads an order, a custom product, and a shipping order inside its parent order", async () => {
    const order = await createOrder(sandbox(), 'refetch-1');
    expect(await refetch(api(), event('order.changed', { id: order.id, status: { name: 'Forged' } }))).toStrictEqual((await sandboxApi(sandbox(), `/v1/orders/${order.id}/`)).body);

    const product = (await sandboxApi(sandbox(), '/v1/custom-products/')).body.results[0];
    expect(await refetch(api(), event('custom_product.changed', { id: String(product.id) }))).toMatchObject({ id: product.id });

    const shipping = order.shipping_orders[1];
    const { result, requests } = await requestsDuring(sandbox(), () => refetch(api(), event('shipping_order.changed', { id: shipping.id, order: order.id })));
    expect(result).toMatchObject({ id: shipping.id });
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v1/orders/${order.id}`]);
  });

  it('says why when the delivery names no resource, sending nothing', async () => {
    const cases: [JournalEvent, string, RegExp][] = [
      [event('order.changed', {}), 'no-id', /names no resource id/],
      [event('order.changed', { id: 'abc' }), 'no-id', /names no resource id/],
      [event('shipping_order.changed', { id: 3 }), 'no-parent', /names no parent order/],
      [event('parcel.lost', { id: 3 }), 'unknown-kind', /no way to re-read the resource of a parcel\.lost event/],
    ];
    for (const [unreadable, reason, message] of cases) {
      const { result, requests } = await requestsDuring(sandbox(), () => refetch(api(), unreadable).catch((error: unknown) => error));
      expect(result, reason).toBeInstanceOf(UnreadableEventError);
      expect((result as UnreadableEventError).reason).toBe(reason);
      expect((result as Error).message).toMatch(message);
      expect(requests).toEqual([]);
    }
  });

  it("a shipping order that is not in the order named is unreadable; an id the service does not know is the API's 404", async () => {
    const order = await createOrder(sandbox(), 'refetch-2');
    const notThere = await refetch(api(), event('shipping_order.changed', { id: 99_999_999, order: order.id })).catch((error: unknown) => error);
    expect(notThere).toBeInstanceOf(UnreadableEventError);
    expect((notThere as UnreadableEventError).reason).toBe('not-in-parent');
    const forged = await refetch(api(), event('order.changed', { id: 987_654 })).catch((error: unknown) => error);
    expect(forged).toBeInstanceOf(ApiError);
    expect((forged as ApiError).status).toBe(404);
  });
});
