import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ADDRESS_FIELDS, type AddressField } from '../../src/contract/address.js';
import { readOrderRequest, type ShapeIssue } from '../../src/contract/order-request.js';

// src/contract/order-request.ts reads an order's body by hand. Before, it was this zod
// schema: the oracle. For any JSON value the two must find the same issues, in the same
// order, with the same messages, and parse to equal bodies with keys in the same order.

const NOT_BLANK = /\S/;
const requiredText = () =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).regex(NOT_BLANK, 'must not be empty');
const integer = (what: string) =>
  z.number({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) }).int(`must be ${what}`);
const positiveInteger = (what: string) => integer(what).positive(`must be ${what}`);
const addressSchema = z.strictObject(
  Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, z.string({ error: 'must be a string' }).optional()])) as Record<AddressField, z.ZodOptional<z.ZodString>>,
  { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an object') },
);
const lineItemSchema = z.strictObject(
  {
    id: integer('an integer'),
    product: integer('a custom product id (an integer)'),
    quantity: positiveInteger('a positive integer'),
    attributes: z.record(z.string(), z.string({ error: 'must be a string' }), { error: 'must be an object' }).default({}),
  },
  { error: 'must be an object' },
);
const shippingOrderSchema = z.strictObject(
  {
    recipient: addressSchema,
    line_items: z
      .array(z.strictObject({ id: integer('a line item id (an integer)'), quantity: positiveInteger('a positive integer') }, { error: 'must be an object' }), { error: 'is required' })
      .min(1, 'must list at least one line item'),
  },
  { error: 'must be an object' },
);
const orderRequestSchema = z.strictObject(
  {
    external_id: requiredText().optional(),
    payment_method_id: requiredText(),
    billing_address: addressSchema.optional(),
    line_items: z.array(lineItemSchema, { error: 'is required' }).min(1, 'must have at least one line item'),
    shipping_orders: z.array(shippingOrderSchema, { error: 'is required' }).min(1, 'must have at least one shipping order'),
  },
  { error: 'the order must be a JSON object' },
);

/** zod's verdict in the terms of readOrderRequest. */
function zodVerdict(input: unknown): { ok: true; body: unknown } | { ok: false; issues: ShapeIssue[] } {
  const parsed = orderRequestSchema.safeParse(input);
  if (parsed.success) return { ok: true, body: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => {
      const path = issue.path as (string | number)[];
      return issue.code === 'unrecognized_keys' ? { path, unknownKeys: issue.keys } : { path, message: issue.message };
    }),
  };
}

// Bodies mostly right, with one thing off here and there: every way a field can be wrong.
const number = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -2, max: 5 }) }, fc.constantFrom(0.5, -0, 2 ** 53, -(2 ** 53), 1e300, -1.5, '1', null));
const text = fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 4 }) }, fc.constantFrom(' ', '', 1, null, true));
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 6 });
const address = fc.oneof(
  { weight: 12, arbitrary: fc.dictionary(fc.constantFrom(...ADDRESS_FIELDS), text, { maxKeys: 6 }) },
  fc.dictionary(fc.constantFrom('first_name', 'street', 'Line_1', 'city', '__proto__'), text, { maxKeys: 3 }),
  fc.constantFrom(null, [], 'Ann', 3),
);
const attributes = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom('color', 'size', '__proto__', 'Size'), text, { maxKeys: 3 }) },
  fc.constantFrom(null, [], 'red'),
);
/** The record, sometimes with a key the interface does not have (an own `__proto__` too, as JSON.parse makes one). */
const withExtra = <T extends object>(record: fc.Arbitrary<T>) =>
  fc.oneof(
    { weight: 8, arbitrary: record },
    fc.tuple(record, fc.constantFrom('note', 'extra', '__proto__')).map(([r, key]) => Object.defineProperty({ ...r }, key, { value: 1, enumerable: true, writable: true, configurable: true })),
  );
const lineItem = fc.oneof(
  { weight: 10, arbitrary: withExtra(fc.record({ id: number, product: number, quantity: number, attributes }, { requiredKeys: ['id', 'product', 'quantity'] })) },
  fc.constantFrom(null, [1], 'x'),
);
const shippingLineItem = fc.oneof(
  { weight: 10, arbitrary: withExtra(fc.record({ id: number, quantity: number }, { requiredKeys: [] })) },
  fc.constantFrom(null, [1]),
);
/** A recipients list's shipping order: keys in the schema's order (returned as it is), or not (copied). */
const shippingOrder = fc.oneof(
  { weight: 10, arbitrary: withExtra(fc.record({ recipient: address, line_items: fc.oneof(fc.array(shippingLineItem, { maxLength: 3 }), fc.constantFrom(null, {})) }, { requiredKeys: [] })) },
  fc.record({ line_items: fc.array(shippingLineItem, { minLength: 1, maxLength: 2 }), recipient: address }),
  fc.constantFrom(null, 5),
);
const body = withExtra(
  fc.record(
    {
      external_id: maybe(text),
      payment_method_id: text,
      billing_address: maybe(address),
      line_items: fc.oneof({ weight: 8, arbitrary: fc.array(lineItem, { maxLength: 3 }) }, fc.constantFrom(null, {}, 'x')),
      shipping_orders: fc.oneof({ weight: 8, arbitrary: fc.array(shippingOrder, { maxLength: 3 }) }, fc.constantFrom(null, {})),
    },
    { requiredKeys: [] },
  ),
);
/** A copy of the JSON value `input` without the keys these issues name. */
function withoutUnknownKeys(input: unknown, issues: ShapeIssue[]): unknown {
  const copy = structuredClone(input);
  for (const { path, unknownKeys } of issues) {
    const place = path.reduce<any>((node, part) => node[part], copy);
    for (const key of unknownKeys!) delete place[key];
  }
  return copy;
}

