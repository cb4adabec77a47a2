import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { call } from '../../sandbox/helpers.js';
import { runMerch, startMerch } from '../../support/run-merch.js';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait-for.js';
import { startListener } from '../../sandbox/listener.js';
import { validOrder } from '../../sandbox/order-fixtures.js';

// `--lifecycle SECONDS`: each new order moves on by itself, one stage per step, with its
// events; test controls cancel an order and deliver a stale event on purpose.

const sandbox = useSandbox({ lifecycleSeconds: 0.05, deliveryRetryBaseMs: 50 });

async function subscribeAll(url: string): Promise<void> {
  for (const event of ['order.changed', 'shipping_order.changed', 'shipping_order.scheduled']) {
    expect((await call(sandbox(), '/v1/core/webhooks/', { body: { event, target: `${url}/${event}` } })).status).toBe(201);
  }
}

describe('sandbox --lifecycle', () => {
  it('moves a new order through In Production, Scheduled, Shipped (with tracking) and Delivered, emitting each change', async () => {
    const listener = await startListener();
    try {
      await subscribeAll(listener.url);
      const order = (await call(sandbox(), '/v1/orders/', { body: await validOrder(sandbox()) })).body;
      const current = async () => (await call(sandbox(), `/v1/orders/${order.id}`)).body;
      await waitFor(() => listener.received.some((d) => d.path === '/order.changed' && d.body.data.id === order.id && d.body.data.status.name === 'Delivered'), 'the order delivered');
      const delivered = await current();
      expect(delivered.status.name).toBe('Delivered');
      for (const shipping of delivered.shipping_orders) {
        expect(shipping.status.name).toBe('Delivered');
        expect(shipping.tracking_number).toMatch(/^1ZSBX\d{10}$/);
        expect(shipping.tracking_url).toContain(shipping.tracking_number);
      }
      // Deliveries go out in parallel: put them in the order of the changes they carry.
      const orderStatuses = listener.received
        .filter((d) => d.path === '/order.changed' && d.body.data.id === order.id)
        .map((d) => d.body.data)
        .sort((a, b) => a.modified_on.localeCompare(b.modified_on))
        .map((data) => data.status.name);
      expect(orderStatuses).toEqual(['Pending', 'In Production', 'Shipped', 'Delivered']);
      const firstShipment = delivered.shipping_orders[0].id;
      const shipmentStatuses = listener.received
        .filter((d) => d.path === '/shipping_order.changed' && d.body.data.id === firstShipment)
        .map((d) => d.body.data.status)
        .sort((a, b) => a.id - b.id)
        .map((status) => status.name);
      expect(shipmentStatuses).toEqual(['Created', 'Scheduled', 'Shipped', 'Delivered']);
      expect(listener.received.filter((d) => d.path === '/shipping_order.scheduled').map((d) => d.body.data.id).sort()).toEqual(
        delivered.shipping_orders.map((s: { id: number }) => s.id),
      );
    } finally {
      await listener.close();
      await call(sandbox(), '/_sandbox/reset', { method: 'POST' });
    }
  });

  it('a cancelled order stays cancelled and moves no further; a shipped one cannot be cancelled (409)', async () => {
    const paused = await startSandbox({ port: 0, lifecycleSeconds: 3600 });
    try {
      const order = (await call(paused, '/v1/orders/', { body: await validOrder(paused) })).body;
      const cancelled = await call(paused, `/_sandbox/orders/${order.id}/cancel`, { method: 'POST' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toEqual({ id: 5, name: 'Cancelled' });
      const other = (await call(paused, '/v1/orders/', { body: await validOrder(paused) })).body;
      await call(paused, `/_sandbox/orders/${other.id}/advance`, { method: 'POST' });
      await call(paused, `/_sandbox/orders/${other.id}/advance`, { method: 'POST' });
      const refused = await call(paused, `/_sandbox/orders/${other.id}/cancel`, { method: 'POST' });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/Shipped; it can no longer be cancelled/);
    } finally {
      await paused.close();
    }
  });

  it('delivers a stale event on purpose: the record as created, older modified_on, no tracking', async () => {
    const listener = await startListener();
    try {
      await subscribeAll(listener.url);
      const order = (await call(sandbox(), '/v1/orders/', { body: await validOrder(sandbox()) })).body;
      const shipping = order.shipping_orders[0].id;
      await waitFor(() => listener.received.some((d) => d.path === '/shipping_order.changed' && d.body.data.id === shipping && d.body.data.status.name === 'Shipped'), 'the shipping order shipped');
      const before = listener.received.length;
      const stale = await call(sandbox(), '/_sandbox/events', { body: { event: 'shipping_order.changed', id: shipping, stale: true } });
      expect(stale.body).toEqual({ event: 'shipping_order.changed', resource_id: shipping, subscriptions: 1 });
      const staleOrder = await call(sandbox(), '/_sandbox/events', { body: { event: 'order.changed', id: order.id, stale: true } });
      expect(staleOrder.status).toBe(200);
      await waitFor(() => listener.received.slice(before).filter((d) => d.body.data.status.name === 'Created' || d.body.data.status.name === 'Pending').length === 2, 'the two stale events');
      // The lifecycle goes on meanwhile (Delivered events may arrive too): the stale ones are those behind it.
      const late = listener.received.slice(before);
      const lateShipping = late.find((d) => d.path === '/shipping_order.changed' && d.body.data.id === shipping && d.body.data.status.name === 'Created')?.body.data;
      expect(lateShipping).toMatchObject({ status: { name: 'Created' }, tracking_number: null, tracking_url: null });
      const lateOrder = late.find((d) => d.path === '/order.changed' && d.body.data.id === order.id && d.body.data.status.name === 'Pending')?.body.data;
      expect(lateOrder.modified_on).toBe(order.created_at);
      expect(lateOrder.status.name).toBe('Pending');
      const refused = await call(sandbox(), '/_sandbox/events', { body: { event: 'custom_product.changed', stale: true } });
      expect(refused.status).toBe(400);
    } finally {
      await listener.close();
      await call(sandbox(), '/_sandbox/reset', { method: 'POST' });
    }
  });

  it('with --data, an order still on its way moves on again after a restart', async () => {
    const data = join(tempDir('merch-lifecycle-'), 'state.json');
    const before = await startSandbox({ port: 0, data, lifecycleSeconds: 3600 });
    const order = (await call(before, '/v1/orders/', { body: await validOrder(before) })).body;
    await before.close();
    const after = await startSandbox({ port: 0, data, lifecycleSeconds: 0.05 });
    try {
      await waitFor(async () => (await call(after, `/v1/orders/${order.id}`)).body.status.name === 'Delivered', 'the order delivered after the restart');
    } finally {
      await after.close();
    }
  });

  it('rejects a --lifecycle that is not a positive number of seconds', async () => {
    await expect(startSandbox({ port: 0, lifecycleSeconds: 0 })).rejects.toThrow('--lifecycle must be a number of seconds above 0');
    for (const value of ['0', '-1', 'soon', '86401']) {
      const result = await runMerch(['sandbox', '--port', '0', '--lifecycle', value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: option '--lifecycle <duration>' argument '.+' is invalid\. expected a duration/m);
      expect(result.stderr).not.toContain('listening on');
    }
  });

  it('merch sandbox --lifecycle SECONDS moves a new order to Delivered by itself', async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '10', '--quiet', '--lifecycle', '0.05']);
    await run.io.written((_out, err) => err.includes('listening on'));
    const url = /listening on (http:\/\/\S+?);/.exec(run.io.errors())![1]!;
    const running = { url } as Parameters<typeof validOrder>[0];
    const order = (await call(running, '/v1/orders/', { body: await validOrder(running) })).body;
    await waitFor(async () => (await call(running, `/v1/orders/${order.id}`)).body.status.name === 'Delivered', 'the order delivered');
    run.interrupt();
    expect((await run.done).code).toBe(0);
  });
});
