import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { getOrder } from '../../src/api/resources/orders.js';
import { testClient, tinyServer } from './tiny-server.js';

// Issue 40.5: the service's ids are Django's, a BigAutoField's beyond 2^53 included. The
// client reads every answer exactly (src/lib/exact-json.ts), over real HTTP: an id is never
// rounded on its way in, nor on its way back into a path.

/** Answers `text` as it is (raw digits a JSON.parse would round), with `status`. */
function raw(status: number, text: string) {
  return tinyServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(text);
  });
}

const clientFor = (url: string) => testClient({ baseUrl: url, token: 'secret-token', timeoutMs: 2000, retries: 0, insecure: false, retryBaseMs: 1 });

describe('the API client reads ids beyond 2^53 exactly', () => {
  it('an order record: its id, its shipping orders and their parent, exact; text and small numbers as JSON.parse reads them', async () => {
    const text = '{"id":9007199254740993,"external_id":"x-9007199254740993","status":{"id":1,"name":"Received"},"total":{"currency":"USD","amount":1750,"display":"17.50"},"shipping_orders":[{"id":18446744073709551557,"order":9007199254740993,"line_items":[]}],"line_items":[]}';
    const server = await raw(200, text);
    const order = await getOrder(clientFor(server.url), '9007199254740993');
    expect(server.requests[0]!.url).toBe('/v1/orders/9007199254740993');
    expect(order.id).toBe(9007199254740993n);
    expect(order.shipping_orders![0]!.id).toBe(18446744073709551557n);
    expect(order.shipping_orders![0]!.order).toBe(9007199254740993n);
    expect(order.external_id).toBe('x-9007199254740993');
    expect(order.status).toEqual({ id: 1, name: 'Received' });
    expect(order.total).toEqual({ currency: 'USD', amount: 1750, display: '17.50' });
    // What JSON.parse would have made of it: the id the issue saw printed.
    expect((JSON.parse(text) as { id: number }).id).toBe(9007199254740992);
  });

  it("an error's body too: a 409 naming the order keeps its id exact", async () => {
    const server = await raw(409, '{"detail":"An order with this external id exists.","order_id":9007199254740995}');
    const error = await clientFor(server.url).request({ method: 'POST', path: '/v1/orders/', body: { external_id: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).body).toEqual({ detail: 'An order with this external id exists.', order_id: 9007199254740995n });
    expect((error as ApiError).message).toContain('An order with this external id exists.');
  });
});
