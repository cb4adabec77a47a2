import { attributeName, type OfferedAttribute } from '../../contract/attributes.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { storedRecipientKey, type StoredRecipientKey } from './stored-address.js';
import { count } from '../../lib/count.js';
import { isRecord } from '../../lib/is-record.js';
import { exactIntegerOf, stringifyExact, type ExactInteger } from '../../lib/exact-json.js';

/**
 * What an order is, as far as "is it the same order?" goes (issue 18): per line item the
 * product, its attributes and its quantity; per shipping order the recipient (names, address
 * lines, postal code, country) and its share of the items. Both a request body and the
 * service's record of an order reduce to this content, so the two can be compared wherever
 * an external id is found, and a recipient row can be matched to the shipping order that
 * holds it.
 *
 * Recipients are compared as a service may store them (stored-address.ts: case,
 * punctuation, postal abbreviations, ZIP+4, country names). Attribute values are compared
 * without regard to letter case, surrounding space or runs of spaces (a service may respell
 * `m` as `M`); attribute names as the line item names them (`colors` and `Color` are
 * `color`). Ids and quantities are numbers whether a record gives them as numbers or numeric
 * strings. A shipping order's part without `product_id` (the interface's 2.3 part shape) is
 * read through the order's own line item. With the products' offered attributes, an
 * attribute a product offers in one value counts as chosen when a request leaves it out (the
 * service picks it), and the service's record is read for the attributes the product offers
 * only.
 *
 * A record that cannot show what it holds is not an empty order: no shipping orders while it
 * has line items, or shipping orders whose shares do not add up to its line items, make it
 * unreadable (`missing`), never "different".
 * Pure: no requests, no clock.
 */

export type RecipientField = 'first_name' | 'last_name' | 'line_1' | 'line_2' | 'postal_code' | 'country';
const RECIPIENT_KEYS = ['first_name', 'last_name', 'street', 'postal_code', 'country'] as const satisfies readonly (keyof StoredRecipientKey)[];

export interface ItemContent {
  /** A BigInt beyond 2^53 (lib/exact-json.ts): compared exactly. */
  product: ExactInteger;
  quantity: number;
  /** Attribute name (as a line item names it) -> value, both normalised. */
  attributes: ReadonlyMap<string, string>;
  /** The values as written, for messages. */
  shown: Readonly<Record<string, string>>;
}

export interface ShipmentContent {
  recipient: Readonly<StoredRecipientKey>;
  /** The recipient as written, for messages: `Ann Lee, 1 Main St, 78701, US`. */
  shownRecipient: string;
  /** This shipping order's share of the items. */
  items: ItemContent[];
}

export interface OrderContent {
  lineItems: ItemContent[];
  shipments: ShipmentContent[];
}

/** The attributes each product offers, when known (from its `available_attributes`). */
export type Offerings = (product: ExactInteger) => readonly OfferedAttribute[] | undefined;

export type Comparison =
  | { verdict: 'same' }
  | { verdict: 'different'; difference: string }
  /** The record lacks a field the comparison needs (`line_items[0].part.product_id`). */
  | { verdict: 'incomparable'; missing: string };

/** Compares an order request with the service's record of an order. */
export function compareOrder(request: OrderRequest, record: unknown, offerings?: Offerings): Comparison {
  const theirs = recordContent(record, offerings);
  if ('missing' in theirs) return { verdict: 'incomparable', missing: theirs.missing };
  const difference = firstDifference(requestContent(request, offerings), theirs);
  return difference === undefined ? { verdict: 'same' } : { verdict: 'different', difference };
}

