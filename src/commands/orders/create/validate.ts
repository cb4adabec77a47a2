import type { OrderSources } from './builder.js';
import { formatPath, orderRequestSchema, type OrderRequest } from './order-request.js';

/**
 * Local validation of an order request body, before anything is sent.
 *
 * The zod schema checks shapes and required fields; the rules here check what a schema
 * cannot: every line item fully accounted for by the shipping orders (4.4 rule 1),
 * references to line items that exist, unique line item ids, and attribute names and
 * values offered by each product's `available_attributes`. Attribute names and values are
 * matched case-insensitively, and the valid body that comes back is respelt as the product
 * spells them (`m` -> `M`, `Size` -> `size`).
 *
 * Every violation is reported, each with its JSON path, and, when the builder knows where
 * the value came from, that place (`recipients.csv row 5, column postal_code`).
 */

/** A product's `available_attributes`: `colors: [{hex, name}]`, `sizes: [{name}]`, ... */
export type AvailableAttributes = Record<string, unknown>;

export interface ValidationIssue {
  /** JSON path in the request body, e.g. `shipping_orders[3].recipient.postal_code`. */
  path: string;
  message: string;
  /** Where the user wrote it, when known: `recipients.csv row 5, column postal_code`. */
  where?: string;
}

export interface ValidateOptions {
  /**
   * Custom product id -> its `available_attributes` (fetched once per product by the
   * caller); `null` when the product does not exist. Products not in the map are not
   * checked for attributes.
   */
  products?: ReadonlyMap<number, AvailableAttributes | null>;
  sources?: OrderSources;
  /** An attribute the product offers more than one value of must be chosen (default true). */
  requireAttributes?: boolean;
}

export type ValidationResult =
  | { ok: true; body: OrderRequest; issues: [] }
  | { ok: false; body?: undefined; issues: ValidationIssue[] };

type Path = (string | number)[];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPositiveInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v > 0;
}

function whereOf(path: Path, sources?: OrderSources): string | undefined {
  if (!sources) return undefined;
  const [top, index, field, sub] = path;
  if (top === 'shipping_orders' && typeof index === 'number' && field === 'recipient' && typeof sub === 'string') {
    return sources.shippingOrders.get(index)?.(sub);
  }
  if (top === 'line_items' && typeof index === 'number') {
    const origin = sources.lineItems.get(index);
    if (field === 'attributes' && typeof sub === 'string') return origin?.(sub);
    if (field === 'product' || field === 'quantity') return origin?.(field);
  }
  if (top === 'billing_address' && typeof index === 'string') return sources.billing?.(index);
  return undefined;
}

/** One attribute kind a product offers: `size` with the values `S`, `M`, `L`. */
interface Offered {
  name: string;
  values: string[];
}

function offeredAttributes(available: AvailableAttributes): Offered[] {
  const out: Offered[] = [];
  for (const [key, list] of Object.entries(available)) {
    if (!Array.isArray(list) || list.length === 0) continue;
    const values = list
      .map((v) => (typeof v === 'string' ? v : isObject(v) && typeof v.name === 'string' ? v.name : undefined))
      .filter((v): v is string => v !== undefined);
    if (values.length === 0) continue;
    // `colors` -> `color`, `sizes` -> `size`: line items name the attribute in the singular.
    const name = key.toLowerCase().endsWith('s') ? key.toLowerCase().slice(0, -1) : key.toLowerCase();
    out.push({ name, values });
  }
  return out;
}

function findOffered(offered: Offered[], attr: string): Offered | undefined {
  const a = attr.toLowerCase();
  return offered.find((o) => o.name === a || `${o.name}s` === a);
}

function listValues(values: string[]): string {
  const shown = values.slice(0, 12).join(', ');
  return values.length > 12 ? `${shown}, ... (${values.length} in all)` : shown;
}

