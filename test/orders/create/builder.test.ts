import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readOrderRequest } from '../../../src/contract/order-request.js';
import { BuildError, buildOrder, withPaymentMethod } from '../../../src/orders/create/builder.js';
import { parseRecipientsCsv } from '../../../src/orders/create/recipients-csv.js';
import { validateOrder } from '../../../src/orders/create/validate.js';

const HEADER = 'first_name,last_name,line_1,city,state,postal_code,country';
const ann = { first_name: 'Ann', last_name: 'Lee', line_1: '1 Main St', city: 'Oslo', state: 'OS', postal_code: '0150', country: 'NO' };
const bo = { ...ann, first_name: 'Bo' };

function csv(body: string) {
  return parseRecipientsCsv(`${HEADER}${body}`, 'recipients.csv');
}

describe('buildOrder from a recipients CSV', () => {
  test('groups rows into one line item per (product, attributes), first-seen ids, one shipping order per row', () => {
    const rows = csv(
      ',size,color,quantity\n' +
        'Ann,Lee,a,Oslo,OS,1,NO,M,Navy,\n' +
        'Bo,Ek,b,Oslo,OS,2,NO,L,Navy,2\n' +
        'Cy,Ek,c,Oslo,OS,3,NO,m,navy,3\n' + // same as Ann's, other case
        'Di,Ek,d,Oslo,OS,4,NO,M,Red,\n',
    );
    const { body, missing } = buildOrder({ items: [{ product: 7, attributes: {} }], recipients: rows, paymentMethodId: 'pm_1' });
    expect(missing).toEqual([]);
    expect(body.line_items).toEqual([
      { id: 1, product: 7, quantity: 4, attributes: { size: 'M', color: 'Navy' } },
      { id: 2, product: 7, quantity: 2, attributes: { size: 'L', color: 'Navy' } },
      { id: 3, product: 7, quantity: 1, attributes: { size: 'M', color: 'Red' } },
    ]);
    const sos = body.shipping_orders as { recipient: Record<string, string>; line_items: unknown[] }[];
    expect(sos.map((s) => [s.recipient.first_name, s.line_items])).toEqual([
      ['Ann', [{ id: 1, quantity: 1 }]],
      ['Bo', [{ id: 2, quantity: 2 }]],
      ['Cy', [{ id: 1, quantity: 3 }]],
      ['Di', [{ id: 3, quantity: 1 }]],
    ]);
    expect(sos[1]!.recipient).toEqual({ first_name: 'Bo', last_name: 'Ek', line_1: 'b', city: 'Oslo', state: 'OS', postal_code: '2', country: 'NO' });
    // quantities add up by construction
    expect(validateOrder(body).ok).toBe(true);
  });

  test('the product column, --quantity as the per-recipient default, --attr inherited unless the row sets it', () => {
    const rows = csv(',product,size\nAnn,Lee,a,Oslo,OS,1,NO,,\nBo,Ek,b,Oslo,OS,2,NO,9,S\nCy,Ek,c,Oslo,OS,3,NO,,XL\n');
    const { body } = buildOrder({
      items: [{ product: 7, quantity: 2, attributes: { color: 'Navy', size: 'M' } }],
      recipients: rows,
    });
    expect(body.line_items).toEqual([
      { id: 1, product: 7, quantity: 2, attributes: { color: 'Navy', size: 'M' } },
      { id: 2, product: 9, quantity: 2, attributes: { size: 'S' } },
      { id: 3, product: 7, quantity: 2, attributes: { color: 'Navy', size: 'XL' } },
    ]);
  });

  test('a file line item serves as the CSV default product; the file keeps billing and payment', () => {
    const file = {
      payment_method_id: 'pm_file',
      billing_address: ann,
      line_items: [{ id: 5, product: 3, quantity: 10, attributes: { color: 'Red' } }],
      shipping_orders: [{ recipient: ann, line_items: [{ id: 5, quantity: 10 }] }],
    };
    const { body } = buildOrder({ file, recipients: csv('\nAnn,Lee,a,Oslo,OS,1,NO\nBo,Ek,b,Oslo,OS,2,NO\n') });
    expect(body.payment_method_id).toBe('pm_file');
    expect(body.billing_address).toEqual(ann);
    expect(body.line_items).toEqual([{ id: 1, product: 3, quantity: 2, attributes: { color: 'Red' } }]);
    expect((body.shipping_orders as unknown[]).length).toBe(2);
  });

  test('rows without a product, and several items with a CSV, are build errors naming where', () => {
    expect(() => buildOrder({ recipients: csv('\nAnn,Lee,a,Oslo,OS,1,NO\n') })).toThrow(new BuildError('row-without-product', 'recipients.csv row 2: no product', 'recipients.csv'));
    expect(() => buildOrder({ recipients: csv(',product\nAnn,Lee,a,Oslo,OS,1,NO,4\nBo,Ek,b,Oslo,OS,1,NO,\n') })).toThrow(
      'recipients.csv row 3, column product: no product',
    );
    expect(() =>
      buildOrder({
        items: [
          { product: 1, quantity: 1, attributes: {} },
          { product: 2, quantity: 1, attributes: {} },
        ],
        recipients: csv('\nAnn,Lee,a,Oslo,OS,1,NO\n'),
      }),
    ).toThrow('each recipient of recipients.csv gets one product, but 2 items were given');
    expect(() => buildOrder({ recipient: ann, recipients: csv('\nAnn,Lee,a,Oslo,OS,1,NO\n') })).toThrow('one recipient and a list of recipients cannot both be given');
  });

  test('a finding on a row is the row and column that should give it, even when --attr gives others (issue 19.6c)', () => {
    const attr = (f: string) => `--attr ${f}`;
    const rows = csv(',size\nAnn,Lee,a,Oslo,OS,1,NO,M\nBo,Ek,b,Oslo,OS,2,NO,\n');
    const built = buildOrder({ items: [{ product: 7, attributes: { color: 'Navy' }, origin: attr }], recipients: rows, paymentMethodId: 'pm_1' });
    const products = new Map([[7, { colors: [{ name: 'Navy' }], sizes: [{ name: 'S' }, { name: 'M' }] } as Record<string, unknown>]]);
    const result = validateOrder(built.body, { products, sources: built.sources });
    expect(result.ok).toBe(false);
    // Bo's row has no size: blamed on its cell, not on --attr size (which was never given)
    expect(result.issues.map((i) => `${i.where}: ${i.message}`)).toEqual(['recipients.csv row 3, column size: is required: product 7 comes in S, M']);
    // a bad value --attr gave is still blamed on --attr
    const bad = buildOrder({ items: [{ product: 7, attributes: { color: 'Red' }, origin: attr }], recipients: rows, paymentMethodId: 'pm_1' });
    const issues = validateOrder(bad.body, { products, sources: bad.sources }).issues.map((i) => i.where);
    expect(issues).toContain('--attr color');
    // warnings too: a row without a postal code is named by its row and column
    const warned = buildOrder({ items: [{ product: 7, attributes: { color: 'Navy', size: 'M' }, origin: attr }], recipients: csv('\nAnn,Lee,a,Oslo,OS,,NO\n'), paymentMethodId: 'pm_1' });
    expect(validateOrder(warned.body, { products, sources: warned.sources }).warnings.map((w) => w.where)).toContain('recipients.csv row 2, column postal_code');
  });
});

