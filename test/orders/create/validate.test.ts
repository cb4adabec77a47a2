import { describe, expect, test } from 'vitest';
import { buildOrder } from '../../../src/orders/create/builder.js';
import { parseRecipientsCsv } from '../../../src/orders/create/recipients-csv.js';
import { formatIssue, summariseIssues, validateOrder } from '../../../src/orders/create/validate.js';

const ann = { first_name: 'Ann', last_name: 'Lee', line_1: '1 Main St', city: 'Oslo', state: 'OS', postal_code: '0150', country: 'NO' };
const shirt: Record<string, unknown> = {
  colors: [{ hex: '#000080', name: 'Navy' }, { hex: '#ff0000', name: 'Red' }],
  sizes: [{ name: 'S' }, { name: 'M' }, { name: 'L' }],
};
const mug: Record<string, unknown> = { colors: [{ hex: '#fff', name: 'White' }], sizes: [] };
const products = new Map<number, Record<string, unknown> | null>([[7, shirt], [8, mug], [99, null]]);

function order(overrides: Record<string, unknown> = {}) {
  return {
    payment_method_id: 'pm_1',
    line_items: [{ id: 1, product: 7, quantity: 3, attributes: { size: 'M', color: 'Navy' } }],
    shipping_orders: [
      { recipient: ann, line_items: [{ id: 1, quantity: 1 }] },
      { recipient: { ...ann, first_name: 'Bo' }, line_items: [{ id: 1, quantity: 2 }] },
    ],
    ...overrides,
  };
}

function warnings(body: unknown, opts = { products }) {
  return validateOrder(body, opts).warnings.map((w) => `${w.path}: ${w.message}`);
}

function issues(body: unknown, opts = { products }) {
  const r = validateOrder(body, opts);
  expect(r.ok).toBe(false);
  return r.issues.map((i) => `${i.path}: ${i.message}`);
}

