import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverySchema } from '../../src/contract/delivery.js';
import { useSandbox } from '../support/sandbox.js';
import { call, GLOBEX } from './helpers.js';
import { waitFor } from '../support/wait-for.js';
import { startListener } from './listener.js';
import { validOrder } from './order-fixtures.js';

const sandbox = useSandbox({ eventDelayMs: 100, deliveryRetryBaseMs: 50 });
let listener: Awaited<ReturnType<typeof startListener>>;

beforeAll(async () => {
  listener = await startListener(['/flaky']);
});
afterAll(async () => {
  await listener.close();
});

const subscribe = (event: string, path: string, token?: string) =>
  call(sandbox(), '/v1/core/webhooks/', { body: { event, target: `${listener.url}${path}` }, token });

const receivedAt = (path: string) => listener.received.filter((delivery) => delivery.path === path);

describe('webhook subscriptions', () => {
  it('creates, lists and deletes subscriptions of the account', async () => {
    const created = await subscribe('custom_product.changed', '/unused');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), event: 'custom_product.changed', target: `${listener.url}/unused`, is_active: true, account: 'acme' });
    const list = await call(sandbox(), '/v1/core/webhooks/');
    expect(list.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(list.body.results[0].id).toBe(created.body.id);
    expect((await call(sandbox(), '/v1/core/webhooks/', { token: GLOBEX })).body.count).toBe(0);
    expect((await call(sandbox(), `/v1/core/webhooks/${created.body.id}/`, { method: 'DELETE', token: GLOBEX })).status).toBe(404);
    expect((await call(sandbox(), `/v1/core/webhooks/${created.body.id}/`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(sandbox(), `/v1/core/webhooks/${created.body.id}/`, { method: 'DELETE' })).status).toBe(404);
    expect((await call(sandbox(), '/v1/core/webhooks/')).body.count).toBe(0);
  });

  it('validates the event kind and the target URL', async () => {
    const badEvent = await call(sandbox(), '/v1/core/webhooks/', { body: { event: 'order.deleted', target: 'http://x.test/' } });
    expect(badEvent.status).toBe(400);
    expect(Object.keys(badEvent.body)).toEqual(['event']);
    const badTarget = await call(sandbox(), '/v1/core/webhooks/', { body: { event: 'order.created', target: 'ftp://x.test/' } });
    expect(badTarget.status).toBe(400);
    expect(Object.keys(badTarget.body)).toEqual(['target']);
  });
});

describe('deliveries', () => {
  it('delivers the order events of a new order, then order.changed when it is paid', async () => {
    await subscribe('order.created', '/orders');
    await subscribe('order.changed', '/orders');
    await subscribe('shipping_order.changed', '/shipping');
    await subscribe('order.created', '/globex', GLOBEX);
    const { body: order } = await call(sandbox(), '/v1/orders/', { body: await validOrder(sandbox()) });
    await waitFor(() => receivedAt('/orders').length >= 3 && receivedAt('/shipping').length >= 2);
    const events = receivedAt('/orders').map((delivery) => [delivery.body.hook.event, delivery.body.data.status.name]);
    expect(events).toEqual([
      ['order.created', 'Pending'],
      ['order.changed', 'Pending'],
      ['order.changed', 'In Production'],
    ]);
    for (const delivery of listener.received) expect(deliverySchema.safeParse(delivery.body).success).toBe(true);
    expect(receivedAt('/orders')[0]!.body.data.id).toBe(order.id);
    expect(receivedAt('/orders')[0]!.body.hook.target).toBe(`${listener.url}/orders`);
    expect(receivedAt('/shipping').map((delivery) => delivery.body.data.id).sort()).toEqual(order.shipping_orders.map((s: any) => s.id).sort());
    expect(receivedAt('/globex')).toEqual([]);
  });

  it('retries a delivery that got a 500', async () => {
    await subscribe('shipping_order.scheduled', '/flaky');
    const order = (await call(sandbox(), '/v1/orders')).body.results[0];
    const advanced = await call(sandbox(), `/_sandbox/shipping-orders/${order.shipping_orders[0].id}/advance`, { method: 'POST' });
    expect(advanced.body.status).toEqual({ id: 2, name: 'Scheduled' });
    await waitFor(() => receivedAt('/flaky').length >= 2);
    const [first, second] = receivedAt('/flaky');
    expect([first!.attempt, second!.attempt]).toEqual(['1', '2']);
    expect(second!.body).toEqual(first!.body);
    expect(first!.body.data.id).toBe(order.shipping_orders[0].id);
  });
});

