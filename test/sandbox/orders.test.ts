import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { waitFor } from '../support/wait-for.js';
import { useSandbox } from '../support/sandbox.js';
import { call, errorPaths, GLOBEX } from './helpers.js';
import { validOrder } from './order-fixtures.js';

const sandbox = useSandbox({ eventDelayMs: 100 });
/** Orders that stay as created (no payment within the test), so a read equals the creation's answer. */
const still = useSandbox();

describe('order creation', () => {
  it('creates an order with computed totals in the spec shapes (201)', async () => {
    const request = await validOrder(still());
    const products = (await call(still(), '/v1/custom-products')).body.results;
    const { status, body: order } = await call(still(), '/v1/orders/', { body: request });
    expect(status).toBe(201);
    const subtotal = products[0].prices.price.amount * 3 + products[1].prices.price.amount;
    const tax = Math.round(subtotal * 0.08);
    expect(order.subtotal).toEqual({ currency: 'USD', amount: subtotal, display: (subtotal / 100).toFixed(2) });
    expect(order.shipping.amount).toBe(2 * 799);
    expect(order.tax.amount).toBe(tax);
    expect(order.total.amount).toBe(subtotal + 2 * 799 + tax);
    expect(order).toMatchObject({
      status: { id: 1, name: 'Pending' },
      payment_status: { id: 'pending_payment', name: 'Pending payment' },
      type: { id: 2, name: 'Submitted' },
      external_id: null,
      billing_address: { line_1: '1 Market Street', city: 'Springfield', is_po_box: false },
    });
    expect(order.line_items[0]).toMatchObject({
      quantity: 3,
      price: products[0].prices.price,
      status: { id: 1, name: 'Pending' },
      part: { product_id: products[0].id, variant: { color: products[0].available_attributes.colors[0] } },
    });
    expect(order.shipping_orders).toHaveLength(2);
    const [first, second] = order.shipping_orders;
    expect(first).toMatchObject({
      order: order.id,
      status: { id: 1, name: 'Created' },
      last_name: 'Lovelace',
      recipient: { first_name: 'Ada', shipping_address: { postal_code: '02110' } },
      tracking_number: null,
    });
    expect(first.line_items.map((item: any) => [item.id, item.quantity])).toEqual([
      [order.line_items[0].id, 2],
      [order.line_items[1].id, 1],
    ]);
    expect(second.line_items[0].part.id).toBe(order.line_items[0].part.id);
    expect((await call(still(), `/v1/orders/${order.id}`)).body).toEqual(order);
  });

  it('accepts the path without a trailing slash and uses a billing address from the request', async () => {
    const request = { ...(await validOrder(sandbox())), billing_address: { line_1: 'PO Box 12', city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' } };
    const { status, body } = await call(sandbox(), '/v1/orders', { body: request });
    expect(status).toBe(201);
    expect(body.billing_address).toMatchObject({ line_1: 'PO Box 12', city: 'Austin', is_po_box: true });
  });

  it('lists orders newest first, paged', async () => {
    for (let n = 0; n < 2; n++) expect((await call(sandbox(), '/v1/orders/', { body: await validOrder(sandbox()) })).status).toBe(201);
    const { body } = await call(sandbox(), '/v1/orders?limit=1');
    expect(body.count).toBeGreaterThanOrEqual(2);
    const all = (await call(sandbox(), '/v1/orders')).body.results.map((o: any) => o.id);
    expect(all).toEqual([...all].sort((a: number, b: number) => b - a));
    expect(body.results[0].id).toBe(all[0]);
  });

  it('moves the order to paid / In Production after the event delay', async () => {
    const { body: order } = await call(sandbox(), '/v1/orders/', { body: await validOrder(sandbox()) });
    expect(order.payment_status.id).toBe('pending_payment');
    const paid = async () => (await call(sandbox(), `/v1/orders/${order.id}`)).body.payment_status.id === 'paid';
    await waitFor(paid, 'the order paid after the event delay');
    const { body } = await call(sandbox(), `/v1/orders/${order.id}`);
    expect(body.status).toEqual({ id: 2, name: 'In Production' });
    expect(body.payment_status).toEqual({ id: 'paid', name: 'Paid' });
    expect(body.shipping_orders[0].payment_status.id).toBe('paid');
  });
});

describe('order validation: a 400 naming the field of each rule, nested as DRF nests it', () => {
  const cases: [string, (request: any) => void, string, ...string[]][] = [
    ['no line items', (r) => { r.line_items = []; r.shipping_orders = [{ recipient: r.shipping_orders[0].recipient, line_items: [{ id: 1, quantity: 1 }] }]; }, 'line_items', 'shipping_orders[0].line_items[0].id'],
    ['no shipping orders', (r) => { r.shipping_orders = []; }, 'shipping_orders', 'line_items[0].quantity', 'line_items[1].quantity'],
    ['duplicate line item id', (r) => { r.line_items[1].id = 1; }, 'line_items[1].id', 'shipping_orders[0].line_items[1].id'],
    ['another account\'s product', (r) => { r.line_items[0].product = 100006; }, 'line_items[0].product'],
    ['unknown product', (r) => { r.line_items[1].product = 42; }, 'line_items[1].product'],
    ['zero quantity', (r) => { r.line_items[0].quantity = 0; }, 'line_items[0].quantity'],
    ['fractional quantity', (r) => { r.line_items[1].quantity = 1.5; }, 'line_items[1].quantity'],
    ['size not offered', (r) => { r.line_items[0].attributes.size = 'XXXXL'; }, 'line_items[0].attributes.size'],
    ['unknown attribute', (r) => { r.line_items[1].attributes.fabric = 'silk'; }, 'line_items[1].attributes.fabric'],
    ['shipping line item not in line_items', (r) => { r.shipping_orders[0].line_items[1].id = 9; }, 'shipping_orders[0].line_items[1].id', 'line_items[1].quantity'],
    ['quantities not all shipped', (r) => { r.shipping_orders[1].line_items[0].quantity = 2; }, 'line_items[0].quantity'],
    ['line item not shipped at all', (r) => { r.shipping_orders[0].line_items.pop(); }, 'line_items[1].quantity'],
    ['missing payment method', (r) => { delete r.payment_method_id; }, 'payment_method_id'],
  ];

  // Which address fields are required is not shown: the sandbox, like the CLI, refuses none
  // of them (src/contract/order-rules.ts; docs/sandbox.md).
  const open: [string, (request: any) => void][] = [
    ['recipient without postal code', (r) => { delete r.shipping_orders[1].recipient.postal_code; }],
    ['recipient with a blank last name', (r) => { r.shipping_orders[0].recipient.last_name = ' '; }],
    ['billing address without city or names', (r) => { r.billing_address = { line_1: 'x', state: 'MA', postal_code: '1', country: 'US' }; }],
    ['a recipient key the interface does not have (ignored, as DRF ignores it)', (r) => { r.shipping_orders[0].recipient.zip = '02139'; }],
  ];
  for (const [name, mutate] of open) {
    it(`accepts a ${name}`, async () => {
      const request = await validOrder(sandbox());
      mutate(request);
      const { status, body } = await call(sandbox(), '/v1/orders/', { body: request });
      expect(status).toBe(201);
      expect(body.shipping_orders[0].recipient).not.toHaveProperty('zip');
    });
  }

  for (const [name, mutate, field, ...alsoReported] of cases) {
    it(name, async () => {
      const request = await validOrder(sandbox());
      mutate(request);
      const before = (await call(sandbox(), '/v1/orders')).body.count;
      const { status, body } = await call(sandbox(), '/v1/orders/', { body: request });
      expect(status).toBe(400);
      expect(errorPaths(body)).toEqual([field, ...alsoReported]);
      expect((await call(sandbox(), '/v1/orders')).body.count).toBe(before);
    });
  }

  it('refuses another account\'s payment method', async () => {
    const request = await validOrder(sandbox());
    request.payment_method_id = (await call(sandbox(), '/v1/payment-methods/', { token: GLOBEX })).body.card[0].id;
    const { status, body } = await call(sandbox(), '/v1/orders/', { body: request });
    expect(status).toBe(400);
    expect(Object.keys(body)).toEqual(['payment_method_id']);
  });

  it('nests field errors like the request: lists padded with {} up to the item in error', async () => {
    const recipient = await validOrder(sandbox());
    recipient.shipping_orders[1].recipient.email = 5;
    const notText = await call(sandbox(), '/v1/orders/', { body: recipient });
    expect(notText.status).toBe(400);
    expect(notText.body).toEqual({ shipping_orders: [{}, { recipient: { email: [expect.any(String)] } }] });
    const attribute = await validOrder(sandbox());
    attribute.line_items[1].attributes.size = 'XXXXL';
    const notOffered = await call(sandbox(), '/v1/orders/', { body: attribute });
    expect(notOffered.status).toBe(400);
    expect(notOffered.body).toEqual({ line_items: [{}, { attributes: { size: [expect.stringContaining('XXXXL')] } }] });
  });

  it('answers 400 with a detail for a body that is not JSON', async () => {
    const response = await fetch(`${sandbox().url}/v1/orders/`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).detail).toEqual(expect.any(String));
  });
});

describe('external_id', () => {
  // Django REST Framework's unique-together refusal; the 409 form below is startSandbox's option.
  it('is unique per account: a second create gets DRF\'s 400 non_field_errors and creates nothing', async () => {
    const request = { ...(await validOrder(sandbox())), external_id: 'po-7' };
    const first = await call(sandbox(), '/v1/orders/', { body: request });
    expect(first.status).toBe(201);
    expect(first.body.external_id).toBe('po-7');
    const count = (await call(sandbox(), '/v1/orders')).body.count;
    const second = await call(sandbox(), '/v1/orders/', { body: request });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ non_field_errors: ['The fields account, external_id must make a unique set.'] });
    expect((await call(sandbox(), '/v1/orders')).body.count).toBe(count);
    const found = await call(sandbox(), '/v1/orders?external_id=po-7');
    expect(found.body.results.map((o: any) => o.id)).toEqual([first.body.id]);
    const globex = await call(sandbox(), '/v1/orders/', { body: { ...(await validOrder(sandbox(), GLOBEX)), external_id: 'po-7' }, token: GLOBEX });
    expect(globex.status).toBe(201);
  });

  it('with duplicateOrder: \'409\', a second create gets 409 with the existing order id and creates nothing', async () => {
    const conflicting = await startSandbox({ port: 0, catalog: 20, duplicateOrder: '409' });
    try {
      const request = { ...(await validOrder(conflicting)), external_id: 'po-8' };
      const first = await call(conflicting, '/v1/orders/', { body: request });
      expect(first.status).toBe(201);
      const second = await call(conflicting, '/v1/orders/', { body: request });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({ detail: expect.any(String), order_id: first.body.id });
      expect((await call(conflicting, '/v1/orders')).body.count).toBe(1);
    } finally {
      await conflicting.close();
    }
  });
});

