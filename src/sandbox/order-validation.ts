import { customPartSource, type CustomProduct } from './custom-product.js';
import { addFieldError, validationError, type FieldErrors } from './errors.js';
import type { OrderRequest } from './order-request.js';
import { findPart, partsOf, type Part } from './parts.js';
import type { PaymentMethod } from './records.js';
import type { AccountState } from './state.js';

/** The rules of spec 4.4 that need the account's state; every violation names its field. */
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

type Path = (string | number)[];

function offeredAttributes(product: CustomProduct): Record<string, string[]> {
  return {
    color: product.available_attributes.colors.map((color) => color.name),
    size: product.available_attributes.sizes.map((size) => size.name),
  };
}

function resolvePart(product: CustomProduct, attributes: Record<string, string>, path: Path, errors: FieldErrors): Part | undefined {
  const offered = offeredAttributes(product);
  const chosen: Record<string, string> = {};
  let valid = true;
  const fail = (name: string, message: string) => {
    addFieldError(errors, [...path, 'attributes', name], message);
    valid = false;
  };
  for (const [name, value] of Object.entries(attributes)) {
    const values = offered[name];
    const match = values?.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (!values) fail(name, `Unknown attribute; product ${product.id} offers: ${Object.keys(offered).join(', ')}.`);
    else if (match === undefined) fail(name, `"${value}" is not offered; choose one of: ${values.join(', ')}.`);
    else chosen[name] = match;
  }
  for (const [name, values] of Object.entries(offered)) {
    if (name in attributes) continue;
    if (values.length === 1) chosen[name] = values[0]!;
    else fail(name, `This field is required; choose one of: ${values.join(', ')}.`);
  }
  return valid ? findPart(partsOf(customPartSource(product)), chosen) : undefined;
}

export function resolveOrder(request: OrderRequest, account: AccountState, products: CustomProduct[]): ResolvedOrder {
  const errors: FieldErrors = {};
  const lines = new Map<number, ResolvedLine | null>();
  request.line_items.forEach((item, index) => {
    const path = ['line_items', index];
    if (lines.has(item.id)) {
      addFieldError(errors, [...path, 'id'], `Duplicate line item id ${item.id}.`);
      return;
    }
    const product = products.find((candidate) => candidate.id === item.product);
    if (!product) addFieldError(errors, [...path, 'product'], `Unknown custom product ${item.product}.`);
    const part = product && resolvePart(product, item.attributes, path, errors);
    lines.set(item.id, product && part ? { requestId: item.id, product, part, quantity: item.quantity } : null);
  });

  const shipped = new Map<number, number>();
  request.shipping_orders.forEach((shipping, index) => {
    shipping.line_items.forEach((item, itemIndex) => {
      if (!lines.has(item.id)) {
        addFieldError(errors, ['shipping_orders', index, 'line_items', itemIndex, 'id'], `No line item with id ${item.id} in line_items.`);
      }
      shipped.set(item.id, (shipped.get(item.id) ?? 0) + item.quantity);
    });
  });

  const seen = new Set<number>();
  request.line_items.forEach((item, index) => {
    if (seen.has(item.id)) return;
    seen.add(item.id);
    const count = shipped.get(item.id) ?? 0;
    if (count !== item.quantity) {
      addFieldError(errors, ['line_items', index, 'quantity'], `The shipping orders account for ${count} of ${item.quantity}; every unit must be in a shipping order.`);
    }
  });

  const paymentMethod = account.payment_methods.find((method) => method.id === request.payment_method_id);
  if (!paymentMethod) {
    addFieldError(errors, ['payment_method_id'], 'Unknown payment method; use an id from GET /v1/payment-methods/.');
  }

  if (Object.keys(errors).length > 0 || !paymentMethod) throw validationError(errors);
  return { lines: [...lines.values()].filter((line) => line !== null), paymentMethod };
}
