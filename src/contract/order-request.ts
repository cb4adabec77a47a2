import { ADDRESS_FIELDS, type Address } from './address.js';
import type { FieldPath } from './field-path.js';

/**
 * The request body of `POST /v1/orders/` (spec 4.4), as both the CLI and the sandbox read it.
 * The rules that need more than the shape are in order-rules.ts.
 *
 * Only what the interface states is refused: the types it gives, the fields it marks as
 * required, positive quantities. An unknown key is not refused (Django REST Framework
 * ignores it): it is reported apart (`unknownKeys`), order-rules.ts makes it a warning and
 * the parsed body leaves it out.
 *
 * Read by hand rather than by a zod schema: this is on the path of every `orders create`,
 * where zod's load and the schema's construction cost ~25 ms, and a list of 10,000 rows is a
 * body of 10,000 shipping orders (bench/README.md, issue 32.3). For any JSON value it finds
 * what the zod schema it replaced found, in the same order, with the same messages, and
 * parses to an equal body, keys in the schema's order: test/contract/order-request.test.ts
 * holds it to that schema. A shipping order already in that order (a recipients list's) is
 * returned as it is rather than copied.
 */

export type OrderAddress = Address;

export interface OrderLineItem {
  id: number;
  /** A BigInt when the id is beyond 2^53 (a Django BigAutoField's, read exactly: the CLI's src/lib/exact-json.ts). */
  product: number | bigint;
  quantity: number;
  attributes: Record<string, string>;
}

export interface ShippingLineItem {
  id: number;
  quantity: number;
}

export interface ShippingOrder {
  recipient: OrderAddress;
  line_items: ShippingLineItem[];
}

export interface OrderRequest {
  external_id?: string;
  payment_method_id: string;
  billing_address?: OrderAddress;
  line_items: OrderLineItem[];
  shipping_orders: ShippingOrder[];
}

/** What is wrong at one place of a body: a message, or the keys there that the interface does not have. */
export type ShapeIssue = { path: FieldPath; message: string; unknownKeys?: undefined } | { path: FieldPath; message?: undefined; unknownKeys: string[] };

/** With issues, the body too when every issue is a place's unknown keys (which it leaves out). */
export type ShapeResult = { ok: true; body: OrderRequest; issues: [] } | { ok: false; body?: OrderRequest; issues: ShapeIssue[] };

/** The body's shape: the parsed body, and every issue found, in the schema's order of fields (an object's unknown keys after its fields). */
export function readOrderRequest(input: unknown): ShapeResult {
  const r = new Reader();
  const body = orderRequest(r, input);
  if (r.issues.length === 0) return { ok: true, body: body!, issues: [] };
  return r.issues.every((issue) => issue.unknownKeys !== undefined) ? { ok: false, body: body!, issues: r.issues } : { ok: false, issues: r.issues };
}

const ORDER_KEYS = new Set(['external_id', 'payment_method_id', 'billing_address', 'line_items', 'shipping_orders']);
const LINE_ITEM_KEYS = new Set(['id', 'product', 'quantity', 'attributes']);
const SHIPPING_ORDER_KEYS = ['recipient', 'line_items'];
const SHIPPING_ORDER_KEY_SET = new Set(SHIPPING_ORDER_KEYS);
const SHIPPING_LINE_ITEM_KEYS = ['id', 'quantity'];
const SHIPPING_LINE_ITEM_KEY_SET = new Set(SHIPPING_LINE_ITEM_KEYS);
/** Each address field's place in the schema. */
const ADDRESS_ORDER = new Map<string, number>(ADDRESS_FIELDS.map((field, i) => [field, i]));
/** Text that is not only whitespace (the rules warn of a blank recipient field with it too). */
export const NOT_BLANK = /\S/;

/**
 * Lists of shipping orders that merch's builder made in the shape read here (each a
 * recipient of string values, its keys in the order of ADDRESS_FIELDS, and a `line_items`
 * list of `{ id, quantity }`, whole numbers, the quantity positive; src/orders/create/
 * builder.ts): read as they are, without going through each. For a list of 10,000 rows that
 * pass was ~20 ms of CPU, most of it V8 optimising its functions (bench/README.md, issue
 * 32.3). The rules of order-rules.ts still go through each. test/orders/create/builder.test.ts
 * holds every list it marks to what this file reads of an unmarked copy.
 */
