import type { Sandbox } from '../../src/sandbox/index.js';
import { ACME, call } from './helpers.js';

export const recipient = (lastName: string) => ({
  first_name: 'Ada',
  last_name: lastName,
  email: 'ada@example.com',
  line_1: '5 Elm Street',
  city: 'Boston',
  state: 'MA',
  postal_code: '02110',
  country: 'US',
});

/** A valid order request of the account: two line items over two shipping orders. */
export async function validOrder(sandbox: Sandbox, token = ACME): Promise<any> {
  const methods = (await call(sandbox, '/v1/payment-methods/', { token })).body;
  const products = (await call(sandbox, '/v1/custom-products', { token })).body.results;
  const attributes = (product: any) => ({
    color: product.available_attributes.colors[0].name,
    size: product.available_attributes.sizes[0].name,
  });
  return {
    payment_method_id: methods.card[0].id,
    line_items: [
      { id: 1, product: products[0].id, quantity: 3, attributes: attributes(products[0]) },
      { id: 2, product: products[1].id, quantity: 1, attributes: attributes(products[1]) },
    ],
    shipping_orders: [
      { recipient: recipient('Lovelace'), line_items: [{ id: 1, quantity: 2 }, { id: 2, quantity: 1 }] },
      { recipient: recipient('Byron'), line_items: [{ id: 1, quantity: 1 }] },
    ],
  };
}