export function requestContent(body: OrderRequest, offerings?: Offerings): OrderContent {
  const byId = new Map<number, OrderRequest['line_items'][number]>();
  for (const li of body.line_items) byId.set(li.id, li);
  const item = (product: ExactInteger, quantity: number, attributes: Record<string, string>) => itemContent(product, quantity, attributes, offerings);
  return {
    lineItems: body.line_items.map((li) => item(li.product, li.quantity, li.attributes)),
    shipments: body.shipping_orders.map((so) => ({
      ...recipientContent(so.recipient as Partial<Record<RecipientField, unknown>>),
      items: so.line_items.map((share) => {
        const li = byId.get(share.id);
        return li ? item(li.product, share.quantity, li.attributes) : item(-1, share.quantity, {});
      }),
    })),
  };
}

/** One shipping order as a request would make it: a recipient and the items it gets (a row of a recipients list). */
export function shipmentContent(recipient: Partial<Record<RecipientField, unknown>>, items: readonly { product: ExactInteger; quantity: number; attributes: Record<string, string> }[], offerings?: Offerings): ShipmentContent {
  return { ...recipientContent(recipient), items: items.map((item) => itemContent(item.product, item.quantity, item.attributes, offerings)) };
}

/** The content of the service's order record, or the first thing it lacks for a comparison. */
export function recordContent(record: unknown, offerings?: Offerings): OrderContent | { missing: string } {
  if (!isRecord(record)) return { missing: 'the order record' };
  if (!Array.isArray(record.line_items)) return { missing: 'line_items' };
  if (!Array.isArray(record.shipping_orders)) return { missing: 'shipping_orders' };
  // An order has at least one line item: a record without any does not show them yet.
  if (record.line_items.length === 0) return { missing: 'line items' };
  if (record.shipping_orders.length === 0) {
    return { missing: `shipping orders for its ${count(record.line_items.length, 'line item')}` };
  }
  const lines: { id: unknown; part: unknown }[] = [];
  const lineItems: ItemContent[] = [];
  for (const [i, li] of record.line_items.entries()) {
    const read = partItem(li, `line_items[${i}]`, undefined, offerings);
    if ('missing' in read) return read;
    if (isRecord(li)) lines.push({ id: li.id, part: li.part });
    lineItems.push(read);
  }
  const shipments: ShipmentContent[] = [];
  for (const [s, so] of record.shipping_orders.entries()) {
    const at = `shipping_orders[${s}]`;
    if (!isRecord(so)) return { missing: at };
    const recipient = isRecord(so.recipient) ? so.recipient : {};
    const address = isRecord(so.address) ? so.address : isRecord(recipient.shipping_address) ? recipient.shipping_address : undefined;
    if (!address) return { missing: `${at}.address` };
    const names = {
      first_name: so.first_name ?? recipient.first_name,
      last_name: so.last_name ?? recipient.last_name,
    };
    if (names.first_name === undefined && names.last_name === undefined) return { missing: `${at}.first_name` };
    if (!Array.isArray(so.line_items)) return { missing: `${at}.line_items` };
    const items: ItemContent[] = [];
    for (const [j, share] of so.line_items.entries()) {
      const read = partItem(share, `${at}.line_items[${j}]`, lineOfShare(share, lines), offerings);
      if ('missing' in read) return read;
      items.push(read);
    }
    shipments.push({ ...recipientContent({ ...address, ...names }), items });
  }
  const unaccounted = unaccountedItem(lineItems, shipments);
  if (unaccounted !== undefined) return { missing: `shipping orders for all its items (${unaccounted})` };
  return { lineItems, shipments };
}

/**
 * The order line item's part a shipping order's share is read through, when its own part
 * lacks `product_id`: the line item of the same `id`, else the one whose part has the same
 * part `id`.
 */
function lineOfShare(share: unknown, lines: readonly { id: unknown; part: unknown }[]): unknown {
  if (!isRecord(share)) return undefined;
  const own = isRecord(share.part) ? share.part : undefined;
  if (own && asProductId(own.product_id) !== undefined) return undefined;
  const sameId = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);
  const byLine = lines.find((line) => sameId(share.id, line.id));
  if (byLine) return byLine.part;
  return own ? lines.find((line) => isRecord(line.part) && sameId(own.id, line.part.id))?.part : undefined;
}

