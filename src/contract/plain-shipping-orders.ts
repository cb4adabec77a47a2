import { ADDRESS_FIELDS, type AddressField } from './address.js';
import type { OrderRequest } from './order-request.js';

/**
 * The shipping orders of a body as order-request.ts's `shippingOrderSchema` parses them, read
 * by a loop when every one is plain: an object of exactly a `recipient` (an object whose
 * keys are address fields with string values) and `line_items` (at least one object of
 * exactly an `id`, a safe integer, and a `quantity`, a positive safe integer). That is what
 * a recipients list builds, 10,000 of them for a list of 10,000 rows, where zod's first parse
 * of so many took ~80 ms (V8 warming its generic code) and this loop a few.
 *
 * Undefined when any one is not plain (or they are not a non-empty array): zod then reads
 * them all, and names what it finds. So for a plain list the result is exactly zod's: new
 * objects, keys in the schema's order (test/contract/plain-shipping-orders.test.ts holds
 * the two to it). Keep it in step with `shippingOrderSchema`.
 */
export function plainShippingOrders(value: unknown): OrderRequest['shipping_orders'] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const parsed: OrderRequest['shipping_orders'] = [];
  for (const so of value) {
    if (!isPlainObject(so) || !hasExactly(so, SHIPPING_ORDER_KEYS)) return undefined;
    const recipient = plainRecipient(so.recipient);
    const lineItems = plainLineItems(so.line_items);
    if (recipient === undefined || lineItems === undefined) return undefined;
    parsed.push({ recipient, line_items: lineItems });
  }
  return parsed;
}

const SHIPPING_ORDER_KEYS = ['recipient', 'line_items'];
const LINE_ITEM_KEYS = ['id', 'quantity'];
/** Each address field's place in the schema. */
const ADDRESS_ORDER = new Map<string, number>(ADDRESS_FIELDS.map((field, i) => [field, i]));

function plainRecipient(value: unknown): Partial<Record<AddressField, string>> | undefined {
  if (!isPlainObject(value)) return undefined;
  let inOrder = true;
  let last = -1;
  for (const key of Object.keys(value)) {
    const place = ADDRESS_ORDER.get(key);
    if (place === undefined || typeof value[key] !== 'string') return undefined;
    if (place < last) inOrder = false;
    last = place;
  }
  // Keys already in the schema's order (a list's columns usually are): a copy as it is, which V8 makes in one step.
  if (inOrder) return { ...value } as Partial<Record<AddressField, string>>;
  const recipient: Partial<Record<AddressField, string>> = {};
  for (const field of ADDRESS_FIELDS) if (Object.hasOwn(value, field)) recipient[field] = value[field] as string;
  return recipient;
}

function plainLineItems(value: unknown): { id: number; quantity: number }[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items: { id: number; quantity: number }[] = [];
  for (const item of value) {
    if (!isPlainObject(item) || !hasExactly(item, LINE_ITEM_KEYS)) return undefined;
    const { id, quantity } = item;
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(quantity) || (quantity as number) <= 0) return undefined;
    items.push({ id: id as number, quantity: quantity as number });
  }
  return items;
}

/** Made by JSON.parse or an object literal: no prototype of its own to read keys through. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** Every key of `keys` its own, and no other. */
function hasExactly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  if (Object.keys(value).length !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(value, key)) return false;
  return true;
}