describe('test controls', () => {
  it('advances an order through its statuses, emitting order.changed, until Delivered', async () => {
    const order = (await call(sandbox(), '/v1/orders')).body.results[0];
    const before = receivedAt('/orders').length;
    const names: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { status, body } = await call(sandbox(), `/_sandbox/orders/${order.id}/advance`, { method: 'POST' });
      expect(status).toBe(200);
      names.push(body.status.name);
    }
    expect(names).toEqual(['Shipped', 'Delivered']);
    expect((await call(sandbox(), `/_sandbox/orders/${order.id}/advance`, { method: 'POST' })).status).toBe(409);
    await waitFor(() => receivedAt('/orders').length >= before + 2);
    expect(receivedAt('/orders').slice(before).map((d) => d.body.data.status.name)).toEqual(['Shipped', 'Delivered']);
    expect((await call(sandbox(), `/_sandbox/orders/${order.id}/advance`, { method: 'POST', token: GLOBEX })).status).toBe(404);
  });

  it('ships a shipping order with a tracking number, then delivers it', async () => {
    const order = (await call(sandbox(), '/v1/orders')).body.results[0];
    const id = order.shipping_orders[0].id;
    const shipped = await call(sandbox(), `/_sandbox/shipping-orders/${id}/advance`, { method: 'POST' });
    expect(shipped.body).toMatchObject({ status: { id: 3, name: 'Shipped' }, tracking_number: expect.any(String), tracking_url: expect.stringMatching(/^https:\/\//) });
    const delivered = await call(sandbox(), `/_sandbox/shipping-orders/${id}/advance`, { method: 'POST' });
    expect(delivered.body.status).toEqual({ id: 4, name: 'Delivered' });
    expect((await call(sandbox(), `/_sandbox/shipping-orders/${id}/advance`, { method: 'POST' })).status).toBe(409);
    const stored = await call(sandbox(), `/v1/orders/${order.id}`);
    expect(stored.body.shipping_orders[0].tracking_number).toBe(shipped.body.tracking_number);
  });

  it('emits a named event for the newest or a given resource', async () => {
    const order = (await call(sandbox(), '/v1/orders')).body.results[0];
    const before = receivedAt('/orders').length;
    const emitted = await call(sandbox(), '/_sandbox/events', { body: { event: 'order.created' } });
    expect(emitted.body).toEqual({ event: 'order.created', resource_id: order.id, subscriptions: 1 });
    await waitFor(() => receivedAt('/orders').length > before);
    expect(receivedAt('/orders').at(-1)!.body.hook.event).toBe('order.created');
    const product = await call(sandbox(), '/_sandbox/events', { body: { event: 'custom_product.changed', id: 100002 } });
    expect(product.body).toEqual({ event: 'custom_product.changed', resource_id: 100002, subscriptions: 0 });
    expect((await call(sandbox(), '/_sandbox/events', { body: { event: 'custom_product.changed', id: 100002 }, token: GLOBEX })).status).toBe(404);
    expect((await call(sandbox(), '/_sandbox/events', { body: { event: 'order.changed' }, token: GLOBEX })).status).toBe(404);
    expect((await call(sandbox(), '/_sandbox/events', { body: { event: 'order.gone' } })).status).toBe(400);
  });

  it('records service requests but not test controls', async () => {
    const paths = sandbox().requests.map((request) => request.path);
    expect(paths).toContain('/v1/orders/');
    expect(paths.some((path) => path.startsWith('/_sandbox'))).toBe(false);
    expect(sandbox().requests.find((request) => request.method === 'POST' && request.path === '/v1/orders/')).toMatchObject({ account: 'acme', status: 201 });
  });

  it('resets the state to the seed', async () => {
    await call(sandbox(), '/_sandbox/reset', { method: 'POST' });
    expect((await call(sandbox(), '/v1/orders')).body.count).toBe(0);
    expect((await call(sandbox(), '/v1/core/webhooks/')).body.count).toBe(0);
    expect((await call(sandbox(), '/v1/custom-products')).body.count).toBe(5);
  });
});