const SHAPED_BY_CONSTRUCTION = new WeakSet<object>();

/** `shippingOrders`, marked as made in the shape this file reads (see above): for the builder only. */
export function shapedByConstruction(shippingOrders: ShippingOrder[]): ShippingOrder[] {
  SHAPED_BY_CONSTRUCTION.add(shippingOrders);
  return shippingOrders;
}

/** The issues found so far, and where the reading is (one path, extended and cut back as it goes: no path is made unless an issue needs it). */
class Reader {
  readonly issues: ShapeIssue[] = [];
  readonly path: FieldPath = [];
  /** Arrays read already, without an issue, and kept as they were: read again (a list's shipping orders share their line items), they are the same. */
  readonly asTheyWere = new WeakSet<unknown[]>();

  /** An issue at the current place, or at its `key`. */
  fail(key: string | number | undefined, message: string): void {
    this.issues.push({ path: key === undefined ? [...this.path] : [...this.path, key], message });
  }

  /** The keys of `value`, at the current place, that are not in `known`. */
  unknownKeys(value: Record<string, unknown>, known: { has(key: string): boolean }): void {
    let unknown: string[] | undefined;
    for (const key in value) if (!known.has(key)) (unknown ??= []).push(key);
    if (unknown) this.issues.push({ path: [...this.path], unknownKeys: unknown });
  }
}

function orderRequest(r: Reader, input: unknown): OrderRequest | undefined {
  if (!isObject(input)) {
    r.fail(undefined, 'the order must be a JSON object');
    return undefined;
  }
  const body: Partial<OrderRequest> = {};
  if (input.external_id !== undefined && text(r, 'external_id', input.external_id)) body.external_id = input.external_id as string;
  if (text(r, 'payment_method_id', input.payment_method_id)) body.payment_method_id = input.payment_method_id as string;
  if (input.billing_address !== undefined) body.billing_address = address(r, 'billing_address', input.billing_address);
  body.line_items = list(r, 'line_items', input.line_items, 'must have at least one line item', lineItem);
  body.shipping_orders = list(r, 'shipping_orders', input.shipping_orders, 'must have at least one shipping order', shippingOrder);
  r.unknownKeys(input, ORDER_KEYS);
  return body as OrderRequest;
}

/** A required text that is not blank; whether it is one. */
function text(r: Reader, key: string, value: unknown): boolean {
  if (typeof value !== 'string') r.fail(key, value === undefined ? 'is required' : 'must be a string');
  else if (!NOT_BLANK.test(value)) r.fail(key, 'must not be empty');
  else return true;
  return false;
}

/** A whole number (`what`: its message, `must be what`), positive if asked; whether it is one. As zod's `int()`: a fraction stops there, an unsafe integer does not. */
function integer(r: Reader, key: string, value: unknown, what: string, positive = false): boolean {
  const issues = r.issues.length;
  if (typeof value !== 'number' || !Number.isFinite(value)) r.fail(key, value === undefined ? 'is required' : `must be ${what}`);
  else if (!Number.isInteger(value)) r.fail(key, `must be ${what}`);
  else {
    if (value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER) r.fail(key, `must be ${what}`);
    if (positive && value <= 0) r.fail(key, `must be ${what}`);
  }
  return r.issues.length === issues;
}

/** An array of at least one item, each read by `item`: the same array when every item came back as it was. */
function list<T>(r: Reader, key: string, value: unknown, empty: string, item: (r: Reader, value: unknown) => T): T[] {
  if (!Array.isArray(value)) {
    r.fail(key, 'is required');
    return [];
  }
  if (value.length === 0) r.fail(key, empty);
  if (r.asTheyWere.has(value) || SHAPED_BY_CONSTRUCTION.has(value)) return value as T[];
  const issues = r.issues.length;
  r.path.push(key);
  let read: T[] | undefined = isPlainArray(value) ? undefined : [];
  for (let i = 0; i < value.length; i++) {
    r.path.push(i);
    const each = item(r, value[i]);
    r.path.pop();
    if (read === undefined && each !== value[i]) read = value.slice(0, i) as T[];
    read?.push(each);
  }
  r.path.pop();
  if (read === undefined && r.issues.length === issues) r.asTheyWere.add(value);
  return read ?? (value as T[]);
}

