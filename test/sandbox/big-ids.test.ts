import { describe, expect, it } from 'vitest';
import { parseExact, stringifyExact } from '../../src/lib/exact-json.js';
import { BIG_ID_OFFSET } from '../../src/sandbox/big-ids.js';
import { ACME } from './helpers.js';
import { recipient } from './order-fixtures.js';
import { useSandbox } from '../support/sandbox.js';

// `--big-ids` (issue 40.5): the service's ids beyond 2^53, as a Django service with
// BigAutoField keys answers them: written as raw digits, every path, query and body that
// carries one read back, the store's own ids unchanged (src/sandbox/big-ids.ts).

const sandbox = useSandbox({ bigIds: true });
const plain = useSandbox();

/** A request over HTTP, its answer's text as sent and as read exactly. */
async function exchange(base: { url: string }, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; text: string; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${ACME}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base.url}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined ? undefined : stringifyExact(init.body) });
  const text = await response.text();
  return { status: response.status, text, body: response.headers.get('content-type')?.includes('json') && text !== '' ? parseExact(text) : text };
}

const big = (id: number) => BIG_ID_OFFSET + BigInt(id);

describe('merch sandbox --big-ids', () => {
  it("answers every record's id beyond 2^53, as raw digits; named references and the rest as they were", async () => {
    const [ours, theirs] = await Promise.all([exchange(sandbox(), '/v1/custom-products?limit=2'), exchange(plain(), '/v1/custom-products?limit=2')]);
    const product = ours.body.results[0];
    const same = theirs.body.results[0];
    expect(product.id).toBe(big(same.id));
    expect(ours.text).toContain(`"id":${big(same.id)},`);
    expect(product.default_part.id).toBe(big(same.default_part.id));
    expect(product.selected_mockup.product).toBe(big(same.id));
    expect(product.design_status).toEqual(same.design_status);
    expect(product.category).toEqual(same.category);
    expect(product.name).toBe(same.name);
    expect(product.prices).toEqual(same.prices);
    // A plain JSON.parse cannot tell two neighbouring ids apart.
    expect(JSON.parse(`[${big(1)},${big(2)}]`)).toEqual([Number(big(1)), Number(big(1))]);
  });

  it('an order is created with a big product id, answered with big ids, and read again by its big id', async () => {
    const methods = (await exchange(sandbox(), '/v1/payment-methods/')).body;
    const product = (await exchange(sandbox(), '/v1/custom-products?limit=1')).body.results[0];
    expect(typeof product.id).toBe('bigint');
    const attributes = { color: product.available_attributes.colors[0].name, size: product.available_attributes.sizes[0].name };
    const request = {
      external_id: 'big-ids-1',
      payment_method_id: methods.card[0].id,
      line_items: [{ id: 1, product: product.id, quantity: 2, attributes }],
      shipping_orders: [{ recipient: recipient('Lovelace'), line_items: [{ id: 1, quantity: 2 }] }],
    };
    const created = await exchange(sandbox(), '/v1/orders/', { body: request });
    expect(created.status, created.text).toBe(201);
    const order = created.body;
    expect(order.id).toBeGreaterThan(BIG_ID_OFFSET);
    expect(order.line_items[0].part.product_id).toBe(product.id);
    expect(order.shipping_orders[0].order).toBe(order.id);
    expect(order.shipping_orders[0].id).toBeGreaterThan(BIG_ID_OFFSET);

    const again = await exchange(sandbox(), `/v1/orders/${order.id}`);
    expect([again.status, again.body.id, again.body.external_id]).toEqual([200, order.id, 'big-ids-1']);
    // The store keeps its own id: the recorded request names it.
    expect(sandbox().requests.at(-1)!.path).toBe(`/v1/orders/${order.id - BIG_ID_OFFSET}`);
    const listed = await exchange(sandbox(), '/v1/orders?external_id=big-ids-1');
    expect(listed.body.results.map((o: any) => o.id)).toEqual([order.id]);
  });

  it('a path id below the offset names nothing (404), as on a service whose ids are big; a rounded one names another', async () => {
    const product = (await exchange(sandbox(), '/v1/custom-products?limit=1')).body.results[0];
    const storeId = Number(product.id - BIG_ID_OFFSET);
    expect((await exchange(sandbox(), `/v1/custom-products/${storeId}`)).status).toBe(404);
    expect((await exchange(sandbox(), `/v1/custom-products/${product.id}`)).body.id).toBe(product.id);
    // What a JSON.parse reader would ask for: the id rounded to the nearest double.
    const rounded = BigInt(Number(product.id));
    expect(rounded).not.toBe(product.id);
    const answer = await exchange(sandbox(), `/v1/custom-products/${rounded}`);
    expect(answer.status === 404 || answer.body.id !== product.id).toBe(true);
  });

  it('query filters carry big ids too: id__in of supplier products', async () => {
    const products = (await exchange(sandbox(), '/v1/supplier-products?limit=3')).body.results;
    const ids = [products[0].id, products[2].id];
    expect(ids.every((id: unknown) => typeof id === 'bigint')).toBe(true);
    const found = await exchange(sandbox(), `/v1/supplier-products?id__in=${ids.join(',')}`);
    expect(found.body.results.map((p: any) => p.id)).toEqual(ids);
  });
});