/** The first line item whose quantity the shipping orders' shares do not add up to, described; undefined when they account for every item. */
function unaccountedItem(lineItems: readonly ItemContent[], shipments: readonly ShipmentContent[]): string | undefined {
  const ordered = new Map<string, number>();
  for (const item of lineItems) ordered.set(itemKind(item), (ordered.get(itemKind(item)) ?? 0) + item.quantity);
  const shipped = new Map<string, number>();
  for (const shipment of shipments) for (const item of shipment.items) shipped.set(itemKind(item), (shipped.get(itemKind(item)) ?? 0) + item.quantity);
  for (const item of lineItems) {
    const kind = itemKind(item);
    const held = shipped.get(kind) ?? 0;
    if (held !== ordered.get(kind)) return `${describeShare([{ ...item, quantity: ordered.get(kind)! }])} ordered, ${held} in its shipping orders`;
  }
  return undefined;
}

/** A record's line item, or a shipping order's share of one (whose part may be read through the order's line item). */
function partItem(value: unknown, at: string, linePart: unknown, offerings: Offerings | undefined): ItemContent | { missing: string } {
  if (!isRecord(value)) return { missing: at };
  const own = isRecord(value.part) ? value.part : undefined;
  const part = isRecord(linePart) ? linePart : own;
  if (!part) return { missing: `${at}.part` };
  const product = asProductId(part.product_id);
  if (product === undefined) return { missing: `${at}.part.product_id` };
  const quantity = asNumber(value.quantity);
  if (quantity === undefined) return { missing: `${at}.quantity` };
  const attributes = partAttributes(own ?? part) ?? partAttributes(part);
  if (!attributes) return { missing: `${at}.part.variant` };
  return itemContent(product, quantity, attributes, offerings);
}

/**
 * A product id given as a number, a BigInt (beyond 2^53, lib/exact-json.ts) or a numeric
 * string (`"5001"`), exactly: a number when one holds it, else a BigInt; undefined otherwise.
 */
function asProductId(value: unknown): ExactInteger | undefined {
  if (typeof value === 'bigint') return value;
  return typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? exactIntegerOf(value.trim()) : asNumber(value);
}

/** A number given as a number or a numeric string (`5001`, `"5001"`); undefined otherwise. */
function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  return typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined;
}

/** A part's attribute values: its `attributes` (`{size: "M"}`), else its `variant` (`{size: {name: "M"}}`). */
function partAttributes(part: Record<string, unknown>): Record<string, string> | undefined {
  const source = isRecord(part.attributes) ? part.attributes : isRecord(part.variant) ? part.variant : undefined;
  if (!source) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'string') out[name] = value;
    else if (isRecord(value) && typeof value.name === 'string') out[name] = value.name;
  }
  return out;
}

function itemContent(product: ExactInteger, quantity: number, given: Record<string, string>, offerings: Offerings | undefined): ItemContent {
  const attributes = new Map<string, string>();
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    attributes.set(attributeName(name), normalise(value));
    shown[attributeName(name)] = value;
  }
  const offered = offerings?.(product);
  if (offered) {
    for (const kind of offered) {
      if (!attributes.has(kind.name) && kind.values.length === 1) {
        attributes.set(kind.name, normalise(kind.values[0]!));
        shown[kind.name] = kind.values[0]!;
      }
    }
    const names = new Set(offered.map((kind) => kind.name));
    for (const name of [...attributes.keys()]) if (!names.has(name)) attributes.delete(name);
  }
  return { product, quantity, attributes, shown };
}

function recipientContent(fields: Partial<Record<RecipientField, unknown>>): Pick<ShipmentContent, 'recipient' | 'shownRecipient'> {
  const text = (field: RecipientField) => (typeof fields[field] === 'string' ? (fields[field] as string).trim().replace(/\s+/g, ' ') : '');
  const name = [text('first_name'), text('last_name')].filter(Boolean).join(' ');
  const shownRecipient = [name, text('line_1'), text('line_2'), text('postal_code'), text('country')].filter(Boolean).join(', ');
  return { recipient: storedRecipientKey(fields), shownRecipient };
}