test('withPaymentMethod: the order buildOrder makes with that payment method, its rows not built again', () => {
  const pieces = { items: [{ product: 7, attributes: { size: 'M' } }], recipients: csv(',size\nAnn,Lee,a,Oslo,OS,1,NO,\nBo,Ek,b,Oslo,OS,2,NO,L\n'), externalId: 'run-1' };
  const built = buildOrder(pieces);
  const paid = withPaymentMethod(built, 'pm_9');
  const rebuilt = buildOrder({ ...pieces, paymentMethodId: 'pm_9' });
  expect(paid.body).toEqual(rebuilt.body);
  expect(paid.missing).toEqual(rebuilt.missing);
  expect(paid.sources).toBe(built.sources);
  expect(paid.body.shipping_orders).toBe(built.body.shipping_orders);
  expect(built.body).not.toHaveProperty('payment_method_id');
});

describe('buildOrder from flags and files', () => {
  test('items and one recipient: one shipping order carrying every item in full', () => {
    const { body, missing } = buildOrder({
      items: [
        { product: 7, quantity: 3, attributes: { size: 'M' } },
        { product: 8, quantity: 1, attributes: {} },
      ],
      recipient: ann,
      paymentMethodId: 'pm_1',
      externalId: 'ext-1',
    });
    expect(missing).toEqual([]);
    expect(body).toEqual({
      external_id: 'ext-1',
      payment_method_id: 'pm_1',
      line_items: [
        { id: 1, product: 7, quantity: 3, attributes: { size: 'M' } },
        { id: 2, product: 8, quantity: 1, attributes: {} },
      ],
      shipping_orders: [{ recipient: ann, line_items: [{ id: 1, quantity: 3 }, { id: 2, quantity: 1 }] }],
    });
  });

  test('flags override the file', () => {
    const file = {
      external_id: 'from-file',
      payment_method_id: 'pm_file',
      line_items: [{ id: 1, product: 3, quantity: 2, attributes: {} }],
      shipping_orders: [{ recipient: ann, line_items: [{ id: 1, quantity: 2 }] }],
    };
    const byFile = buildOrder({ file });
    expect(byFile.body).toEqual(file);
    expect(byFile.body).not.toBe(file);

    const over = buildOrder({ file, externalId: 'flag', paymentMethodId: 'pm_flag', billing: bo, recipient: bo });
    expect(over.body.external_id).toBe('flag');
    expect(over.body.payment_method_id).toBe('pm_flag');
    expect(over.body.billing_address).toEqual(bo);
    expect(over.body.line_items).toEqual(file.line_items);
    expect(over.body.shipping_orders).toEqual([{ recipient: bo, line_items: [{ id: 1, quantity: 2 }] }]);

    // items from flags keep the file's single recipient
    const items = buildOrder({ file, items: [{ product: 9, quantity: 4, attributes: {} }] });
    expect(items.body.line_items).toEqual([{ id: 1, product: 9, quantity: 4, attributes: {} }]);
    expect(items.body.shipping_orders).toEqual([{ recipient: ann, line_items: [{ id: 1, quantity: 4 }] }]);
  });

  test('items replacing a file with several shipping orders need a recipient', () => {
    const file = {
      line_items: [{ id: 1, product: 3, quantity: 2 }],
      shipping_orders: [
        { recipient: ann, line_items: [{ id: 1, quantity: 1 }] },
        { recipient: bo, line_items: [{ id: 1, quantity: 1 }] },
      ],
    };
    expect(() => buildOrder({ file, fileName: 'order.json', items: [{ product: 9, quantity: 1, attributes: {} }] })).toThrow(
      'the items given replace the line items of order.json, whose 2 shipping orders refer to them',
    );
  });

  test('a file that is not an object is a build error', () => {
    expect(() => buildOrder({ file: [1], fileName: '-' })).toThrow('-: expected a JSON object');
  });

  test('missing pieces are named as pieces, and by where the item came from (the builder names no flag)', () => {
    expect(buildOrder({}).missing).toEqual([{ piece: 'line items' }, { piece: 'recipients' }]);
    expect(buildOrder({ items: [{ product: 1, attributes: {} }] }).missing).toEqual([{ piece: 'quantity', item: 0, origin: undefined }, { piece: 'recipients' }]);
    expect(buildOrder({ recipient: ann }).missing).toEqual([{ piece: 'line items' }]);
    expect(buildOrder({ items: [{ product: 1, attributes: {}, origin: (f) => `--item #1, key ${f}` }], recipient: ann }).missing).toEqual([
      { piece: 'quantity', item: 0, origin: '--item #1, key quantity' },
    ]);
  });
});

