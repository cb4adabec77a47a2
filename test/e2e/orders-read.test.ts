import { beforeAll, describe, expect, it } from 'vitest';
import { merch, merchOnTerminal } from '../support/run-merch.js';
import { plain, tableRows, tsv } from '../support/output.js';
import { createOrder, requestsDuring, useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();
let orders: { id: number; external_id: string; total: { display: string; currency: string } }[] = [];
/** The sandbox lists orders newest first. */
const newestFirst = () => [...orders].reverse();

beforeAll(async () => {
  orders = [await createOrder(sandbox(), 'read-1'), await createOrder(sandbox(), 'read-2'), await createOrder(sandbox(), 'read-3')];
});

describe('orders list', () => {
  it('prints TSV with a header when piped', async () => {
    const { code, stdout, stderr } = await merch(sandbox(), ['orders', 'list']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const rows = tsv(stdout);
    expect(rows[0]).toEqual(['id', 'external_id', 'status', 'payment', 'items', 'shipments', 'total', 'created']);
    expect(rows.slice(1).map((row) => row[1])).toEqual(['read-3', 'read-2', 'read-1']);
    expect(rows[3]![4]).toBe('3');
    expect(rows[3]![5]).toBe('2');
    expect(rows[3]![6]).toBe(`${orders[0]!.total.display} ${orders[0]!.total.currency}`);
  });

  it('prints a table on a terminal', async () => {
    const { code, stdout } = await merchOnTerminal(sandbox(), ['orders', 'list']);
    expect(code).toBe(0);
    const rows = tableRows(stdout);
    expect(rows[0]).toEqual(['ID', 'External ID', 'Status', 'Payment', 'Items', 'Shipments', 'Total', 'Created']);
    expect(rows).toHaveLength(4);
  });

  it('--json, --jsonl and --query', async () => {
    const json = JSON.parse((await merch(sandbox(), ['orders', 'list', '--json'])).stdout) as { id: number }[];
    expect(json.map((o) => o.id)).toEqual(newestFirst().map((o) => o.id));
    const jsonl = (await merch(sandbox(), ['orders', 'list', '--jsonl'])).stdout.trimEnd().split('\n');
    expect(jsonl.map((line) => JSON.parse(line).id)).toEqual(newestFirst().map((o) => o.id));
    const query = await merch(sandbox(), ['orders', 'list', '--query', '[].external_id']);
    expect(JSON.parse(query.stdout)).toEqual(['read-3', 'read-2', 'read-1']);
  });

  it('pages with --limit/--offset, and --all follows every page', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'list', '--limit', '1', '--offset', '1', '--query', '[].id']));
    expect(requests.map((r) => r.url)).toEqual(['/v1/orders?limit=1&offset=1']);
    expect(JSON.parse(result.stdout)).toEqual([orders[1]!.id]);
    const all = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'list', '--limit', '2', '--all', '--query', '[].id']));
    expect(JSON.parse(all.result.stdout)).toEqual(newestFirst().map((o) => o.id));
    expect(all.requests.map((r) => r.query)).toEqual(['limit=2', 'limit=2&offset=2']);
  });
});

