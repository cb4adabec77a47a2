import { describe, expect, test } from 'vitest';
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