/** A recipient or billing address: every field an optional string. */
function address(r: Reader, key: string, value: unknown): OrderAddress {
  if (!isObject(value)) {
    r.fail(key, value === undefined ? 'is required' : 'must be an object');
    return {};
  }
  if (isPlainObject(value) && plainAddress(value)) return value as OrderAddress;
  r.path.push(key);
  const read: OrderAddress = {};
  for (const field of ADDRESS_FIELDS) {
    const each = value[field];
    if (each === undefined) continue;
    if (typeof each === 'string') read[field] = each;
    else r.fail(field, 'must be a string');
  }
  r.unknownKeys(value, ADDRESS_ORDER);
  r.path.pop();
  return read;
}

/** Every key an address field, in the schema's order, with a string value. */
function plainAddress(value: Record<string, unknown>): boolean {
  let last = -1;
  for (const key in value) {
    const place = ADDRESS_ORDER.get(key);
    if (place === undefined || place < last || typeof value[key] !== 'string') return false;
    last = place;
  }
  return true;
}

function lineItem(r: Reader, value: unknown): OrderLineItem {
  if (!isObject(value)) {
    r.fail(undefined, 'must be an object');
    return value as OrderLineItem;
  }
  integer(r, 'id', value.id, 'an integer');
  // A BigInt is an id beyond 2^53 as the CLI reads one exactly (never in JSON.parse's values).
  if (typeof value.product !== 'bigint' || value.product <= 0n) integer(r, 'product', value.product, 'a custom product id (an integer)');
  integer(r, 'quantity', value.quantity, 'a positive integer', true);
  const attributes = stringRecord(r, 'attributes', value.attributes);
  r.unknownKeys(value, LINE_ITEM_KEYS);
  return { id: value.id as number, product: value.product as number | bigint, quantity: value.quantity as number, attributes };
}

/** A line item's attributes: names to string values, `{}` when absent; a copy (the rules write the product's spelling into it). */
function stringRecord(r: Reader, key: string, value: unknown): Record<string, string> {
  const read: Record<string, string> = {};
  if (value === undefined) return read;
  if (!isObject(value)) {
    r.fail(key, 'must be an object');
    return read;
  }
  r.path.push(key);
  for (const name of Object.keys(value)) {
    if (name === '__proto__') continue;
    const each = value[name];
    if (typeof each === 'string') read[name] = each;
    else r.fail(name, 'must be a string');
  }
  r.path.pop();
  return read;
}

function shippingOrder(r: Reader, value: unknown): ShippingOrder {
  if (!isObject(value)) {
    r.fail(undefined, 'must be an object');
    return value as ShippingOrder;
  }
  const recipient = address(r, 'recipient', value.recipient);
  const lineItems = list(r, 'line_items', value.line_items, 'must list at least one line item', shippingLineItem);
  if (recipient === value.recipient && lineItems === value.line_items && isPlainObject(value) && keysAre(value, SHIPPING_ORDER_KEYS)) return value as unknown as ShippingOrder;
  r.unknownKeys(value, SHIPPING_ORDER_KEY_SET);
  return { recipient, line_items: lineItems };
}

function shippingLineItem(r: Reader, value: unknown): ShippingLineItem {
  if (!isObject(value)) {
    r.fail(undefined, 'must be an object');
    return value as ShippingLineItem;
  }
  integer(r, 'id', value.id, 'a line item id (an integer)');
  integer(r, 'quantity', value.quantity, 'a positive integer', true);
  if (isPlainObject(value) && keysAre(value, SHIPPING_LINE_ITEM_KEYS)) return value as unknown as ShippingLineItem;
  r.unknownKeys(value, SHIPPING_LINE_ITEM_KEY_SET);
  return { id: value.id as number, quantity: value.quantity as number };
}

/** Its keys are `keys`, in that order, and no others. */
function keysAre(value: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (key !== keys[i++]) return false;
  return i === keys.length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Made by JSON.parse or an object literal: returned as it is, it is what a copy would be. */
function isPlainObject(value: Record<string, unknown>): boolean {
  return Object.getPrototypeOf(value) === Object.prototype;
}

/** Made by JSON.parse or an array literal. */
function isPlainArray(value: unknown[]): boolean {
  return Object.getPrototypeOf(value) === Array.prototype;
}