describe('orders get', () => {
  it('prints the summary as field/value lines, then line items and shipping orders as TSV blocks, when piped', async () => {
    const order = orders[0]!;
    const { code, stdout } = await merch(sandbox(), ['orders', 'get', String(order.id)]);
    expect(code).toBe(0);
    const [summary, lineItems, shippingOrders] = stdout.trimEnd().split('\n\n');
    const fields = Object.fromEntries(tsv(summary!).map(([name, value]) => [name, value]));
    expect(fields).toMatchObject({ ID: String(order.id), 'External ID': 'read-1', Total: `${order.total.display} ${order.total.currency}` });
    for (const name of ['Status', 'Payment status', 'Subtotal', 'Shipping', 'Tax']) expect(fields[name], name).toMatch(/\S/);
    expect(fields.Subtotal).toMatch(/^\d+\.\d{2} USD$/);

    const items = tsv(lineItems!);
    expect(items[0]).toEqual(['# line_items']);
    expect(items[1]).toEqual(['id', 'product', 'variant', 'quantity', 'price', 'subtotal', 'status']);
    expect(items[2]![3]).toBe('3');
    expect(items[2]![2]).toMatch(/ \/ /); // color / size by name

    const shipments = tsv(shippingOrders!);
    expect(shipments[0]).toEqual(['# shipping_orders']);
    expect(shipments[1]).toEqual(['id', 'recipient', 'city', 'status', 'tracking', 'items', 'method', 'ship_date', 'tracking_url']);
    expect(shipments.slice(2).map((row) => [row[1], row[2], row[3]])).toEqual([
      ['Ada Tester', 'Boston', 'Created'],
      ['Grace Tester', 'Denver', 'Created'],
    ]);
  });

  it('shows the tracking number once a shipment ships', async () => {
    const order = orders[1]!;
    const shipment = (await merch(sandbox(), ['orders', 'get', String(order.id), '--query', 'shipping_orders[0].id'])).stdout.trim();
    for (let i = 0; i < 2; i++) {
      const advanced = await fetch(`${sandbox().url}/_sandbox/shipping-orders/${shipment}/advance`, { method: 'POST', headers: { authorization: 'Bearer sandbox-token' } });
      expect(advanced.status).toBe(200);
    }
    const { stdout } = await merch(sandbox(), ['orders', 'get', String(order.id)]);
    const row = tsv(stdout.split('# shipping_orders\n')[1]!)[1]!;
    expect(row[3]).toBe('Shipped');
    expect(row[4]).toMatch(/\S/);
    expect(row[8]).toMatch(/^https:\/\//);
  });

  it('prints a multi-section view on a terminal', async () => {
    const { code, stdout } = await merchOnTerminal(sandbox(), ['orders', 'get', String(orders[0]!.id)]);
    expect(code).toBe(0);
    const screen = plain(stdout);
    expect(screen).toMatch(/Line items\n/);
    expect(screen).toMatch(/Shipping orders\n/);
    const rows = tableRows(stdout);
    expect(rows).toContainEqual(['Total', `${orders[0]!.total.display} ${orders[0]!.total.currency}`]);
    expect(rows).toContainEqual(['ID', 'Product', 'Variant', 'Quantity', 'Price', 'Subtotal', 'Status']);
    expect(rows).toContainEqual(['ID', 'Recipient', 'City', 'Status', 'Method', 'Ship date', 'Items']);
  });

  it('--json prints the record as sent; --jsonl one line; --query selects', async () => {
    const id = String(orders[0]!.id);
    const json = JSON.parse((await merch(sandbox(), ['orders', 'get', id, '--json'])).stdout);
    expect(json).toMatchObject({ id: orders[0]!.id, external_id: 'read-1' });
    expect(json.line_items[0].price).toHaveProperty('amount');
    expect(json.shipping_orders).toHaveLength(2);
    const jsonl = (await merch(sandbox(), ['orders', 'get', id, '--jsonl'])).stdout;
    expect(jsonl.trimEnd().split('\n')).toHaveLength(1);
    const query = await merch(sandbox(), ['orders', 'get', id, '--query', 'shipping_orders[].address.city']);
    expect(JSON.parse(query.stdout)).toEqual(['Boston', 'Denver']);
  });

  it("exits 4 for an unknown order and another account's order", async () => {
    expect((await merch(sandbox(), ['orders', 'get', '424242'])).code).toBe(4);
    const globex = await merch(sandbox(), ['orders', 'get', String(orders[0]!.id)], { env: { MERCH_TOKEN: 'sandbox-token-2' } });
    expect(globex.code).toBe(4);
    expect(globex.stdout).toBe('');
  });
});
