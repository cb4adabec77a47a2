import fc from 'fast-check';
import { z } from 'zod';
import { expect, it } from 'vitest';
import { ADDRESS_FIELDS } from '../../src/contract/address.js';
import { shippingOrderSchema } from '../../src/contract/order-request.js';
import { plainShippingOrders } from '../../src/contract/plain-shipping-orders.js';

// The rules read a body's plain shipping orders (a recipients list's) by a loop instead of
// zod (src/contract/plain-shipping-orders.ts): whatever it accepts, zod accepts too and parses
// to equal objects, keys in the same order.

const shippingOrders = z.array(shippingOrderSchema).min(1);

// Mostly plain, with one thing off here and there: every way of being not quite plain.
const number = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -2, max: 5 }) }, fc.constantFrom(0.5, -0, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, '1'));
const value = fc.oneof({ weight: 12, arbitrary: fc.string({ maxLength: 4 }) }, fc.constantFrom(1, null, undefined));
const recipient = fc.oneof(
  { weight: 12, arbitrary: fc.dictionary(fc.constantFrom(...ADDRESS_FIELDS), value, { maxKeys: 5 }) },
  fc.dictionary(fc.constantFrom('first_name', 'street', 'Line_1', '__proto__'), value, { maxKeys: 2 }),
  fc.constantFrom(null, [], 'Ann', Object.create({ first_name: 'Ann' })),
);
const lineItem = fc.oneof(
  { weight: 12, arbitrary: fc.record({ id: number, quantity: number }) },
  fc.record({ id: number, quantity: number, extra: fc.constant(1) }, { requiredKeys: [] }),
  fc.constantFrom(null, [1]),
);
const shippingOrder = fc.oneof(
  { weight: 12, arbitrary: fc.record({ recipient, line_items: fc.array(lineItem, { maxLength: 3 }) }) },
  fc.record({ recipient, line_items: fc.oneof(fc.array(lineItem, { maxLength: 2 }), fc.constant({})), note: fc.constant('x') }, { requiredKeys: [] }),
  fc.constantFrom(null, Object.create({ recipient: {}, line_items: [{ id: 1, quantity: 1 }] })),
);

it('what the loop accepts, zod accepts and parses to the same objects, keys in the same order', () => {
  fc.assert(
    fc.property(fc.oneof({ weight: 9, arbitrary: fc.array(shippingOrder, { maxLength: 3 }) }, fc.anything()), (given) => {
      const plain = plainShippingOrders(given);
      if (plain === undefined) return;
      const parsed = shippingOrders.safeParse(given);
      expect(parsed.success).toBe(true);
      expect(plain).toStrictEqual(parsed.data);
      expect(JSON.stringify(plain)).toBe(JSON.stringify(parsed.data));
    }),
    { numRuns: 5_000 },
  );
});

it("a recipients list's shipping orders are read by the loop: as they are when in the schema's key order, else copied in that order", () => {
  const inOrder = [
    { recipient: { first_name: 'Ann', line_1: '1 Main St', country: 'US' }, line_items: [{ id: 1, quantity: 2 }] },
    { recipient: { first_name: 'Bo' }, line_items: [{ id: 2, quantity: 1 }] },
  ];
  expect(plainShippingOrders(inOrder)).toBe(inOrder);

  const built = [
    { recipient: { country: 'US', first_name: 'Ann', line_1: '1 Main St' }, line_items: [{ id: 1, quantity: 2 }] },
    { recipient: { first_name: 'Bo' }, line_items: [{ quantity: 1, id: 2 }] },
    { line_items: [{ id: 2, quantity: 1 }], recipient: { first_name: 'Cy' } },
  ];
  const plain = plainShippingOrders(built);
  expect(JSON.stringify(plain)).toBe(JSON.stringify(shippingOrders.parse(built)));
  expect(plain).not.toBe(built);
  expect(plain![0]!.recipient).not.toBe(built[0]!.recipient);
  expect(plain![1]!.line_items).not.toBe(built[1]!.line_items);
  expect(plain![1]!.recipient).toBe(built[1]!.recipient);
  expect(plainShippingOrders([...built, { recipient: { first_name: 'Cy', street: '3 Main St' }, line_items: [{ id: 1, quantity: 1 }] }])).toBeUndefined();
});
