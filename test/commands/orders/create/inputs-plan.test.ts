import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { CustomProduct } from '../../../../src/api/schemas.js';
import type { OrderRequest } from '../../../../src/contract/order-request.js';
import { UsageError } from '../../../../src/errors.js';
import { piecesFromFlags } from '../../../../src/commands/orders/create/inputs.js';
import { formatPlan } from '../../../../src/commands/orders/create/plan-view.js';
import { pricePlan } from '../../../../src/orders/create/plan.js';
import { tempDir } from '../../../support/temp-dir.js';

const none = () => Readable.from([]);

async function usage(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return (err as Error).message;
}

describe('piecesFromFlags', () => {
  test('--product, --quantity and --attr make one item; --item adds named ones', async () => {
    const pieces = await piecesFromFlags(
      { product: '7', quantity: '2', attr: ['size=M', 'color = Navy Blue'], item: ['product=8,quantity=1,color="Red, dark"'] },
      none(),
    );
    expect(pieces.items!.map(({ origin: _o, ...item }) => item)).toEqual([
      { product: 7, quantity: 2, attributes: { size: 'M', color: 'Navy Blue' } },
      { product: 8, quantity: 1, attributes: { color: 'Red, dark' } },
    ]);
    // each item names where its fields came from
    expect(pieces.items!.map((item) => [item.origin!('product'), item.origin!('size')])).toEqual([
      ['--product', '--attr size'],
      ['--item #1, key product', '--item #1, key size'],
    ]);
  });

  test('stdin JSON with a BOM, and key=value recipients', async () => {
    const pieces = await piecesFromFlags(
      { file: '-', recipient: 'first_name=Ann,line_1="1 Main, Apt 2"', billing: 'city=Oslo', externalId: ' e1 ' },
      Readable.from([Buffer.from('\uFEFF{"payment_method_id":"pm_1"}')]),
    );
    expect(pieces.file).toEqual({ payment_method_id: 'pm_1' });
    expect(pieces.fileName).toBe('standard input (--file -)');
    expect(pieces.recipient).toEqual({ first_name: 'Ann', line_1: '1 Main, Apt 2' });
    expect(pieces.billing).toEqual({ city: 'Oslo' });
    expect(pieces.externalId).toBe('e1');
  });

  test('flag errors are usage errors naming the flag', async () => {
    expect(await usage(piecesFromFlags({ product: 'x' }, none()))).toBe('--product: must be a positive integer, got "x"');
    expect(await usage(piecesFromFlags({ quantity: '2' }, none()))).toBe('--quantity needs --product');
    expect(await usage(piecesFromFlags({ product: '1', attr: ['size'] }, none()))).toBe('--attr: expected NAME=VALUE, got "size"');
    expect(await usage(piecesFromFlags({ product: '1', attr: ['size=M', 'size=L'] }, none()))).toBe('--attr size: is given twice');
    // one attribute however it is spelt (issue 19.6j): the second value would silently win
    expect(await usage(piecesFromFlags({ product: '1', attr: ['size=M', 'Size=L'] }, none()))).toBe('--attr Size: is given twice (also as size)');
    expect(await usage(piecesFromFlags({ product: '1', attr: ['size=M', 'sizes=L'] }, none()))).toBe('--attr sizes: is given twice (also as size)');
    expect(await usage(piecesFromFlags({ item: ['quantity=1'] }, none()))).toBe('--item #1: key "product" is required (product=ID)');
    expect(await usage(piecesFromFlags({ item: ['product=1', 'product=2,quantity=0'] }, none()))).toBe(
      '--item #2: key "quantity": must be a positive integer, got "0"',
    );
    expect(await usage(piecesFromFlags({ billing: 'city' }, none()))).toBe('--billing: key "city": has no value (expected key=value)');
    expect(await usage(piecesFromFlags({ externalId: ' ' }, none()))).toBe('--external-id: must not be empty');
    expect(await usage(piecesFromFlags({ file: '-' }, Readable.from([Buffer.from('{nope')])))).toMatch(/^--file -: not valid JSON/);
    expect(await usage(piecesFromFlags({ file: '/nonexistent/x.json' }, none()))).toBe('--file: cannot read /nonexistent/x.json: no such file or directory');
    expect(await usage(piecesFromFlags({ recipients: '/nonexistent/r.csv' }, none()))).toBe('--recipients: cannot read /nonexistent/r.csv: no such file or directory');
    const dir = tempDir('merch-inputs-');
    writeFileSync(join(dir, 'r.csv'), 'name,size\nAnn,M\n');
    expect(await usage(piecesFromFlags({ recipients: join(dir, 'r.csv') }, none()))).toContain('r.csv row 1: the header names no recipient field');
  });
});

