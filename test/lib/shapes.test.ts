import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ResponseSchema } from '../../src/lib/shapes.js';
import { pageSchema } from '../../src/api/paginate.js';
import { customProductSchema, supplierProductSchema } from '../../src/api/schemas.js';
import * as shapes from '../../src/lib/shapes.js';

// src/lib/shapes.ts stands in for zod on the API commands' path: for any JSON, each shape
// must answer as the same zod schema does (success, the parsed copy with its key order,
// and every issue's path and message).

const id = z.union([z.number(), z.string()]);
const zodSupplierProduct = z.looseObject({ id, name: z.string().nullish(), created_at: z.string().nullish(), design_tool_sku: z.string().nullish() });
const zodMoney = z.looseObject({ currency: z.string().nullish(), amount: z.union([z.number(), z.string()]).nullish(), display: z.string().nullish() });
const zodCustomProduct = z.looseObject({
  id,
  name: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  prices: z.looseObject({ currency: z.string().nullish(), price: zodMoney.nullish() }).nullish(),
  design_status: z.looseObject({ id: id.nullish(), name: z.string().nullish() }).nullish(),
  minimum: z.number().nullish(),
  sellable: z.boolean().nullish(),
  available_attributes: z.record(z.string(), z.unknown()).nullish(),
  created_at: z.string().nullish(),
});
const zodPage = <T>(item: z.ZodType<T>) =>
  z.union([
    z.looseObject({ count: z.number().int().nonnegative().optional(), next: z.string().nullable().optional(), previous: z.string().nullable().optional(), results: z.array(item) }),
    z.array(item),
  ]);

/** Values that hit each check: right and wrong types, fractions, negatives, unsafe integers, __proto__. */
const leaf = fc.constantFrom<unknown>(0, 7, 1.5, 'name', -3, 2 ** 60, -(2 ** 60), '', 'x', true, null, [], {}, ['a'], { name: 'n' }, { name: 3 });
const keys = ['id', 'name', 'created_at', 'design_tool_sku', 'tags', 'prices', 'price', 'currency', 'amount', 'design_status', 'minimum', 'sellable', 'available_attributes', 'hex', 'extra', '__proto__'];
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...keys), tie('v'), { maxKeys: 5 })),
})).v;
const page = fc.oneof(
  value,
  fc.array(value, { maxLength: 3 }),
  fc.record({ count: leaf, next: leaf, results: fc.oneof(leaf, fc.array(value, { maxLength: 3 })) }, { requiredKeys: ['results'] }),
);
/** As a JSON answer comes: through JSON.parse, so `__proto__` is an own key. */
const asJson = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((v) => JSON.parse(JSON.stringify(v).replaceAll('"extra"', '"__proto__"')) as unknown);

function answer(schema: ResponseSchema<unknown>, input: unknown) {
  const result = schema.safeParse(input);
  return result.success
    ? { success: true, data: JSON.stringify(result.data) }
    : { success: false, issues: result.error.issues.map((issue) => ({ path: issue.path, message: issue.message })) };
}

describe('lenient shapes answer as zod does', () => {
  it.each([
    ['a supplier product', supplierProductSchema, zodSupplierProduct, asJson(value)],
    ['a custom product (nested objects, arrays, records)', customProductSchema, zodCustomProduct, asJson(value)],
    ['a page of supplier products, or a bare array', shapes.union([pageSchema(supplierProductSchema), shapes.array(supplierProductSchema)]), zodPage(zodSupplierProduct), asJson(page)],
  ] as const)('%s', (_name, lenient, zod, inputs) => {
    fc.assert(
      fc.property(inputs, (input) => {
        expect(answer(lenient, input)).toEqual(answer(zod, input));
      }),
      { numRuns: 3000 },
    );
  });

  it('a strict object (unknown keys left out) with a choice of strings, as the config file is read', () => {
    const lenient = shapes.object({ id: shapes.oneOf(['x', 'name']), name: shapes.string().optional(), tags: shapes.object({ name: shapes.string() }).optional(), extra: shapes.unknown() });
    const zod = z.object({ id: z.enum(['x', 'name']), name: z.string().optional(), tags: z.object({ name: z.string() }).optional(), extra: z.unknown() });
    fc.assert(
      fc.property(asJson(value), (input) => {
        expect(answer(lenient, input)).toEqual(answer(zod, input));
      }),
      { numRuns: 3000 },
    );
  });

  it("an http(s) URL, as the design tool's answer is read: the scheme's `://` required, the copy trimmed", () => {
    const lenient = shapes.looseObject({ URL: shapes.httpUrl() });
    const zod = z.looseObject({ URL: z.url({ protocol: /^https?$/ }) });
    const urls = [
      'https://design.example/s/1?x=1',
      'HTTP://design.example',
      '  http://127.0.0.1:9/a b\t\n',
      'http://exa\nmple.com',
      'https:/path',
      'http:example.com',
      'ftp://design.example',
      'javascript:alert(1)',
      'http://',
      'https://[::1',
      'not a url',
      '',
      '\u0000http://x',
    ];
    const inputs = [...urls.map((URL) => ({ URL, extra: 1 })), { URL: 5 }, { URL: null }, {}, 'text', null];
    for (const input of inputs) expect(answer(lenient, input), JSON.stringify(input)).toEqual(answer(zod, input));
    expect(lenient.safeParse({ URL: ' https://design.example/s/1\n' })).toEqual({ success: true, data: { URL: 'https://design.example/s/1' } });
  });

  it('checks a zod item inside a page', () => {
    const item = z.object({ id: z.number() });
    const lenient = shapes.union([pageSchema(item), shapes.array(item)]);
    for (const input of [{ results: [{ id: 1 }, { id: 'x' }] }, [{ id: 2 }], { count: 1, results: [{ id: 1, more: 1 }] }, 'text']) {
      expect(answer(lenient, input)).toEqual(answer(zodPage(item), input));
    }
  });
});
