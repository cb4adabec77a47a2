import fc from 'fast-check';
import { beforeAll, describe, expect, it, test } from 'vitest';
import { offeredAttributes } from '../../../src/contract/attributes.js';
import type { OrderRequest } from '../../../src/contract/order-request.js';
import { compareOrder, type Offerings } from '../../../src/orders/create/order-content.js';
import { sandboxApi, useSandbox } from '../../support/sandbox.js';

// Found means the same order (issue 18.1): the comparison of a request with the service's
// record of an order, as a pure function. Unit cases on hand-written records, then a property
// against the sandbox's own records: an order compared with the record the service made of it
// is the same, and any single change to it is a difference.

type ShapeOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const ann = { first_name: 'Ann', last_name: 'Lee', line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const shirtOffers = offeredAttributes({ colors: [{ name: 'Navy' }, { name: 'Red' }], sizes: [{ name: 'S' }, { name: 'M' }] });
const mugOffers = offeredAttributes({ colors: [{ name: 'White' }] });
const offerings: Offerings = (product) => (product === 7 ? shirtOffers : product === 8 ? mugOffers : undefined);

const request = (): OrderRequest => ({
  payment_method_id: 'pm_1',
  line_items: [
    { id: 1, product: 7, quantity: 3, attributes: { color: 'Navy', size: 'M' } },
    { id: 2, product: 8, quantity: 1, attributes: {} },
  ],
  shipping_orders: [
    { recipient: { ...ann }, line_items: [{ id: 1, quantity: 1 }, { id: 2, quantity: 1 }] },
    { recipient: { ...ann, first_name: 'Bo', line_1: '2 High St' }, line_items: [{ id: 1, quantity: 2 }] },
  ],
});

const part = (product: number, color: string, size?: string) => ({ id: product * 100 + 1, product_id: product, variant: { color: { hex: '#000', name: color }, ...(size ? { size: { name: size } } : {}) } });

/** The service's record of request(), in the spec's shapes (2.4, 2.5), with its own line item ids. */
const record = (): any => ({
  id: 1001,
  external_id: 'x-1',
  line_items: [
    { id: 501, part: part(7, 'NAVY', 'm'), quantity: 3 },
    { id: 502, part: part(8, 'White'), quantity: 1 },
  ],
  shipping_orders: [
    { id: 9001, first_name: 'Ann', last_name: 'Lee', address: { line_1: '1 Main St', line_2: null, city: 'AUSTIN', state: 'TX', postal_code: '78701', country: 'US' }, line_items: [{ id: 501, quantity: 1 }, { id: 502, quantity: 1 }] },
    { id: 9002, first_name: 'Bo', last_name: 'Lee', address: { line_1: '2  High St', postal_code: '78701', country: 'us' }, line_items: [{ id: 501, part: part(7, 'Navy', 'M'), quantity: 2 }] },
  ],
});

describe('compareOrder', () => {
  test('the same order: case, spaces, the order of shipments, a single-valued attribute left out, a part on the line item or the share', () => {
    expect(compareOrder(request(), record(), offerings)).toEqual({ verdict: 'same' });
    const reordered = record();
    reordered.shipping_orders.reverse();
    expect(compareOrder(request(), reordered, offerings)).toEqual({ verdict: 'same' });
    // the recipient's names on its `recipient` object, the address as `shipping_address`
    const nested = record();
    const { first_name, last_name, address, ...rest } = nested.shipping_orders[0];
    nested.shipping_orders[0] = { ...rest, recipient: { first_name, last_name, shipping_address: address } };
    expect(compareOrder(request(), nested, offerings)).toEqual({ verdict: 'same' });
  });

  test('the first difference is named, by what it is and where', () => {
    const cases: [string, (r: OrderRequest) => void, string][] = [
      ['quantity', (r) => { r.line_items[0]!.quantity = 4; r.shipping_orders[1]!.line_items[0]!.quantity = 3; }, 'product 7 (color Navy, size M): quantity 4 here, 3 in that order'],
      ['attribute', (r) => void (r.line_items[0]!.attributes.size = 'S'), 'product 7 (color Navy, size S) here, not in that order'],
      ['product', (r) => void (r.line_items[1]!.product = 9), 'product 9 here, not in that order'],
      ['a line item more', (r) => void r.line_items.push({ id: 3, product: 8, quantity: 1, attributes: {} }), 'product 8 (color White): quantity 2 here, 1 in that order'],
      ['a postal code', (r) => void (r.shipping_orders[1]!.recipient.postal_code = '78702'), 'shipping order 2: recipient "Bo Lee, 2 High St, 78702, US" here, "Bo Lee, 2 High St, 78701, us" in that order'],
      ['a line 2', (r) => void (r.shipping_orders[0]!.recipient.line_2 = 'Apt 2'), 'shipping order 1: recipient "Ann Lee, 1 Main St, Apt 2, 78701, US" here'],
      ['a share', (r) => { r.shipping_orders[0]!.line_items = [{ id: 1, quantity: 2 }, { id: 2, quantity: 1 }]; r.shipping_orders[1]!.line_items = [{ id: 1, quantity: 1 }]; }, 'shipping order 1 (Ann Lee, 1 Main St, 78701, US): 2 x product 7 (color Navy, size M) + 1 x product 8 (color White) here, 1 x product 7 (color NAVY, size m) + 1 x product 8 (color White) in that order'],
      ['a shipping order less', (r) => { r.shipping_orders.pop(); r.line_items[0]!.quantity = 1; }, 'product 7 (color Navy, size M): quantity 1 here, 3 in that order'],
    ];
    for (const [name, change, difference] of cases) {
      const changed = request();
      change(changed);
      const verdict = compareOrder(changed, record(), offerings);
      expect(verdict.verdict, name).toBe('different');
      expect((verdict as { difference: string }).difference, name).toContain(difference);
    }
    // the city and the state are not compared (a service may spell them its own way)
    const city = request();
    city.shipping_orders[0]!.recipient.city = 'Round Rock';
    expect(compareOrder(city, record(), offerings)).toEqual({ verdict: 'same' });
  });

  test('a record without a field the comparison needs is not guessed at', () => {
    const cases: [string, (r: any) => void, string][] = [
      ['no line items', (r) => void delete r.line_items, 'line_items'],
      ['no product id', (r) => void delete r.line_items[1].part.product_id, 'line_items[1].part.product_id'],
      ['no variant', (r) => void delete r.line_items[0].part.variant, 'line_items[0].part.variant'],
      ['no address', (r) => void delete r.shipping_orders[1].address, 'shipping_orders[1].address'],
      ['no names', (r) => { delete r.shipping_orders[0].first_name; delete r.shipping_orders[0].last_name; }, 'shipping_orders[0].first_name'],
      ['a share without a part anywhere', (r) => void (r.shipping_orders[0].line_items[0].id = 999), 'shipping_orders[0].line_items[0].part'],
      ['no shipping orders', (r) => void (r.shipping_orders = null), 'shipping_orders'],
    ];
    for (const [name, change, missing] of cases) {
      const changed = record();
      change(changed);
      expect(compareOrder(request(), changed, offerings), name).toEqual({ verdict: 'incomparable', missing });
    }
  });
});

describe('compareOrder against the sandbox records', () => {
  const sandbox = useSandbox();
  let products: { id: number; available_attributes: Record<string, { name: string }[]> }[];
  let paymentMethod: string;
  let serial = 0;
  beforeAll(async () => {
    products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results;
    paymentMethod = (await sandboxApi(sandbox(), '/v1/payment-methods/')).body.card[0].id;
  });
  const sandboxOfferings: Offerings = (id) => {
    const product = products.find((p) => p.id === id);
    return product ? offeredAttributes(product.available_attributes) : undefined;
  };

  const shape = fc.record({
    items: fc.array(fc.record({ product: fc.nat(), color: fc.nat(), size: fc.nat() }), { minLength: 1, maxLength: 3 }),
    shares: fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
    line2: fc.boolean(),
  });
  const mutations = ['first_name', 'last_name', 'line_1', 'line_2', 'postal_code', 'country', 'product', 'attribute', 'quantity', 'move a unit', 'drop a shipment', 'add a shipment', 'add a line item', 'drop an attribute'] as const;

  function build(s: ShapeOf<typeof shape>): OrderRequest {
    const lineItems = s.items.map((it, i) => {
      const product = products[it.product % products.length]!;
      const { colors, sizes } = product.available_attributes;
      return { id: i + 1, product: product.id, quantity: 0, attributes: { color: colors![it.color % colors!.length]!.name, size: sizes![it.size % sizes!.length]!.name } };
    });
    const shipping = s.shares.map((shares, r) => {
      const items = lineItems.map((li, i) => ({ id: li.id, quantity: shares[i]! })).filter((x) => x.quantity > 0);
      if (items.length === 0) items.push({ id: 1, quantity: 1 });
      for (const item of items) lineItems[item.id - 1]!.quantity += item.quantity;
      return { recipient: { ...ann, first_name: `P${r}`, ...(s.line2 ? { line_2: `Unit ${r}` } : {}) }, line_items: items };
    });
    const used = lineItems.filter((li) => li.quantity > 0);
    return { payment_method_id: paymentMethod, line_items: used, shipping_orders: shipping };
  }

  /** One change that makes it another order, or undefined when this order does not allow it. */
  function mutate(body: OrderRequest, what: (typeof mutations)[number], n: number): boolean {
    const so = body.shipping_orders[n % body.shipping_orders.length]!;
    const li = body.line_items[n % body.line_items.length]!;
    switch (what) {
      case 'first_name': case 'last_name': case 'line_1': case 'postal_code': case 'country':
        so.recipient[what] = `${so.recipient[what]}x`;
        return true;
      case 'line_2':
        so.recipient.line_2 = so.recipient.line_2 ? undefined : 'Suite 9';
        return true;
      case 'product': {
        const other = products.find((p) => p.id !== li.product && p.available_attributes.colors!.some((c) => c.name === li.attributes.color) && p.available_attributes.sizes!.some((sz) => sz.name === li.attributes.size));
        if (!other) return false;
        li.product = other.id;
        return true;
      }
      case 'attribute': {
        const sizes = products.find((p) => p.id === li.product)!.available_attributes.sizes!;
        const other = sizes.find((sz) => sz.name.toLowerCase() !== li.attributes.size!.toLowerCase());
        if (!other) return false;
        li.attributes.size = other.name;
        return true;
      }
      case 'quantity':
        li.quantity += 1;
        so.line_items.push({ id: li.id, quantity: 1 });
        return true;
      case 'move a unit': {
        const from = so.line_items.find((x) => x.quantity > 1);
        const to = body.shipping_orders.find((other) => other !== so);
        if (!from || !to) return false;
        from.quantity -= 1;
        to.line_items.push({ id: from.id, quantity: 1 });
        return true;
      }
      case 'drop a shipment':
        if (body.shipping_orders.length < 2) return false;
        body.shipping_orders.splice(body.shipping_orders.indexOf(so), 1);
        return true;
      case 'add a shipment':
        body.shipping_orders.push({ recipient: { ...so.recipient, first_name: 'Extra' }, line_items: [{ id: li.id, quantity: 1 }] });
        li.quantity += 1;
        return true;
      case 'add a line item':
        body.line_items.push({ ...li, id: 99, quantity: 1 });
        so.line_items.push({ id: 99, quantity: 1 });
        return true;
      case 'drop an attribute':
        delete li.attributes.color;
        return true;
    }
  }

  it('an order is the same as the record the sandbox made of it; any single change is a difference', async () => {
    const reached = new Set<string>();
    await fc.assert(
      fc.asyncProperty(shape, fc.constantFrom(...mutations), fc.nat(), async (s, what, n) => {
        const body = build(s);
        const made = await sandboxApi(sandbox(), '/v1/orders/', { body: { ...body, external_id: `content-${serial++}` } });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        expect(compareOrder(body, made.body, sandboxOfferings)).toEqual({ verdict: 'same' });
        // as read back by GET, too
        const read = await sandboxApi(sandbox(), `/v1/orders/${made.body.id}`);
        expect(compareOrder(body, read.body, sandboxOfferings)).toEqual({ verdict: 'same' });
        const changed = structuredClone(body);
        if (!mutate(changed, what, n)) return;
        reached.add(what);
        const verdict = compareOrder(changed, made.body, sandboxOfferings);
        expect(verdict.verdict, `${what}: ${JSON.stringify(changed)}`).toBe('different');
      }),
      { numRuns: 150, seed: 18_001 },
    );
    expect(mutations.filter((m) => !reached.has(m))).toEqual([]);
  }, 60_000);
});