export function validateOrder(body: unknown, options: ValidateOptions = {}): ValidationResult {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  const add = (path: Path, message: string) => {
    const p = formatPath(path);
    const k = `${p}\u0000${message}`;
    if (seen.has(k)) return;
    seen.add(k);
    const where = whereOf(path, options.sources);
    issues.push(where === undefined ? { path: p, message } : { path: p, message, where });
  };

  const parsed = orderRequestSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) add([...path, key], 'is not a field of the order request');
      } else {
        add(path, issue.message);
      }
    }
  }

  const raw = isObject(body) ? body : {};
  const lineItems = Array.isArray(raw.line_items) ? raw.line_items : [];
  const shippingOrders = Array.isArray(raw.shipping_orders) ? raw.shipping_orders : [];

  // Unique line item ids.
  const indexById = new Map<number, number>();
  const duplicated = new Set<number>();
  lineItems.forEach((li, i) => {
    if (!isObject(li) || !isPositiveInt(li.id)) return;
    const first = indexById.get(li.id);
    if (first !== undefined) {
      duplicated.add(li.id);
      add(['line_items', i, 'id'], `duplicate id ${li.id} (also line_items[${first}].id)`);
    } else {
      indexById.set(li.id, i);
    }
  });

  // References and the quantities the shipping orders carry per line item.
  const carried = new Map<number, number>();
  const uncountable = new Set<number>();
  for (let s = 0; s < shippingOrders.length; s++) {
    const so: unknown = shippingOrders[s];
    if (!isObject(so) || !Array.isArray(so.line_items)) continue;
    const refs: unknown[] = so.line_items;
    for (let r = 0; r < refs.length; r++) {
      const ref = refs[r];
      if (!isObject(ref) || !isPositiveInt(ref.id)) continue;
      if (!indexById.has(ref.id)) {
        add(['shipping_orders', s, 'line_items', r, 'id'], `refers to line item ${ref.id}, which the order does not have`);
        continue;
      }
      // listed twice in this shipping order? (most list one or two items: a scan is cheapest)
      for (let q = 0; q < r; q++) {
        const prev = refs[q];
        if (isObject(prev) && prev.id === ref.id) {
          add(['shipping_orders', s, 'line_items', r, 'id'], `line item ${ref.id} is listed twice in this shipping order (also line_items[${q}])`);
          break;
        }
      }
      if (!isPositiveInt(ref.quantity)) uncountable.add(ref.id);
      else carried.set(ref.id, (carried.get(ref.id) ?? 0) + ref.quantity);
    }
  }

  // Rule 1: every line item fully accounted for.
  lineItems.forEach((li, i) => {
    if (!isObject(li) || !isPositiveInt(li.id) || !isPositiveInt(li.quantity)) return;
    if (duplicated.has(li.id) || uncountable.has(li.id) || indexById.get(li.id) !== i) return;
    const n = carried.get(li.id) ?? 0;
    if (n === 0) {
      add(['line_items', i, 'quantity'], `line item ${li.id} (quantity ${li.quantity}) is in no shipping order`);
    } else if (n !== li.quantity) {
      add(
        ['line_items', i, 'quantity'],
        `is ${li.quantity} but the shipping orders carry ${n} of line item ${li.id}: every unit must be in exactly one shipping order`,
      );
    }
  });

  // Attributes offered by each product; remember the product's spelling.
  const respell = new Map<number, Record<string, string>>();
  const products = options.products;
  if (products) {
    lineItems.forEach((li, i) => {
      if (!isObject(li) || !isPositiveInt(li.product) || !products.has(li.product)) return;
      const available = products.get(li.product);
      if (available === null || available === undefined) {
        add(['line_items', i, 'product'], `custom product ${li.product} does not exist (or is not in this account)`);
        return;
      }
      const offered = offeredAttributes(available);
      const attrs = isObject(li.attributes) ? li.attributes : {};
      const spelt: Record<string, string> = {};
      const chosen = new Set<string>();
      for (const [name, value] of Object.entries(attrs)) {
        const kind = findOffered(offered, name);
        if (!kind) {
          const names = offered.map((o) => o.name);
          add(
            ['line_items', i, 'attributes', name],
            names.length
              ? `product ${li.product} has no attribute "${name}" (it offers: ${names.join(', ')})`
              : `product ${li.product} offers no attributes`,
          );
          continue;
        }
        if (chosen.has(kind.name)) {
          add(['line_items', i, 'attributes', name], `"${kind.name}" is given twice`);
          continue;
        }
        chosen.add(kind.name);
        if (typeof value !== 'string') continue; // the schema reports it
        const match = kind.values.find((v) => v.toLowerCase() === value.trim().toLowerCase());
        if (match === undefined) {
          add(
            ['line_items', i, 'attributes', name],
            `"${value}" is not a ${kind.name} of product ${li.product} (offered: ${listValues(kind.values)})`,
          );
          continue;
        }
        spelt[kind.name] = match;
      }
      if (options.requireAttributes !== false) {
        for (const kind of offered) {
          if (kind.values.length > 1 && !chosen.has(kind.name)) {
            add(
              ['line_items', i, 'attributes', kind.name],
              `is required: product ${li.product} comes in ${listValues(kind.values)}`,
            );
          }
        }
      }
      respell.set(i, spelt);
    });
  }

  if (issues.length > 0 || !parsed.success) return { ok: false, issues };
  const out = parsed.data;
  out.line_items.forEach((li, i) => {
    const spelt = respell.get(i);
    if (spelt) {
      // sorted by name: one order of keys for the same attributes, whatever the input's
      const sorted: Record<string, string> = {};
      for (const name of Object.keys(spelt).sort()) sorted[name] = spelt[name]!;
      li.attributes = sorted;
    }
  });
  return { ok: true, body: out, issues: [] };
}

/** `recipients.csv row 5, column postal_code: is required` */
export function formatIssue(issue: ValidationIssue): string {
  return `${issue.where ?? issue.path}: ${issue.message}`;
}

/** The first issue, and how many others there are; for a one-line usage error. */
export function summariseIssues(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return '';
  const rest = issues.length - 1;
  return rest > 0 ? `${formatIssue(first)} (and ${rest} other problem${rest === 1 ? '' : 's'})` : formatIssue(first);
}
