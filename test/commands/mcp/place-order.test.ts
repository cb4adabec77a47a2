import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../../support/proxy.js';
import { useSandbox, sandboxApi } from '../../support/sandbox.js';
import { tempDir } from '../../support/temp-dir.js';
import { dataOf, mcpSession, orderPosts, RECIPIENT, textOf } from './mcp-session.js';

// place_order through an MCP client: exactly once (a place repeated, two agents placing one
// plan, a list placed per row), and the guards on spending (read-only, the caps, the user's
// no): nothing sent when they refuse.

const sandbox = useSandbox();

/** An order of `quantity` of product 100001 for one recipient (a name of its own: each test's order is new). */
function order(name: string, quantity = 1) {
  return { items: [{ product: 100001, quantity, attributes: { color: 'Navy' } }], recipient: { ...RECIPIENT, first_name: name } };
}

async function ordersWithExternalId(externalId: string): Promise<any[]> {
  const { body } = await sandboxApi(sandbox(), `/v1/orders/?external_id=${encodeURIComponent(externalId)}&limit=100`);
  return body.results.filter((o: any) => o.external_id === externalId);
}

describe('merch mcp: place_order, exactly once', () => {
  it('places the plan with its external id; placed again: the same order, not a second; stderr and the journal say it as the CLI does', async () => {
    const dir = tempDir();
    const session = await mcpSession(sandbox(), { allowOrders: true, env: { MERCH_CONFIG_DIR: dir } });
    const planned = dataOf(await session.call('plan_order', order('Once')));
    const before = sandbox().requests.length;
    const first = await session.call('place_order', { plan_id: planned.plan_id });
    const placed = dataOf(first);
    expect(placed).toMatchObject({ status: 'created', orders: [{ external_id: planned.external_id, status: 'created' }] });
    expect(textOf(first)).toBe(`order ${placed.orders[0].order_id} created (external id ${planned.external_id})`);
    const again = dataOf(await session.call('place_order', { plan_id: planned.plan_id }));
    expect(again).toMatchObject({ status: 'existing', orders: [{ order_id: placed.orders[0].order_id, status: 'existing' }] });
    expect(orderPosts(sandbox(), before)).toHaveLength(1);
    expect(await ordersWithExternalId(planned.external_id)).toHaveLength(1);
    expect(session.io.errors()).toContain(`external id: ${planned.external_id}`);
    expect(session.io.errors()).toContain(`created: order ${placed.orders[0].order_id} (external id ${planned.external_id})`);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(join(dir, 'orders-journal.jsonl'), 'utf8')).toContain(planned.external_id);
  });

  it('two agents of one server placing the same plan at once: one order', async () => {
    const first = await mcpSession(sandbox(), { allowOrders: true });
    const second = await mcpSession(sandbox(), { desk: first.desk, env: { MERCH_CONFIG_DIR: tempDir() } });
    const planned = dataOf(await first.call('plan_order', order('Twice')));
    const before = sandbox().requests.length;
    const [a, b] = await Promise.all([first.call('place_order', { plan_id: planned.plan_id }), second.call('place_order', { plan_id: planned.plan_id })]);
    const ids = [dataOf(a), dataOf(b)].map((r) => r.orders[0].order_id);
    expect(ids[0]).toBe(ids[1]);
    expect([dataOf(a).status, dataOf(b).status].sort()).toEqual(['created', 'existing']);
    expect(orderPosts(sandbox(), before)).toHaveLength(1);
    expect(await ordersWithExternalId(planned.external_id)).toHaveLength(1);
  });

  it('a place whose answer was lost: the order it made is found, not sent again; placed again: the same order', async () => {
    let cut = false;
    const proxy = await startProxy({
      target: sandbox().url,
      onAnswer({ method, path }) {
        if (method !== 'POST' || !path.startsWith('/v1/orders') || cut) return 'pass';
        cut = true;
        return 'cut';
      },
    });
    const session = await mcpSession(sandbox(), { allowOrders: true, env: { MERCH_BASE_URL: proxy.url } });
    const planned = dataOf(await session.call('plan_order', order('Lost')));
    const placed = dataOf(await session.call('place_order', { plan_id: planned.plan_id }));
    expect(cut).toBe(true);
    expect(placed).toMatchObject({ status: 'created', orders: [{ external_id: planned.external_id }] });
    expect(session.io.errors()).toContain('the answer was lost, and a look-up found the order it made');
    expect(dataOf(await session.call('place_order', { plan_id: planned.plan_id })).status).toBe('existing');
    expect(await ordersWithExternalId(planned.external_id)).toHaveLength(1);
    expect(proxy.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('a place whose outcome cannot be known says so, and how to finish it: the same call again, which sends nothing twice', async () => {
    let failing = true;
    const proxy = await startProxy({
      target: sandbox().url,
      onRequest: ({ method, path }) => (failing && method === 'GET' && /^\/v1\/orders\/?$/.test(path) && proxy.requests.some((r) => r.method === 'POST') ? { status: 503, body: 'down' } : 'forward'),
      onAnswer: ({ method, path }) => (failing && method === 'POST' && path.startsWith('/v1/orders') ? 'cut' : 'pass'),
    });
    const session = await mcpSession(sandbox(), { allowOrders: true, env: { MERCH_BASE_URL: proxy.url } });
    const planned = dataOf(await session.call('plan_order', order('Unknown')));
    const unknown = await session.call('place_order', { plan_id: planned.plan_id });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(new RegExp(`^error: the outcome is unknown: .*\nhint: call place_order again with the same plan_id to finish it safely: it looks external id ${planned.external_id} up`));
    failing = false;
    expect(dataOf(await session.call('place_order', { plan_id: planned.plan_id })).orders[0].external_id).toBe(planned.external_id);
    expect(await ordersWithExternalId(planned.external_id)).toHaveLength(1);
  });

  it('a plan id it did not make cannot be placed', async () => {
    const session = await mcpSession(sandbox(), { allowOrders: true });
    const refused = await session.call('place_order', { plan_id: 'plan_made-up' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^error: no plan plan_made-up on this server\nhint: plan the order with plan_order first/);
  });

  it('a recipients list (a CSV path) is planned as the CLI plans it and placed per row, in batches; placed again: nothing sent', async () => {
    const dir = tempDir();
    const csv = join(dir, 'guests.csv');
    const rows = Array.from({ length: 5 }, (_, i) => `List${i},Guest,${i} Main St,Austin,TX,78701,US`);
    writeFileSync(csv, `first_name,last_name,line_1,city,state,postal_code,country\n${rows.join('\n')}\n`);
    const session = await mcpSession(sandbox(), { allowOrders: true, env: { MERCH_CONFIG_DIR: dir } });
    const before = sandbox().requests.length;
    const planned = dataOf(await session.call('plan_order', { items: [{ product: 100001, attributes: { color: 'Navy' } }], recipients_csv: csv, batch_size: 2 }));
    expect(planned.plan.batches.map((b: any) => b.rows)).toEqual([[2, 3], [4, 5], [6]]);
    expect(orderPosts(sandbox(), before)).toEqual([]);
    const placed = dataOf(await session.call('place_order', { plan_id: planned.plan_id }));
    expect(placed.orders.map((o: any) => [o.external_id, o.status, o.recipients])).toEqual([
      [`${planned.external_id}-1`, 'created', 2],
      [`${planned.external_id}-2`, 'created', 2],
      [`${planned.external_id}-3`, 'created', 1],
    ]);
    expect(session.io.errors()).toContain('3 created, 0 existing, 0 refused');
    const again = dataOf(await session.call('place_order', { plan_id: planned.plan_id }));
    expect(again.orders.map((o: any) => o.status)).toEqual(['existing', 'existing', 'existing']);
    expect(orderPosts(sandbox(), before)).toHaveLength(3);
    const tracked = dataOf(await session.call('track_order', { id: placed.orders[0].order_id }));
    expect(tracked.shipments.map((s: any) => s.recipient_name)).toEqual(['List0 Guest', 'List1 Guest']);
    const run = await session.call('track_order', { run: planned.external_id });
    expect(dataOf(run).shipments.map((s: any) => s.recipient_name)).toEqual(['List0 Guest', 'List1 Guest', 'List2 Guest', 'List3 Guest', 'List4 Guest']);
    expect(textOf(run)).toMatch(new RegExp(`^run ${planned.external_id}: 5 shipments \\(5 \\w+\\), 0 tracked$`));
  });

  it('a recipients list changed since it was planned is not placed: plan it again', async () => {
    const dir = tempDir();
    const csv = join(dir, 'guests.csv');
    writeFileSync(csv, 'first_name,last_name,line_1,city,state,postal_code,country\nChanged0,Guest,1 Main St,Austin,TX,78701,US\n');
    const session = await mcpSession(sandbox(), { allowOrders: true, env: { MERCH_CONFIG_DIR: dir } });
    const planned = dataOf(await session.call('plan_order', { items: [{ product: 100001, attributes: { color: 'Navy' } }], recipients_csv: csv, external_id: `changed-${Date.now()}` }));
    writeFileSync(csv, 'first_name,last_name,line_1,city,state,postal_code,country\nChanged0,Guest,1 Main St,Austin,TX,78701,US\nChanged1,Guest,2 Main St,Austin,TX,78701,US\n');
    const before = sandbox().requests.length;
    const refused = await session.call('place_order', { plan_id: planned.plan_id });
    expect(textOf(refused)).toBe(`error: ${csv} has changed since it was planned; nothing was sent\nhint: plan it again with plan_order`);
    expect(orderPosts(sandbox(), before)).toEqual([]);
  });

  it('several recipients given inline make one order with a shipping order each', async () => {
    const session = await mcpSession(sandbox(), { allowOrders: true });
    const planned = dataOf(await session.call('plan_order', { items: [{ product: 100001, quantity: 1, attributes: { color: 'Navy' } }], recipients: [{ ...RECIPIENT, first_name: 'Inline1' }, { ...RECIPIENT, first_name: 'Inline2' }] }));
    expect(planned.plan.shipments).toBe(2);
    const placed = dataOf(await session.call('place_order', { plan_id: planned.plan_id }));
    const tracked = dataOf(await session.call('track_order', { id: placed.orders[0].order_id }));
    expect(tracked.shipments.map((s: any) => s.recipient_name)).toEqual(['Inline1 Lee', 'Inline2 Lee']);
  });
});

describe('merch mcp: the guards', () => {
  it('read-only unless --allow-orders: place_order is not listed, and a call to it is refused', async () => {
    const session = await mcpSession(sandbox());
    const planned = dataOf(await session.call('plan_order', order('ReadOnly')));
    const before = sandbox().requests.length;
    const tools = (await session.client.listTools()).tools.map((t) => t.name);
    expect(tools).not.toContain('place_order');
    const called = await session.call('place_order', { plan_id: planned.plan_id }).then(
      (result) => textOf(result),
      (err: Error) => err.message,
    );
    expect(called).toMatch(/place_order not found/);
    expect(orderPosts(sandbox(), before)).toEqual([]);
  });

  it('--max-order-total: a plan above it is refused, nothing sent; one below it is placed', async () => {
    const session = await mcpSession(sandbox(), { allowOrders: true, maxOrderTotal: '0.01 USD' });
    const planned = dataOf(await session.call('plan_order', order('TooDear', 3)));
    const before = sandbox().requests.length;
    const refused = await session.call('place_order', { plan_id: planned.plan_id });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^error: the plan's subtotal .* is above --max-order-total 0\.01 USD; nothing was sent\nhint: /);
    expect(orderPosts(sandbox(), before)).toEqual([]);
    expect(await ordersWithExternalId(planned.external_id)).toEqual([]);
  });

  it('--max-spend: what one server places in all; the order that would pass it is refused, nothing sent', async () => {
    const probe = await mcpSession(sandbox());
    const one = dataOf(await probe.call('plan_order', order('Probe')));
    const [amount, currency] = one.subtotal.split(' ');
    const cap = `${(Number(amount.replace(/,/g, '')) * 1.5).toFixed(2)} ${currency}`;
    const session = await mcpSession(sandbox(), { allowOrders: true, maxSpend: cap, maxOrderTotal: cap });
    const first = dataOf(await session.call('plan_order', order('Spend1')));
    const second = dataOf(await session.call('plan_order', order('Spend2')));
    expect(dataOf(await session.call('place_order', { plan_id: first.plan_id })).spent).toBe(one.subtotal);
    const before = sandbox().requests.length;
    const refused = await session.call('place_order', { plan_id: second.plan_id });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('above what is left of --max-spend');
    expect(orderPosts(sandbox(), before)).toEqual([]);
    // The order already placed, placed again, is not spending: it is found, not sent.
    expect(dataOf(await session.call('place_order', { plan_id: first.plan_id })).status).toBe('existing');
  });

  it('a client that can ask its user: place asks with the plan\'s summary; a no sends nothing; a yes places', async () => {
    let reply: 'yes' | 'no' | 'decline' = 'no';
    const session = await mcpSession(sandbox(), { allowOrders: true, answer: () => reply });
    const planned = dataOf(await session.call('plan_order', order('Asked')));
    const before = sandbox().requests.length;
    const no = await session.call('place_order', { plan_id: planned.plan_id });
    expect(no.isError).toBe(true);
    expect(textOf(no)).toMatch(/^error: declined: no order was created/);
    expect(session.asked).toHaveLength(1);
    expect(session.asked[0]).toContain(`subtotal ${planned.subtotal}`);
    reply = 'decline';
    expect((await session.call('place_order', { plan_id: planned.plan_id })).isError).toBe(true);
    expect(orderPosts(sandbox(), before)).toEqual([]);
    reply = 'yes';
    expect(dataOf(await session.call('place_order', { plan_id: planned.plan_id })).status).toBe('created');
    expect(orderPosts(sandbox(), before)).toHaveLength(1);
    expect(session.asked).toHaveLength(3);
  });
});
