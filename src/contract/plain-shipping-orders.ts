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
 * them all, and names what it finds. So for a plain list the result equals zod's, keys in
 * the schema's order (test/contract/plain-shipping-orders.test.ts holds the two to it):
 * what already is in that order (a list's columns usually are) is returned as it is, not
 * copied; the rest is copied in that order. Keep it in step with `shippingOrderSchema`.
 */
export function plainShippingOrders(value: unknown): OrderRequest['shipping_orders'] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const parsed: OrderRequest['shipping_orders'] = [];
  let same = true;
  for (const so of value) {
    if (!isPlainObject(so) || !hasExactly(so, SHIPPING_ORDER_KEYS)) return undefined;
    const recipient = plainRecipient(so.recipient);
    const lineItems = plainLineItems(so.line_items);
    if (recipient === undefined || lineItems === undefined) return undefined;
    if (recipient === so.recipient && lineItems === so.line_items && inOrder(so, SHIPPING_ORDER_KEYS)) parsed.push(so as OrderRequest['shipping_orders'][number]);
    else {
      same = false;
      parsed.push({ recipient, line_items: lineItems });
    }
  }
  return same && isPlainArray(value) ? (value as OrderRequest['shipping_orders']) : parsed;
}

/** Its keys are `keys`, in that order (it has no others: hasExactly). */
function inOrder(value: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const key of Object.keys(value)) if (key !== keys[i++]) return false;
  return true;
}

const SHIPPING_ORDER_KEYS = ['recipient', 'line_items'];
const LINE_ITEM_KEYS = ['id', 'quantity'];
/** Each address field's place in the schema. */
const ADDRESS_ORDER = new Map<string, number>(ADDRESS_FIELDS.map((field, i) => [field, i]));

function plainRecipient(value: unknown): Partial<Record<AddressField, string>> | undefined {
  if (!isPlainObject(value)) return undefined;
  let ordered = true;
  let last = -1;
  for (const key of Object.keys(value)) {
    const place = ADDRESS_ORDER.get(key);
    if (place === undefined || typeof value[key] !== 'string') return undefined;
    if (place < last) ordered = false;
    last = place;
  }
  if (ordered) return value as Partial<Record<AddressField, string>>;
  const recipient: Partial<Record<AddressField, string>> = {};
  for (const field of ADDRESS_FIELDS) if (Object.hasOwn(value, field)) recipient[field] = value[field] as string;
  return recipient;
}

function plainLineItems(value: unknown): { id: number; quantity: number }[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  let ordered = true;
  for (const item of value) {
    if (!isPlainObject(item) || !hasExactly(item, LINE_ITEM_KEYS)) return undefined;
    const { id, quantity } = item;
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(quantity) || (quantity as number) <= 0) return undefined;
    if (!inOrder(item, LINE_ITEM_KEYS)) ordered = false;
  }
  if (ordered && isPlainArray(value)) return value as { id: number; quantity: number }[];
  return value.map((item: { id: number; quantity: number }) => ({ id: item.id, quantity: item.quantity }));
}

/** Made by JSON.parse or an array literal: returned as it is, it is what zod would make. */
function isPlainArray(value: unknown[]): boolean {
  return Object.getPrototypeOf(value) === Array.prototype;
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
