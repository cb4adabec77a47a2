import { USUAL_RECIPIENT_FIELDS } from './address.js';
import { findOffered, matchValue, offeredAttributes } from './attributes.js';
import { formatPath, type FieldPath } from './field-path.js';
import { NOT_BLANK, readOrderRequest, type OrderRequest } from './order-request.js';

/**
 * The rules of an order creation request (spec 4.4), judged the same way by the CLI before
 * it sends and by the sandbox when it receives:
 *
 * - errors (the order is refused): the shape (order-request.ts); line item ids unique;
 *   every shipping order's line item refers to a line item; every line item accounted for
 *   exactly by the shipping orders (rule 1); and, from the account's own data, products that
 *   exist, attribute names and values from each product's `available_attributes` (an
 *   attribute offered in more than one value must be chosen), a payment method that exists.
 * - warnings (sent all the same; the service decides): keys the interface does not have
 *   (Django REST Framework ignores them, and so does the parsed body), a recipient without a
 *   field a parcel needs, a line item listed twice in one shipping order.
 *
 * Every finding names its field path.
 */

export interface Finding {
  path: FieldPath;
  message: string;
}

export interface AccountData {
  /** Custom product id -> its `available_attributes`; `null` when the account has no such product. Products not in the map are not checked. */
  products?: ReadonlyMap<number | bigint, Record<string, unknown> | null>;
  /** The account's payment method ids; not checked when absent. */
  paymentMethodIds?: ReadonlySet<string>;
}

export type RulesResult =
  | { ok: true; body: OrderRequest; errors: []; warnings: Finding[] }
  | { ok: false; body?: undefined; errors: Finding[]; warnings: Finding[] };