// A recipients list's shipping orders are marked as made in the shape order-request.ts
// reads (shapedByConstruction), and the reading then takes them as they are instead of
// going through 10,000 of them. Held here: for any list, the body read with the mark is the
// body read from an unmarked copy, with the same issues.
describe('the shipping orders of a list, read as they are made', () => {
  const FIELDS = ['first_name', 'last_name', 'email', 'line_1', 'city', 'state', 'postal_code', 'country'] as const;
  const cell = fc.oneof(fc.constant(''), fc.constant('  '), fc.string({ maxLength: 6 }), fc.constant('a, "b"'), fc.constant('Zoë ✓'));
  const list = fc
    .record({
      // some recipient fields, in any order, and maybe a quantity and an attribute column
      fields: fc.shuffledSubarray([...FIELDS], { minLength: 1 }),
      quantity: fc.boolean(),
      size: fc.boolean(),
      rows: fc.array(fc.record({ cells: fc.array(cell, { minLength: 8, maxLength: 8 }), quantity: fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 3 }).map(String)), size: fc.constantFrom('', 'M', 'm', 'L') }), { minLength: 1, maxLength: 6 }),
      // the base item's quantity may be anything a --file gives
      baseQuantity: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 4 }), fc.constantFrom(0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2)),
    })
    .map(({ fields, quantity, size, rows, baseQuantity }) => {
      const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
      const header = [...fields, ...(quantity ? ['quantity'] : []), ...(size ? ['size'] : [])].join(',');
      const lines = rows.map((r) => [...fields.map((_, i) => quote(r.cells[i]!)), ...(quantity ? [r.quantity] : []), ...(size ? [r.size] : [])].join(','));
      return { text: `${header}\n${lines.join('\n')}\n`, baseQuantity };
    });

  test('the reading of a marked list equals the reading of an unmarked copy', () => {
    fc.assert(
      fc.property(list, ({ text, baseQuantity }) => {
        let recipients;
        try {
          recipients = parseRecipientsCsv(text, 'recipients.csv');
        } catch {
          return; // a list with no recipient row: nothing is built
        }
        if (recipients.rows.length === 0) return;
        const { body } = buildOrder({ items: [{ product: 7, ...(baseQuantity === undefined ? {} : { quantity: baseQuantity }), attributes: {} }], recipients, paymentMethodId: 'pm_1' });
        const copy = JSON.parse(JSON.stringify(body)) as unknown;
        expect(readOrderRequest(body)).toEqual(readOrderRequest(copy));
        expect(JSON.stringify(readOrderRequest(body).body)).toBe(JSON.stringify(readOrderRequest(copy).body));
      }),
      { numRuns: 500 },
    );
  });

  test('a list whose recipient columns are out of order, or a quantity that is not a positive whole number, is read through', () => {
    const outOfOrder = buildOrder({ items: [{ product: 7, attributes: {} }], recipients: parseRecipientsCsv('last_name,first_name\nLee,Ann\n', 'r.csv'), paymentMethodId: 'pm_1' });
    // read through: the recipient comes back in the interface's order
    expect(Object.keys(readOrderRequest(outOfOrder.body).body!.shipping_orders[0]!.recipient)).toEqual(['first_name', 'last_name']);
    const zero = buildOrder({ items: [{ product: 7, quantity: 0, attributes: {} }], recipients: parseRecipientsCsv('first_name\nAnn\n', 'r.csv'), paymentMethodId: 'pm_1' });
    expect(readOrderRequest(zero.body).issues).toContainEqual({ path: ['shipping_orders', 0, 'line_items', 0, 'quantity'], message: 'must be a positive integer' });
  });

  test('a marked list is taken as it is: a shipping order changed after it was made is not read again', () => {
    const { body } = buildOrder({ items: [{ product: 7, attributes: {} }], recipients: parseRecipientsCsv('first_name,last_name\nAnn,Lee\n', 'r.csv'), paymentMethodId: 'pm_1' });
    (body.shipping_orders as { recipient: unknown }[])[0]!.recipient = 'not an address';
    expect(readOrderRequest(body).issues).toEqual([]);
    expect(readOrderRequest(JSON.parse(JSON.stringify(body))).issues).toEqual([{ path: ['shipping_orders', 0, 'recipient'], message: 'must be an object' }]);
  });
});
