import type { OrderRequest } from '../contract/order-request.js';
import { customPartSource, type CustomProduct } from './custom-product.js';
import { findPart, partsOf, type Part } from './parts.js';
import type { PaymentMethod } from './records.js';
import type { AccountState } from './state.js';

/**
 * What an order request that passed the contract's rules (src/contract/order-rules.ts) refers
 * to in the account: each line item's product and part, and the payment method.
 */
export interface ResolvedLine {
  requestId: number;
  product: CustomProduct;
  part: Part;
  quantity: number;
}

export interface ResolvedOrder {
  lines: ResolvedLine[];
  paymentMethod: PaymentMethod;
}

export function resolveOrder(request: OrderRequest, account: AccountState, products: readonly CustomProduct[]): ResolvedOrder {
  const lines = request.line_items.map((item): ResolvedLine => {
    const product = products.find((candidate) => candidate.id === item.product)!;
    // The rules checked every attribute; one the product offers in a single value may be left out.
    const part = findPart(partsOf(customPartSource(product)), item.attributes)!;
    return { requestId: item.id, product, part, quantity: item.quantity };
  });
  const paymentMethod = account.payment_methods.find((method) => method.id === request.payment_method_id)!;
  return { lines, paymentMethod };
}

/** The account's data the contract's rules need: the `available_attributes` of each product the request names, and the payment method ids. */
export function accountData(body: unknown, account: AccountState, products: readonly CustomProduct[]) {
  const referenced = new Map<number, Record<string, unknown> | null>();
  const lineItems = typeof body === 'object' && body !== null ? (body as { line_items?: unknown }).line_items : undefined;
  for (const item of Array.isArray(lineItems) ? lineItems : []) {
    const id = (item as { product?: unknown } | null)?.product;
    if (typeof id !== 'number' || !Number.isInteger(id) || referenced.has(id)) continue;
    const product = products.find((candidate) => candidate.id === id);
    referenced.set(id, product ? product.available_attributes : null);
  }
  return { products: referenced, paymentMethodIds: new Set(account.payment_methods.map((method) => method.id)) };
}