describe('validateOrder', () => {
  test('a valid order passes and is respelt as the product spells it', () => {
    const body = order({ line_items: [{ id: 1, product: 7, quantity: 3, attributes: { Size: 'm', color: 'NAVY' } }] });
    const r = validateOrder(body, { products });
    expect(r.issues).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.body!.line_items[0]!.attributes).toEqual({ size: 'M', color: 'Navy' });
  });

  test('rule 1: every line item fully accounted for by the shipping orders', () => {
    const short = order({
      shipping_orders: [{ recipient: ann, line_items: [{ id: 1, quantity: 2 }] }],
    });
    expect(issues(short)).toEqual([
      'line_items[0].quantity: is 3 but the shipping orders carry 2 of line item 1: every unit must be in exactly one shipping order',
    ]);
    const over = order({ shipping_orders: [{ recipient: ann, line_items: [{ id: 1, quantity: 4 }] }] });
    expect(issues(over)).toEqual([
      'line_items[0].quantity: is 3 but the shipping orders carry 4 of line item 1: every unit must be in exactly one shipping order',
    ]);
    const none = order({
      line_items: [
        { id: 1, product: 7, quantity: 3, attributes: { size: 'M', color: 'Navy' } },
        { id: 2, product: 8, quantity: 1, attributes: {} },
      ],
    });
    expect(issues(none)).toEqual(['line_items[1].quantity: line item 2 (quantity 1) is in no shipping order']);
  });

  test('rule 1 with line_items arrays shared by several shipping orders (as a list builds them): each counts where it is, and its findings are named at each place', () => {
    const one = [{ id: 1, quantity: 1 }];
    const shared = (quantity: number, refs: unknown[]) =>
      order({ line_items: [{ id: 1, product: 7, quantity, attributes: { size: 'M', color: 'Navy' } }], shipping_orders: [0, 1, 2].map(() => ({ recipient: ann, line_items: refs })) });
    expect(validateOrder(shared(3, one), { products }).ok).toBe(true);
    expect(issues(shared(2, one))).toEqual([
      'line_items[0].quantity: is 2 but the shipping orders carry 3 of line item 1: every unit must be in exactly one shipping order',
    ]);
    const twice = [{ id: 1, quantity: 1 }, { id: 1, quantity: 1 }];
    expect(warnings(shared(6, twice)).filter((w) => w.includes('listed twice'))).toEqual([0, 1, 2].map((s) => `shipping_orders[${s}].line_items[1].id: line item 1 is listed twice in this shipping order (also line_items[0]): the quantities add up`));
    expect(issues(shared(3, [{ id: 4, quantity: 1 }])).filter((i) => i.includes('refers to'))).toEqual(
      [0, 1, 2].map((s) => `shipping_orders[${s}].line_items[0].id: refers to line item 4, which the order does not have`),
    );
  });

  test('referenced line item ids must exist', () => {
    const body = order({
      shipping_orders: [
        { recipient: ann, line_items: [{ id: 1, quantity: 3 }] },
        { recipient: ann, line_items: [{ id: 4, quantity: 1 }] },
      ],
    });
    expect(issues(body)).toEqual(['shipping_orders[1].line_items[0].id: refers to line item 4, which the order does not have']);
  });

  test('line item ids must be unique; one listed twice in a shipping order is a warning (its quantities add up)', () => {
    const body = order({
      line_items: [
        { id: 1, product: 7, quantity: 3, attributes: { size: 'M', color: 'Navy' } },
        { id: 1, product: 8, quantity: 1, attributes: {} },
      ],
      shipping_orders: [{ recipient: ann, line_items: [{ id: 1, quantity: 1 }, { id: 1, quantity: 2 }] }],
    });
    expect(issues(body)).toEqual(['line_items[1].id: duplicate id 1 (also line_items[0].id)']);
    expect(warnings(body)).toEqual([
      'shipping_orders[0].line_items[1].id: line item 1 is listed twice in this shipping order (also line_items[0]): the quantities add up',
    ]);
  });

  test('quantities must be positive integers', () => {
    const body = order({
      line_items: [{ id: 1, product: 7, quantity: 0, attributes: { size: 'M', color: 'Navy' } }],
      shipping_orders: [{ recipient: ann, line_items: [{ id: 1, quantity: 1.5 }] }],
    });
    expect(issues(body)).toEqual([
      'line_items[0].quantity: must be a positive integer',
      'shipping_orders[0].line_items[0].quantity: must be a positive integer',
    ]);
    expect(issues(order({ line_items: [{ id: 1, product: 7, quantity: '3', attributes: { size: 'M', color: 'Navy' } }] }))).toEqual([
      'line_items[0].quantity: must be a positive integer',
    ]);
  });

  // Which address fields are required is not shown by the interface, and Django REST
  // Framework ignores unknown keys: neither refuses the order, both are warned about.
  test('a recipient without a field a parcel needs, or with an unknown key, is a warning, not a refusal', () => {
    const { postal_code: _p, ...noPostal } = ann;
    const body = order({
      shipping_orders: [
        { recipient: ann, line_items: [{ id: 1, quantity: 1 }] },
        { recipient: { ...noPostal, city: '  ', zip: '0150' }, line_items: [{ id: 1, quantity: 2 }] },
      ],
    });
    const result = validateOrder(body, { products });
    expect(result.ok).toBe(true);
    expect(result.body!.shipping_orders[1]!.recipient).not.toHaveProperty('zip');
    expect(warnings(body)).toEqual([
      'shipping_orders[1].recipient.zip: is not part of the interface: the service will ignore it',
      'shipping_orders[1].recipient.city: is empty: the service may refuse the order, or the parcel may not arrive',
      'shipping_orders[1].recipient.postal_code: is empty: the service may refuse the order, or the parcel may not arrive',
    ]);
    expect(issues(order({ billing_address: { ...ann, country: 1 } }))).toEqual(['billing_address.country: must be a string']);
  });

  test('a billing address without names is accepted, as the service accepts it', () => {
    const r = validateOrder(order({ billing_address: { line_1: '1 Main St', city: 'Oslo' } }), { products });
    expect(r.ok).toBe(true);
    expect(r.warnings).toEqual([]);
  });

  test('required top-level fields', () => {
    expect(issues({}, { products })).toEqual([
      'payment_method_id: is required',
      'line_items: is required',
      'shipping_orders: is required',
    ]);
    expect(issues(order({ line_items: [], shipping_orders: [] }))).toEqual([
      'line_items: must have at least one line item',
      'shipping_orders: must have at least one shipping order',
    ]);
    expect(issues(order({ shipping_orders: [{ recipient: ann, line_items: [] }] }))).toEqual([
      'shipping_orders[0].line_items: must list at least one line item',
      'line_items[0].quantity: line item 1 (quantity 3) is in no shipping order',
    ]);
  });

  test('attribute names and values must be offered by the product', () => {
    const body = order({
      line_items: [
        { id: 1, product: 7, quantity: 1, attributes: { size: 'XXL', color: 'Navy', fit: 'slim' } },
        { id: 2, product: 8, quantity: 1, attributes: { size: 'M' } },
        { id: 3, product: 99, quantity: 1, attributes: {} },
        { id: 4, product: 7, quantity: 1, attributes: { color: 'Red' } },
      ],
      shipping_orders: [{ recipient: ann, line_items: [1, 2, 3, 4].map((id) => ({ id, quantity: 1 })) }],
    });
    expect(issues(body)).toEqual([
      'line_items[0].attributes.size: "XXL" is not a size of product 7 (offered: S, M, L)',
      'line_items[0].attributes.fit: product 7 has no attribute "fit" (it offers: color, size)',
      'line_items[1].attributes.size: product 8 has no attribute "size" (it offers: color)',
      'line_items[2].product: custom product 99 does not exist (or is not in this account)',
      'line_items[3].attributes.size: is required: product 7 comes in S, M, L',
    ]);
    // a product with a single color does not require choosing it
    const mugOnly = order({
      line_items: [{ id: 1, product: 8, quantity: 3, attributes: {} }],
    });
    expect(validateOrder(mugOnly, { products }).ok).toBe(true);
    // without the product map, attributes are not checked
    expect(validateOrder(body, {}).ok).toBe(true);
  });

  test('CSV-origin issues name the row and column', () => {
    const csv = parseRecipientsCsv(
      'first_name,last_name,line_1,city,state,postal_code,country,size\n' +
        'Ann,Lee,a,Oslo,OS,1,NO,M\n' +
        'Bo,Ek,b,Oslo,OS,2,NO,XXL\n' +
        'Cy,Ek,c,Oslo,OS,,NO,L\n',
      'recipients.csv',
    );
    const built = buildOrder({ items: [{ product: 7, attributes: { color: 'Navy' } }], recipients: csv, paymentMethodId: 'pm_1' });
    const r = validateOrder(built.body, { products, sources: built.sources });
    expect(r.issues.map(formatIssue)).toEqual(['recipients.csv row 3, column size: "XXL" is not a size of product 7 (offered: S, M, L)']);
    // a missing postal code is the service's to refuse: a warning naming the row and column
    expect(r.warnings.map(formatIssue)).toEqual([
      'recipients.csv row 4, column postal_code: is empty: the service may refuse the order, or the parcel may not arrive',
    ]);
    expect(r.warnings[0]!.path).toBe('shipping_orders[2].recipient.postal_code');
    expect(summariseIssues([...r.issues, ...r.warnings])).toBe(
      'recipients.csv row 3, column size: "XXL" is not a size of product 7 (offered: S, M, L) (and 1 other problem)',
    );
    // an inherited --attr is named where it came from (the flag), not as a CSV column
    const bad = buildOrder({ items: [{ product: 7, attributes: { color: 'Teal' }, origin: (f) => `--attr ${f}` }], recipients: csv, paymentMethodId: 'pm_1' });
    expect(validateOrder(bad.body, { products, sources: bad.sources }).issues.map(formatIssue)).toContain(
      '--attr color: "Teal" is not a color of product 7 (offered: Navy, Red)',
    );
  });

  test('flag-origin issues name the flag and key, as the pieces say where they came from', () => {
    const key = (flag: string) => (f: string) => `${flag}, key ${f}`;
    const built = buildOrder({
      items: [{ product: 7, quantity: 1, attributes: { size: 'Q', color: 'Red' }, origin: key('--item #1') }],
      recipient: { ...ann, country: '' },
      billing: { ...ann, state: '' },
      paymentMethodId: 'pm_1',
      origins: { recipient: key('--recipient'), billing: key('--billing') },
    });
    const r = validateOrder(built.body, { products, sources: built.sources });
    expect(r.issues.map(formatIssue)).toEqual(['--item #1, key size: "Q" is not a size of product 7 (offered: S, M, L)']);
    expect(r.warnings.map(formatIssue)).toEqual([
      '--recipient, key country: is empty: the service may refuse the order, or the parcel may not arrive',
    ]);
    expect(summariseIssues([])).toBe('');
  });
});
