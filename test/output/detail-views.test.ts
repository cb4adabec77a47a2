import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { plain, tableRows, tsv } from '../support/output.js';
import { createOrder, sandboxApi, useSandbox } from '../support/sandbox.js';
import { rewritingProxy } from '../support/proxy.js';

const sandbox = useSandbox();
const terminal = { tty: true, columns: 80 } as const;
const wide = { tty: true, columns: 250 } as const;

/** The field/value rows of a record view as an object. */
const fields = (rows: string[][]) => Object.fromEntries(rows.filter((row) => row.length === 2).map(([name, value]) => [name, value]));

describe('products get', () => {
  it('shows what a person choosing a product needs, in 80 columns', async () => {
    const product = (await sandboxApi(sandbox(), '/v1/supplier-products/1')).body;
    const { code, stdout } = await merch(sandbox(), ['products', 'get', '1'], terminal);
    expect(code).toBe(0);
    for (const line of plain(stdout).trimEnd().split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const shown = fields(tableRows(stdout));
    expect(shown).toMatchObject({
      ID: '1',
      Name: product.name,
      Brand: product.brand,
      Price: `${product.price.display} ${product.price.currency}`,
      Colors: product.colors.map((c: { name: string }) => c.name).join(', '),
      Sizes: product.sizes.map((s: { name: string }) => s.name).join(', '),
      Minimum: String(product.minimum),
      'Design tool SKU': product.design_tool_sku,
      Weight: `${product.weight} ${product.weight_unit.name}`,
    });
    expect(Object.keys(shown).length).toBeGreaterThan(10);
  });

  it('leaves out on a terminal the fields the service did not send; piped, every field has its line', async () => {
    // The real service's record may carry fewer fields than the sandbox's (spec 2.1: "not shown").
    const proxy = await rewritingProxy(sandbox().url, (_method, _path, body) => ({ id: body.id, name: body.name, design_tool_sku: body.design_tool_sku }));
    try {
      const tty = await merch(proxy, ['products', 'get', '1'], terminal);
      expect(tableRows(tty.stdout).map((row) => row[0])).toEqual(['ID', 'Name', 'Design tool SKU']);
      const piped = await merch(proxy, ['products', 'get', '1']);
      expect(tsv(piped.stdout).map((row) => row[0])).toContain('Brand');
    } finally {
      await proxy.close();
    }
  });
});

describe('orders get', () => {
  let order: any;
  beforeAll(async () => {
    const created = await createOrder(sandbox(), 'detail-1');
    const shipment = created.shipping_orders[0].id;
    for (let i = 0; i < 2; i++) expect((await sandboxApi(sandbox(), `/_sandbox/shipping-orders/${shipment}/advance`, { method: 'POST' })).status).toBe(200);
    order = (await sandboxApi(sandbox(), `/v1/orders/${created.id}`)).body;
    expect(order.shipping_orders[0].tracking_url).toMatch(/^https:/);
  });

  it('shows the order summary with modified, billing address and storage', async () => {
    const { code, stdout } = await merch(sandbox(), ['orders', 'get', String(order.id)], wide);
    expect(code).toBe(0);
    const billing = order.billing_address;
    expect(fields(tableRows(stdout))).toMatchObject({
      'External ID': 'detail-1',
      Modified: order.modified_on.slice(0, 16).replace('T', ' '),
      'Billing address': `${billing.line_1}, ${billing.city}, ${billing.state} ${billing.postal_code}, ${billing.country}`,
      Storage: `${order.storage.display} ${order.storage.currency}`,
      Total: `${order.total.display} ${order.total.currency}`,
    });
  });

  it("shows each shipment's method, ship date and items, and the tracking of the shipped ones", async () => {
    const { stdout } = await merch(sandbox(), ['orders', 'get', String(order.id)], wide);
    const rows = tableRows(stdout);
    expect(rows).toContainEqual(['ID', 'Recipient', 'City', 'Status', 'Method', 'Ship date', 'Items']);
    const [shipped, waiting] = order.shipping_orders;
    expect(rows).toContainEqual([
      String(shipped.id),
      'Ada Tester',
      'Boston',
      shipped.status.name,
      shipped.shipping_method.name,
      shipped.shipping_date,
      `item ${shipped.line_items[0].id} x 2`,
    ]);
    expect(rows).toContainEqual(['ID', 'Tracking number', 'Tracking URL']);
    expect(rows).toContainEqual([String(shipped.id), shipped.tracking_number, shipped.tracking_url]);
    expect(rows.filter((row) => row[0] === String(waiting.id))).toHaveLength(1); // not tracked: no tracking row
  });

  it('fits 80 columns, a tracking URL included: cut with … rather than wrapped (issue 19.6j)', async () => {
    const { stdout } = await merch(sandbox(), ['orders', 'get', String(order.id)], terminal);
    const screen = plain(stdout);
    for (const line of screen.trimEnd().split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const shipped = order.shipping_orders[0];
    const row = screen.split('\nTracking\n')[1]!.split('\n').find((line) => line.startsWith(`${shipped.id} `))!;
    const shown = row.split(/ {2,}/)[2]!;
    expect(shown).toMatch(/…$/);
    expect(shipped.tracking_url.startsWith(shown.slice(0, -1))).toBe(true);
    expect(stringWidth(row)).toBe(80);
  });

  it('piped, the shipments carry their tracking in their rows, after the columns of earlier versions', async () => {
    const { stdout } = await merch(sandbox(), ['orders', 'get', String(order.id)]);
    const rows = tsv(stdout.split('# shipping_orders\n')[1]!);
    expect(rows[0]).toEqual(['id', 'recipient', 'city', 'status', 'tracking', 'items', 'method', 'ship_date', 'tracking_url']);
    const shipped = order.shipping_orders[0];
    expect(rows[1]).toEqual([String(shipped.id), 'Ada Tester', 'Boston', shipped.status.name, shipped.tracking_number, `item ${shipped.line_items[0].id} x 2`, shipped.shipping_method.name, shipped.shipping_date, shipped.tracking_url]);
  });
});

describe('parts list', () => {
  it('shows the design tool sku that design-link takes', async () => {
    const parts = (await sandboxApi(sandbox(), '/v1/products/2/parts?limit=4')).body.results;
    const { stdout } = await merch(sandbox(), ['parts', 'list', '2', '--limit', '4'], terminal);
    const rows = tableRows(stdout);
    const column = rows[0]!.indexOf('Design tool SKU');
    expect(column).toBeGreaterThan(0);
    expect(rows.slice(1).map((row) => row[column])).toEqual(parts.map((p: { design_tool_sku: string }) => p.design_tool_sku));
    expect(rows[1]![column]).toMatch(/^DT-000002-\d\d$/);
  });
});
