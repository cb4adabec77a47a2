import { describe, expect, it } from 'vitest';
import { identityOfBody, identityScope } from '../../../src/orders/create/order-identity.js';
import { validateOrder } from '../../../src/orders/create/validate.js';

// The identity's relations that the CLI's metamorphic test (test/commands/orders/create/
// identity.test.ts) cannot reach with one sandbox account and one product: another account,
// another service, another product is another order; the payment method, the billing address,
// the order of the shipping orders and how items are grouped into line items are not.

const body = (changes: (b: any) => void = () => {}) => {
  const input: any = {
    payment_method_id: 'pm_1',
    line_items: [{ id: 1, product: 7, quantity: 3, attributes: { size: 'M' } }],
    shipping_orders: [
      { recipient: { first_name: 'Ann', last_name: 'Lee', line_1: '1 Main St', postal_code: '78701', country: 'US' }, line_items: [{ id: 1, quantity: 1 }] },
      { recipient: { first_name: 'Bo', last_name: 'Ek', line_1: '2 High St', postal_code: '02101', country: 'US' }, line_items: [{ id: 1, quantity: 2 }] },
    ],
  };
  changes(input);
  const result = validateOrder(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.body;
};
const offerings = () => undefined;
const scope = identityScope('https://api.example.com/', '42');
const id = (b: ReturnType<typeof body>, s = scope) => identityOfBody(s, b, offerings).externalId;

describe('what makes two orders the same', () => {
  it('not the payment method, the billing address, the order of the shipping orders, nor the grouping of line items', () => {
    const same = id(body());
    expect(id(body((b) => (b.payment_method_id = 'pm_2')))).toBe(same);
    expect(id(body((b) => (b.billing_address = { line_1: '9 Elm St', country: 'US' })))).toBe(same);
    expect(id(body((b) => b.shipping_orders.reverse()))).toBe(same);
    // Each recipient's share as a line item of its own.
    const split = body((b) => {
      b.line_items = [{ id: 1, product: 7, quantity: 1, attributes: { size: 'M' } }, { id: 2, product: 7, quantity: 2, attributes: { size: 'M' } }];
      b.shipping_orders[1].line_items = [{ id: 2, quantity: 2 }];
    });
    expect(id(split)).toBe(same);
    // The base URL's path and a trailing slash are not the service: its origin is.
    expect(id(body(), identityScope('https://api.example.com/v1', '42'))).toBe(same);
  });

  it('another account, another service, another product, recipient, quantity or attribute is another order', () => {
    const same = id(body());
    expect(id(body(), identityScope('https://api.example.com', '43'))).not.toBe(same);
    expect(id(body(), identityScope('https://staging.example.com', '42'))).not.toBe(same);
    expect(id(body((b) => (b.line_items[0].product = 8)))).not.toBe(same);
    expect(id(body((b) => (b.shipping_orders[0].recipient.first_name = 'Cy')))).not.toBe(same);
    expect(id(body((b) => { b.line_items[0].quantity = 4; b.shipping_orders[1].line_items[0].quantity = 3; }))).not.toBe(same);
    expect(id(body((b) => (b.line_items[0].attributes.size = 'L')))).not.toBe(same);
  });
});