describe('pricePlan', () => {
  const product = (id: number, amount: number, display: string, currency = 'USD', extra: Record<string, unknown> = {}) =>
    ({ id, name: `P${id}`, prices: { currency, price: { amount, display } }, minimum: 1, sellable: true, design_status: { id: 4, name: 'Approved' }, ...extra }) as unknown as CustomProduct;
  const body: OrderRequest = {
    payment_method_id: 'pm',
    line_items: [
      { id: 1, product: 7, quantity: 3, attributes: { color: 'Navy', size: 'M' } },
      { id: 2, product: 8, quantity: 2, attributes: {} },
    ],
    shipping_orders: [
      { recipient: { first_name: 'Ann', last_name: 'Lee', city: 'Oslo', country: 'NO' }, line_items: [{ id: 1, quantity: 3 }] },
      { recipient: { first_name: 'Bo', city: 'Oslo' }, line_items: [{ id: 2, quantity: 2 }] },
    ],
  };

  test('unit prices from the products, line subtotals and the subtotal as money objects; no shipping or tax', () => {
    const plan = pricePlan(body, new Map([[7, product(7, 1250, '12.50')], [8, product(8, 999, '9.99')]]));
    expect(plan.line_items).toEqual([
      { id: 1, product: 7, name: 'P7', variant: 'Navy / M', quantity: 3, unit_price: { currency: 'USD', amount: 1250, display: '12.50' }, subtotal: { currency: 'USD', amount: 3750, display: '37.50' } },
      { id: 2, product: 8, name: 'P8', variant: '', quantity: 2, unit_price: { currency: 'USD', amount: 999, display: '9.99' }, subtotal: { currency: 'USD', amount: 1998, display: '19.98' } },
    ]);
    expect(plan.subtotal).toEqual({ currency: 'USD', amount: 5748, display: '57.48' });
    expect(plan.shipments).toBe(2);
    expect(plan.warnings).toEqual([]);
    const text = formatPlan({ columns: 80, color: false }, plan, body, 'visa ending 4242 pm_1');
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(text).toContain('Shipments: 2 (one per recipient)');
    expect(text).toContain('  Ann Lee, Oslo, NO: item 1 x 3');
    expect(text).toContain('Subtotal: 57.48 USD');
    expect(text).toContain('Shipping and tax are computed by the service when the order is created.');
    expect(text).toContain('Payment method: visa ending 4242 pm_1');
  });

  test('on a narrow terminal the product name gives way, never the product id (issue 19.6j)', () => {
    const long = (id: number) => ({ ...product(id, 1250, '12.50'), name: 'The Very Long Name Of A Heavyweight Sticker Product' }) as unknown as CustomProduct;
    const text = formatPlan({ columns: 60, color: false }, pricePlan(body, new Map([[7, long(7)], [8, long(8)]])), body);
    const [head, first, second] = text.split('\n');
    expect(head).toMatch(/^Line\s+Product\s+Name/);
    expect(first).toMatch(/^1\s+7\s+The Ve/);
    expect(second).toMatch(/^2\s+8\s+The Ve/);
    expect(first).toContain('…');
    expect(Math.max(...[head!, first!, second!].map((line) => line.length))).toBeLessThanOrEqual(60);
  });

  test('an unknown price or a second currency makes the subtotal unknown rather than wrong', () => {
    expect(pricePlan(body, new Map([[7, product(7, 1250, '12.50')]])).subtotal).toBeNull();
    expect(pricePlan(body, new Map([[7, product(7, 1250, '12.50')], [8, product(8, 10, '10', 'EUR')]])).subtotal).toBeNull();
  });

  test('warns (never refuses) below a minimum, for a product not sellable, and for a design not approved', () => {
    const plan = pricePlan(body, new Map([
      [7, product(7, 1250, '12.50', 'USD', { minimum: 12 })],
      [8, product(8, 999, '9.99', 'USD', { sellable: false, design_status: { id: 2, name: 'In Review' } })],
    ]));
    expect(plan.warnings).toEqual([
      'P7 (7): 3 ordered, below its minimum of 12',
      'P8 (8) is not sellable',
      'P8 (8): its design is not approved (In Review)',
    ]);
    expect(formatPlan({ columns: 80, color: false }, plan, body)).toContain('warning: P7 (7): 3 ordered, below its minimum of 12');
  });

  test('the minimum counts all line items of a product together', () => {
    const two: OrderRequest = { ...body, line_items: [body.line_items[0]!, { ...body.line_items[0]!, id: 2, quantity: 9 }] };
    expect(pricePlan(two, new Map([[7, product(7, 1250, '12.50', 'USD', { minimum: 12 })]])).warnings).toEqual([]);
  });
});
