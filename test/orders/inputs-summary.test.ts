import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { CustomProduct } from '../../src/api/schemas.js';
import type { OrderRequest } from '../../src/contract/order-request.js';
import { UsageError } from '../../src/errors.js';
import { piecesFromFlags } from '../../src/orders/inputs.js';
import { formatSummary, summarise } from '../../src/orders/summary.js';

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
    expect(pieces.items).toEqual([
      { product: 7, quantity: 2, attributes: { size: 'M', color: 'Navy Blue' } },
      { product: 8, quantity: 1, attributes: { color: 'Red, dark' }, flag: '--item #1' },
    ]);
  });

  test('stdin JSON with a BOM, and key=value recipients', async () => {
    const pieces = await piecesFromFlags(
      { file: '-', recipient: 'first_name=Ann,line_1="1 Main, Apt 2"', billing: 'city=Oslo', externalId: ' e1 ' },
      Readable.from([Buffer.from('\uFEFF{"payment_method_id":"pm_1"}')]),
    );
    expect(pieces.file).toEqual({ payment_method_id: 'pm_1' });
    expect(pieces.fileName).toBe('-');
    expect(pieces.recipient).toEqual({ first_name: 'Ann', line_1: '1 Main, Apt 2' });
    expect(pieces.billing).toEqual({ city: 'Oslo' });
    expect(pieces.externalId).toBe('e1');
  });

  test('flag errors are usage errors naming the flag', async () => {
    expect(await usage(piecesFromFlags({ product: 'x' }, none()))).toBe('--product: must be a positive integer, got "x"');
    expect(await usage(piecesFromFlags({ quantity: '2' }, none()))).toBe('--quantity needs --product');
    expect(await usage(piecesFromFlags({ product: '1', attr: ['size'] }, none()))).toBe('--attr: expected NAME=VALUE, got "size"');
    expect(await usage(piecesFromFlags({ product: '1', attr: ['size=M', 'size=L'] }, none()))).toBe('--attr size: is given twice');
    expect(await usage(piecesFromFlags({ item: ['quantity=1'] }, none()))).toBe('--item #1: key "product" is required (product=ID)');
    expect(await usage(piecesFromFlags({ item: ['product=1', 'product=2,quantity=0'] }, none()))).toBe(
      '--item #2: key "quantity": must be a positive integer, got "0"',
    );
    expect(await usage(piecesFromFlags({ billing: 'city' }, none()))).toBe('--billing: key "city": has no value (expected key=value)');
    expect(await usage(piecesFromFlags({ externalId: ' ' }, none()))).toBe('--external-id: must not be empty');
    expect(await usage(piecesFromFlags({ file: '-' }, Readable.from([Buffer.from('{nope')])))).toMatch(/^--file -: not valid JSON/);
    expect(await usage(piecesFromFlags({ file: '/nonexistent/x.json' }, none()))).toBe('--file: cannot read /nonexistent/x.json: ENOENT');
    expect(await usage(piecesFromFlags({ recipients: '/nonexistent/r.csv' }, none()))).toBe('--recipients: cannot read /nonexistent/r.csv: ENOENT');
    const dir = mkdtempSync(join(tmpdir(), 'merch-inputs-'));
    writeFileSync(join(dir, 'r.csv'), 'name,size\nAnn,M\n');
    expect(await usage(piecesFromFlags({ recipients: join(dir, 'r.csv') }, none()))).toContain('r.csv row 1: the header names no recipient field');
  });
});

describe('summarise', () => {
  const product = (id: number, amount: number, display: string, currency = 'USD') =>
    ({ id, name: `P${id}`, prices: { currency, price: { amount, display } } }) as unknown as CustomProduct;

  test('per-line totals, recipients, units and total from the products prices', () => {
    const body: OrderRequest = {
      payment_method_id: 'pm',
      line_items: [
        { id: 1, product: 7, quantity: 3, attributes: { size: 'M' } },
        { id: 2, product: 8, quantity: 2, attributes: {} },
      ],
      shipping_orders: [
        { recipient: {} as never, line_items: [{ id: 1, quantity: 3 }] },
        { recipient: {} as never, line_items: [{ id: 2, quantity: 2 }] },
      ],
    };
    const s = summarise(body, new Map([[7, product(7, 1250, '12.50')], [8, product(8, 999, '9.99')]]));
    expect(s.rows.map((r) => [r.product, r.attributes, r.quantity, r.unit, r.total])).toEqual([
      ['P7 (7)', 'size: M', 3, '12.50 USD', '37.50 USD'],
      ['P8 (8)', '', 2, '9.99 USD', '19.98 USD'],
    ]);
    expect([s.recipients, s.units, s.total]).toEqual([2, 5, '57.48 USD']);
    const text = formatSummary(s, 'visa ending 4242');
    expect(text).toContain('Recipients: 2 (one shipping order each)');
    expect(text).toContain('Total before shipping and tax: 57.48 USD');
    expect(text).toContain('Payment method: visa ending 4242');
    // an unknown price makes the total unknown rather than wrong
    expect(summarise(body, new Map([[7, product(7, 1250, '12.50')]])).total).toBe('?');
    expect(summarise(body, new Map([[7, product(7, 1250, '12.50')], [8, product(8, 10, '10', 'EUR')]])).total).toBe('?');
  });
});