describe('order list', () => {
  it('orders by ordering=created_at or id, both ways; newest first by default', async () => {
    const newestFirst = (await call(sandbox(), '/v1/orders?limit=100')).body.results;
    expect(newestFirst.length).toBeGreaterThanOrEqual(3);
    const ids = newestFirst.map((order: any) => order.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const byCreated = (await call(sandbox(), '/v1/orders?ordering=-created_at&limit=100')).body.results;
    const created = byCreated.map((order: any) => order.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(byCreated.map((order: any) => order.id)).toEqual(ids);
    expect((await call(sandbox(), '/v1/orders?ordering=id&limit=100')).body.results.map((order: any) => order.id)).toEqual([...ids].reverse());
    // An unknown field is dropped (DRF's OrderingFilter): the default, newest first.
    const unknown = await call(sandbox(), '/v1/orders?ordering=total&limit=100');
    expect(unknown.status).toBe(200);
    expect(unknown.body.results.map((order: any) => order.id)).toEqual(ids);
  });
});

describe('order isolation', () => {
  it('hides acme\'s orders from globex', async () => {
    const acmeOrders = (await call(sandbox(), '/v1/orders')).body.results.map((o: any) => o.id);
    const globexOrders = (await call(sandbox(), '/v1/orders', { token: GLOBEX })).body.results.map((o: any) => o.id);
    expect(globexOrders.filter((id: number) => acmeOrders.includes(id))).toEqual([]);
    expect((await call(sandbox(), `/v1/orders/${acmeOrders[0]}`, { token: GLOBEX })).status).toBe(404);
    expect((await call(sandbox(), `/v1/orders/${acmeOrders[0]}`)).status).toBe(200);
  });
});