export function checkOrderRequest(input: unknown, account: AccountData = {}): RulesResult {
  const errors: Finding[] = [];
  const warnings: Finding[] = [];
  const seen = new Set<string>();
  const error = (path: FieldPath, message: string): void => {
    const key = `${formatPath(path)}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    errors.push({ path, message });
  };
  const warn = (path: FieldPath, message: string): void => void warnings.push({ path, message });

  const body = parseShape(input, error, warn);
  const raw = isObject(input) ? input : {};
  const lineItems = Array.isArray(raw.line_items) ? raw.line_items : [];
  const shippingOrders = Array.isArray(raw.shipping_orders) ? raw.shipping_orders : [];

  const indexById = uniqueLineItems(lineItems, error);
  accountedFor(lineItems, shippingOrders, indexById, error, warn);
  const spelt = checkAttributes(lineItems, account.products, error);
  if (account.paymentMethodIds && typeof raw.payment_method_id === 'string' && NOT_BLANK.test(raw.payment_method_id)) {
    if (!account.paymentMethodIds.has(raw.payment_method_id)) {
      error(['payment_method_id'], `payment method ${raw.payment_method_id} does not exist in this account`);
    }
  }
  shippingOrders.forEach((so, s) => {
    if (!isObject(so) || !isObject(so.recipient)) return;
    const recipient = so.recipient;
    for (const field of USUAL_RECIPIENT_FIELDS) {
      const value = recipient[field];
      if (typeof value !== 'string' || !NOT_BLANK.test(value)) {
        warn(['shipping_orders', s, 'recipient', field], 'is empty: the service may refuse the order, or the parcel may not arrive');
      }
    }
  });

  if (errors.length > 0 || body === undefined) return { ok: false, errors, warnings };
  body.line_items.forEach((li, i) => {
    const names = spelt.get(i);
    if (names) li.attributes = names;
  });
  return { ok: true, body, errors: [], warnings };
}

/** The shape's verdict: unknown keys are warnings, and are parsed out of the body. */
function parseShape(
  input: unknown,
  error: (path: FieldPath, message: string) => void,
  warn: (path: FieldPath, message: string) => void,
): OrderRequest | undefined {
  const read = readOrderRequest(input);
  for (const issue of read.issues) {
    if (issue.unknownKeys) {
      for (const key of issue.unknownKeys) warn([...issue.path, key], 'is not part of the interface: the service will ignore it');
    } else error(issue.path, issue.message);
  }
  return read.body;
}

function uniqueLineItems(lineItems: unknown[], error: (path: FieldPath, message: string) => void): Map<number, number> {
  const indexById = new Map<number, number>();
  lineItems.forEach((li, i) => {
    if (!isObject(li) || !isInteger(li.id)) return;
    const first = indexById.get(li.id);
    if (first !== undefined) error(['line_items', i, 'id'], `duplicate id ${li.id} (also line_items[${first}].id)`);
    else indexById.set(li.id, i);
  });
  return indexById;
}

/** References to line items that exist, and rule 1: every unit of every line item in exactly one shipping order. */
function accountedFor(
  lineItems: unknown[],
  shippingOrders: unknown[],
  indexById: Map<number, number>,
  error: (path: FieldPath, message: string) => void,
  warn: (path: FieldPath, message: string) => void,
): void {
  const carried = new Map<number, number>();
  const uncountable = new Set<number>();
  /** The line_items arrays read without a finding: a list's shipping orders share theirs, and each later one only carries its units again. */
  const clean = new Set<unknown[]>();
  shippingOrders.forEach((so, s) => {
    if (!isObject(so) || !Array.isArray(so.line_items)) return;
    const refs: unknown[] = so.line_items;
    if (clean.has(refs)) {
      for (const ref of refs as { id: number; quantity: number }[]) carried.set(ref.id, carried.get(ref.id)! + ref.quantity);
      return;
    }
    let found = false;
    refs.forEach((ref, r) => {
      if (!isObject(ref) || !isInteger(ref.id)) return void (found = true);
      if (!indexById.has(ref.id)) {
        error(['shipping_orders', s, 'line_items', r, 'id'], `refers to line item ${ref.id}, which the order does not have`);
        return void (found = true);
      }
      // Most shipping orders list one or two items: a scan is cheapest.
      const twice = earlierIndex(refs, r, ref.id);
      if (twice !== -1) {
        warn(['shipping_orders', s, 'line_items', r, 'id'], `line item ${ref.id} is listed twice in this shipping order (also line_items[${twice}]): the quantities add up`);
        found = true;
      }
      if (!isPositiveInteger(ref.quantity)) {
        uncountable.add(ref.id);
        found = true;
      } else carried.set(ref.id, (carried.get(ref.id) ?? 0) + ref.quantity);
    });
    if (!found) clean.add(refs);
  });
  lineItems.forEach((li, i) => {
    if (!isObject(li) || !isInteger(li.id) || !isPositiveInteger(li.quantity)) return;
    if (uncountable.has(li.id) || indexById.get(li.id) !== i) return;
    const n = carried.get(li.id) ?? 0;
    if (n === 0) error(['line_items', i, 'quantity'], `line item ${li.id} (quantity ${li.quantity}) is in no shipping order`);
    else if (n !== li.quantity) {
      error(['line_items', i, 'quantity'], `is ${li.quantity} but the shipping orders carry ${n} of line item ${li.id}: every unit must be in exactly one shipping order`);
    }
  });
}

/** Products that exist and attributes they offer; returns each line item's attributes in the product's spelling, sorted by name. */
function checkAttributes(
  lineItems: unknown[],
  products: AccountData['products'],
  error: (path: FieldPath, message: string) => void,
): Map<number, Record<string, string>> {
  const spelt = new Map<number, Record<string, string>>();
  if (!products) return spelt;
  lineItems.forEach((li, i) => {
    if (!isObject(li) || !(isInteger(li.product) || typeof li.product === 'bigint') || !products.has(li.product)) return;
    const available = products.get(li.product);
    if (available === null || available === undefined) {
      error(['line_items', i, 'product'], `custom product ${li.product} does not exist (or is not in this account)`);
      return;
    }
    if (li.attributes !== undefined && !isObject(li.attributes)) return; // the schema reports it
    const offered = offeredAttributes(available);
    const attributes = li.attributes ?? {};
    const chosen: Record<string, string> = {};
    for (const [name, value] of Object.entries(attributes)) {
      const kind = findOffered(offered, name);
      if (!kind) {
        const names = offered.map((o) => o.name);
        error(
          ['line_items', i, 'attributes', name],
          names.length ? `product ${li.product} has no attribute "${name}" (it offers: ${names.join(', ')})` : `product ${li.product} offers no attributes`,
        );
        continue;
      }
      if (kind.name in chosen) {
        error(['line_items', i, 'attributes', name], `"${kind.name}" is given twice`);
        continue;
      }
      if (typeof value !== 'string') continue; // the schema reports it
      const match = matchValue(kind, value);
      if (match === undefined) {
        error(['line_items', i, 'attributes', name], `"${value}" is not a ${kind.name} of product ${li.product} (offered: ${listValues(kind.values)})`);
        continue;
      }
      chosen[kind.name] = match;
    }
    for (const kind of offered) {
      if (kind.values.length > 1 && !(kind.name in chosen) && !Object.keys(attributes).some((n) => findOffered(offered, n) === kind)) {
        error(['line_items', i, 'attributes', kind.name], `is required: product ${li.product} comes in ${listValues(kind.values)}`);
      }
    }
    const sorted: Record<string, string> = {};
    for (const name of Object.keys(chosen).sort()) sorted[name] = chosen[name]!;
    spelt.set(i, sorted);
  });
  return spelt;
}

/** The index of the first of `refs[0..before)` with this `id`, or -1. */
function earlierIndex(refs: unknown[], before: number, id: number): number {
  for (let i = 0; i < before; i++) {
    const prev = refs[i];
    if (isObject(prev) && prev.id === id) return i;
  }
  return -1;
}

function listValues(values: string[]): string {
  const shown = values.slice(0, 12).join(', ');
  return values.length > 12 ? `${shown}, ... (${values.length} in all)` : shown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

function isPositiveInteger(v: unknown): v is number {
  return isInteger(v) && v > 0;
}