/** As the sandbox receives it: JSON (an own `__proto__` key stays a key). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value) ?? 'null');

describe('readOrderRequest', () => {
  it('finds what the zod schema found, in the same order, and parses to the same body, keys in the same order', () => {
    fc.assert(
      fc.property(fc.oneof({ weight: 12, arbitrary: body }, fc.jsonValue()), (generated) => {
        const input = asJson(generated);
        const ours = readOrderRequest(input);
        const theirs = zodVerdict(input);
        if (!theirs.ok) {
          expect(ours.issues).toEqual(theirs.issues);
          if (!theirs.issues.every((issue) => issue.unknownKeys)) {
            expect(ours.body).toBeUndefined();
            return;
          }
          // Only keys the interface does not have: the body as zod parses the input without them.
          const stripped = zodVerdict(withoutUnknownKeys(input, theirs.issues));
          if (!stripped.ok) throw new Error('the input without its unknown keys is still refused');
          expect(ours.body).toStrictEqual(stripped.body);
          expect(JSON.stringify(ours.body)).toBe(JSON.stringify(stripped.body));
          return;
        }
        expect(ours.ok).toBe(true);
        expect(ours.body).toStrictEqual(theirs.body);
        expect(JSON.stringify(ours.body)).toBe(JSON.stringify(theirs.body));
      }),
      { numRuns: 10_000 },
    );
  });

  it('the checks that can fail do: a sample of each issue', () => {
    expect(readOrderRequest([]).issues).toEqual([{ path: [], message: 'the order must be a JSON object' }]);
    const { issues } = readOrderRequest({
      external_id: ' ',
      payment_method_id: 5,
      line_items: [{ id: 1.5, product: 2, quantity: -(2 ** 53), attributes: { size: 1 }, note: 'x' }],
      shipping_orders: [{ recipient: { city: 1, street: 'Main' }, line_items: [] }],
      extra: true,
    });
    expect(issues).toEqual([
      { path: ['external_id'], message: 'must not be empty' },
      { path: ['payment_method_id'], message: 'must be a string' },
      { path: ['line_items', 0, 'id'], message: 'must be an integer' },
      // below the safe integers, and not positive: zod found both
      { path: ['line_items', 0, 'quantity'], message: 'must be a positive integer' },
      { path: ['line_items', 0, 'quantity'], message: 'must be a positive integer' },
      { path: ['line_items', 0, 'attributes', 'size'], message: 'must be a string' },
      { path: ['line_items', 0], unknownKeys: ['note'] },
      { path: ['shipping_orders', 0, 'recipient', 'city'], message: 'must be a string' },
      { path: ['shipping_orders', 0, 'recipient'], unknownKeys: ['street'] },
      { path: ['shipping_orders', 0, 'line_items'], message: 'must list at least one line item' },
      { path: [], unknownKeys: ['extra'] },
    ]);
  });

  it('a line_items array shared by several shipping orders is read as each of them: its issues named at every place', () => {
    const bad = [{ id: 1, quantity: 0 }];
    const good = [{ id: 1, quantity: 1 }];
    const { issues } = readOrderRequest({
      payment_method_id: 'pm_1',
      line_items: [{ id: 1, product: 7, quantity: 3 }],
      shipping_orders: [
        { recipient: {}, line_items: good },
        { recipient: {}, line_items: bad },
        { recipient: {}, line_items: good },
        { recipient: {}, line_items: bad },
      ],
    });
    expect(issues).toEqual([
      { path: ['shipping_orders', 1, 'line_items', 0, 'quantity'], message: 'must be a positive integer' },
      { path: ['shipping_orders', 3, 'line_items', 0, 'quantity'], message: 'must be a positive integer' },
    ]);
    const read = readOrderRequest({ payment_method_id: 'pm_1', line_items: [{ id: 1, product: 7, quantity: 2 }], shipping_orders: [{ recipient: {}, line_items: good }, { recipient: {}, line_items: good }] });
    expect(read.body?.shipping_orders.map((so) => so.line_items)).toEqual([good, good]);
  });

  it("a recipients list's shipping orders come back as they are when in the schema's key order, else copied in that order", () => {
    const inOrder = [
      { recipient: { first_name: 'Ann', line_1: '1 Main St', country: 'US' }, line_items: [{ id: 1, quantity: 2 }] },
      { recipient: { first_name: 'Bo' }, line_items: [{ id: 1, quantity: 1 }] },
    ];
    const order = { payment_method_id: 'pm_1', line_items: [{ id: 1, product: 7, quantity: 3 }], shipping_orders: inOrder };
    const read = readOrderRequest(order);
    expect(read.body?.shipping_orders).toBe(inOrder);
    // the line items are always copies: the rules write the product's spelling of the attributes into them
    expect(read.body?.line_items[0]).not.toBe(order.line_items[0]);

    const built = [
      { recipient: { country: 'US', first_name: 'Ann' }, line_items: [{ id: 1, quantity: 2 }] },
      { line_items: [{ quantity: 1, id: 1 }], recipient: { first_name: 'Bo' } },
    ];
    const copied = readOrderRequest({ ...order, shipping_orders: built }).body!.shipping_orders;
    expect(copied).not.toBe(built);
    expect(JSON.stringify(copied)).toBe(
      JSON.stringify([
        { recipient: { first_name: 'Ann', country: 'US' }, line_items: [{ id: 1, quantity: 2 }] },
        { recipient: { first_name: 'Bo' }, line_items: [{ id: 1, quantity: 1 }] },
      ]),
    );
  });
});
