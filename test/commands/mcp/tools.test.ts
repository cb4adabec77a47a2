import { describe, expect, it } from 'vitest';
import { merch } from '../../support/run-merch.js';
import { useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/temp-dir.js';
import { dataOf, mcpSession, orderPosts, RECIPIENT, textOf } from './mcp-session.js';

// `merch mcp`'s tools through an MCP client in-process, against a sandbox: tools/list (its
// size measured and bounded), every read tool, plan_order as `orders create --dry-run`.

const sandbox = useSandbox();
const ORDER = { items: [{ product: 100001, quantity: 2, attributes: { color: 'Navy' } }], recipient: RECIPIENT };

describe('merch mcp: tools/list', () => {
  it('lists the read tools and plan_order, read-only unless orders are allowed; every tool with schemas and annotations; the whole list under 8 KB', async () => {
    const readOnly = await mcpSession(sandbox());
    const { tools } = await readOnly.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['find_products', 'get_product', 'list_orders', 'get_order', 'track_order', 'payment_methods', 'design_link', 'plan_order']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    const allowed = await mcpSession(sandbox(), { allowOrders: true });
    const all = (await allowed.client.listTools()).tools;
    const place = all.find((t) => t.name === 'place_order');
    expect(place?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const size = Buffer.byteLength(JSON.stringify({ tools: all }));
    console.log(`merch mcp: tools/list of ${all.length} tools is ${size} bytes of JSON`);
    expect(size).toBeLessThan(8 * 1024);
  });

  it('--tools picks a subset', async () => {
    const session = await mcpSession(sandbox(), { tools: ['find_products', 'track_order'] });
    expect((await session.client.listTools()).tools.map((t) => t.name)).toEqual(['find_products', 'track_order']);
  });
});

describe('merch mcp: the read tools', () => {
  it('find_products finds custom and supplier products with the filters; get_product gives one with its attributes, or its parts', async () => {
    const session = await mcpSession(sandbox());
    const custom = await session.call('find_products', { limit: 5 });
    expect(dataOf(custom).products).toHaveLength(5);
    expect(textOf(custom)).toBe('5 custom products');
    const supplier = dataOf(await session.call('find_products', { kind: 'supplier', limit: 3 })).products;
    expect(supplier).toHaveLength(3);
    const name = String(supplier[0].name);
    const searched = dataOf(await session.call('find_products', { kind: 'supplier', search: name, limit: 3 })).products;
    expect(searched.map((p: any) => p.id)).toContain(supplier[0].id);

    const wrong = await session.call('find_products', { categories: '1' });
    expect(textOf(wrong)).toBe('error: categories: only for supplier products (kind "supplier")\nhint: use tags for custom products');
    const one = dataOf(await session.call('get_product', { id: 100001 }));
    expect(one.product).toMatchObject({ id: 100001, available_attributes: expect.any(Object) });
    const withParts = dataOf(await session.call('get_product', { id: supplier[0].id, kind: 'supplier' }));
    expect(withParts.product.id).toBe(supplier[0].id);
    expect(Array.isArray(withParts.parts)).toBe(true);
  });

  it('payment_methods lists the account\'s; list_orders, get_order and track_order read an order placed through MCP', async () => {
    const session = await mcpSession(sandbox(), { allowOrders: true });
    const methods = dataOf(await session.call('payment_methods')).payment_methods;
    expect(methods.length).toBeGreaterThan(0);
    const planned = dataOf(await session.call('plan_order', ORDER));
    const placed = dataOf(await session.call('place_order', { plan_id: planned.plan_id }));
    const id = placed.orders[0].order_id;
    const listed = dataOf(await session.call('list_orders', { limit: 100 })).orders;
    expect(listed.map((o: any) => o.id)).toContain(id);
    const order = dataOf(await session.call('get_order', { id }));
    expect(order.order).toMatchObject({ id, external_id: planned.external_id });
    const tracked = await session.call('track_order', { id });
    expect(dataOf(tracked)).toMatchObject({ shipments: [expect.objectContaining({ order_id: id, recipient_name: 'Ann Lee', tracking_number: null })], missing: [] });
    expect(textOf(tracked)).toMatch(new RegExp(`^order ${id}: 1 shipment \\(1 \\w+\\), 0 tracked$`));
    const unknown = await session.call('track_order', { id: 999999999 });
    expect(textOf(unknown)).toBe('error: no order 999999999');
  });

  it('design_link asks the design tool for a link, as merch design-link does', async () => {
    const session = await mcpSession(sandbox());
    const before = sandbox().requests.length;
    const link = await session.call('design_link', { sku: 'DT-000001', user_id: 'customer-42' });
    expect(dataOf(link).url).toMatch(/^https?:\/\//);
    expect(textOf(link)).toBe(`design link for DT-000001: ${dataOf(link).url}`);
    expect(sandbox().requests.slice(before).map((r) => `${r.method} ${r.path}`)).toContain('POST /design-tool/api/smartlink');
  });

  it('a failure is a tool error in the CLI\'s words: one line and its hint, no stack', async () => {
    const session = await mcpSession(sandbox());
    const missing = await session.call('get_order', { id: 999999999 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^error: .*\n?/);
    expect(textOf(missing)).not.toMatch(/\n\s+at /);
    const unsigned = await mcpSession(sandbox(), { env: { MERCH_TOKEN: 'not-the-token-secret-42' } });
    const refused = await unsigned.call('payment_methods');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^error: .*\nhint: /);
    expect(textOf(refused)).not.toContain('not-the-token-secret-42');
  });
});

describe('merch mcp: plan_order', () => {
  it('validates and prices an order exactly as orders create --dry-run, with the same external id; sends nothing', async () => {
    const dir = tempDir();
    const session = await mcpSession(sandbox(), { env: { MERCH_CONFIG_DIR: dir } });
    const before = sandbox().requests.length;
    const planned = await session.call('plan_order', ORDER);
    const data = dataOf(planned);
    expect(orderPosts(sandbox(), before)).toEqual([]);
    expect(data.plan_id).toMatch(/^plan_/);
    expect(textOf(planned)).toContain(data.plan_id);
    const dry = await merch(sandbox(), ['orders', 'create', '--product', '100001', '--attr', 'color=Navy', '--quantity', '2', '--recipient', 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Boston,state=MA,postal_code=02101,country=US', '--dry-run', '--json'], { env: { MERCH_CONFIG_DIR: dir } });
    expect(dry.code, dry.stderr).toBe(0);
    const cli = JSON.parse(dry.stdout);
    expect(data.plan.request).toEqual(cli.request);
    expect(data.external_id).toBe(cli.request.external_id);
    const { payment_method: _p, request: _r, ...priced } = data.plan;
    expect(priced).toEqual(cli.plan);
  });

  it('an order the rules refuse: a tool error naming the field, nothing sent, no plan', async () => {
    const session = await mcpSession(sandbox());
    const before = sandbox().requests.length;
    const refused = await session.call('plan_order', { items: [{ product: 100001, quantity: 1, attributes: { color: 'Nope' } }], recipient: RECIPIENT });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^error: .*color/);
    expect(textOf(refused)).toContain('hint: nothing was sent');
    expect(orderPosts(sandbox(), before)).toEqual([]);
    expect(session.desk.plans.size).toBe(0);
  });
});