/** Text as compared: NFC, trimmed, runs of space as one, lower case; not a string is empty. */
export function normalise(value: unknown): string {
  return typeof value === 'string' ? value.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase() : '';
}

/** A line item's identity without its quantity: the product and its attributes. */
function itemKind(item: ItemContent): string {
  return stringifyExact([item.product, [...item.attributes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

function itemKey(item: ItemContent): string {
  return `${itemKind(item)}x${item.quantity}`;
}

/** A shipping order as a key: its recipient and its share of the items (in any order). */
export function shipmentKey(shipment: ShipmentContent): string {
  return JSON.stringify([RECIPIENT_KEYS.map((field) => shipment.recipient[field]), shipment.items.map(itemKey).sort()]);
}

/**
 * The first difference between an order as asked and the service's order, or undefined
 * when they are the same. Line items and shipping orders are compared as collections (a
 * service may list them in another order); the difference named is the first by position.
 */
export function firstDifference(ours: OrderContent, theirs: OrderContent): string | undefined {
  // How the items are grouped into line items is not the order (a list's rows of one variant
  // make one line item, a file may give each its own): the items are compared as the total
  // of each product and attribute set.
  const mine = totals(ours.lineItems);
  const its = totals(theirs.lineItems);
  for (const [kind, { item, quantity }] of mine) {
    const other = its.get(kind);
    if (other === undefined) return `${describeItem(item)} here, not in that order`;
    if (other.quantity !== quantity) return `${describeItem(item)}: quantity ${quantity} here, ${other.quantity} in that order`;
  }
  for (const [kind, { item }] of its) if (!mine.has(kind)) return `${describeItem(item)} in that order, not here`;
  if (ours.shipments.length !== theirs.shipments.length) {
    return `${count(ours.shipments.length, 'shipping order')} here, ${theirs.shipments.length} in that order`;
  }
  if (!sameCollection(ours.shipments.map(shipmentKey), theirs.shipments.map(shipmentKey))) {
    for (const [s, shipment] of ours.shipments.entries()) {
      const other = theirs.shipments[s]!;
      if (RECIPIENT_KEYS.some((field) => shipment.recipient[field] !== other.recipient[field])) {
        return `shipping order ${s + 1}: recipient "${shipment.shownRecipient}" here, "${other.shownRecipient}" in that order`;
      }
      const mine = shipment.items.map(itemKey).sort();
      const its = other.items.map(itemKey).sort();
      if (!sameCollection(mine, its)) {
        return `shipping order ${s + 1} (${shipment.shownRecipient}): ${describeShare(shipment.items)} here, ${describeShare(other.items)} in that order`;
      }
    }
    return 'the shipping orders differ';
  }
  return undefined;
}

/** Each product and attribute set's total quantity over the line items. */
function totals(items: readonly ItemContent[]): Map<string, { item: ItemContent; quantity: number }> {
  const out = new Map<string, { item: ItemContent; quantity: number }>();
  for (const item of items) {
    const kind = itemKind(item);
    const known = out.get(kind);
    out.set(kind, { item: known?.item ?? item, quantity: (known?.quantity ?? 0) + item.quantity });
  }
  return out;
}

/** `2 x product 100003 (color Black, size M)` */
export function describeShare(items: readonly ItemContent[]): string {
  if (items.length === 0) return 'nothing';
  return items.map((item) => `${item.quantity} x ${describeItem(item)}`).join(' + ');
}

/** `product 100003 (color Black, size M)` */
function describeItem(item: ItemContent): string {
  const attributes = Object.entries(item.shown).map(([name, value]) => `${name} ${value}`);
  return `product ${item.product}${attributes.length ? ` (${attributes.join(', ')})` : ''}`;
}

function sameCollection(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...a].sort();
  const right = [...b].sort();
  return left.every((key, i) => key === right[i]);
}
