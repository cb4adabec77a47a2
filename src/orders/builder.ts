import { csvLocation, type RecipientsCsv } from './recipients-csv.js';

/**
 * The one order builder behind every input path: `--file` JSON, flags, a recipients CSV
 * and the wizard's answers all become `OrderPieces`, and `buildOrder` turns them into the
 * request body of section 4.4. It does not validate (see validate.ts) and makes no
 * request; it only assembles, so the same pieces always give the same body.
 *
 * Precedence: flags override the file. `--external-id`, `--payment-method` and
 * `--billing` replace the file's values. Items from flags replace the file's line items;
 * recipients from flags (`--recipient` or `--recipients`) replace its shipping orders.
 * Items without recipients keep the file's single shipping order's recipient.
 *
 * With a recipients CSV each row is one recipient with one product: the row's `product`
 * cell, else the item given by flags or the file (which must then be exactly one). The
 * rows are grouped into one line item per distinct (product, attribute set), numbered
 * 1..n in first-seen order, whose quantity is the sum of its rows' quantities; each row
 * gets a shipping order carrying its own quantity of that line item, so every line item
 * is fully accounted for by construction. Attribute values are grouped case-insensitively
 * (`M` and `m` are one line item, spelt as first seen; validation then respells them as
 * the product does).
 */

export interface ItemInput {
  /** Custom product id; optional only as a CSV default holder (rows may name the product). */
  product?: number;
  /** Line quantity; with a recipients CSV, the default quantity per recipient. */
  quantity?: number;
  attributes: Record<string, string>;
  /** How to name this item's fields in errors, e.g. `--item #2`. Default: --product/--attr. */
  flag?: string;
}

export interface OrderPieces {
  /** The parsed `--file` JSON (any value; non-objects are a build error). */
  file?: unknown;
  /** Name of the file for errors (`-` for stdin). */
  fileName?: string;
  externalId?: string;
  paymentMethodId?: string;
  billing?: Record<string, string>;
  items?: ItemInput[];
  /** One recipient (`--recipient`, or typed into the wizard). */
  recipient?: Record<string, string>;
  /** Many recipients (`--recipients FILE.csv`). */
  recipients?: RecipientsCsv;
}

/** Describes where a field of a body element came from: `recipients.csv row 5, column size`. */
export type Origin = (field: string) => string;

/** Origins by index (a Map, or a cheaper lookup for thousands of CSV rows). */
export interface OriginLookup {
  get(index: number): Origin | undefined;
}

export interface OrderSources {
  lineItems: Map<number, Origin>;
  shippingOrders: OriginLookup;
  billing?: Origin;
}

export interface BuiltOrder {
  body: Record<string, unknown>;
  sources: OrderSources;
  /** Pieces the order still lacks, as the flags that would give them. */
  missing: string[];
}

export class BuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BuildError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function itemOrigin(item: ItemInput): Origin {
  if (item.flag) return (f) => `${item.flag}, key ${f}`;
  return (f) => (f === 'product' ? '--product' : f === 'quantity' ? '--quantity' : `--attr ${f}`);
}

/** Line items of a `--file` body as builder items (only to serve as CSV defaults). */
function fileItems(file: Record<string, unknown>): ItemInput[] | undefined {
  if (!Array.isArray(file.line_items)) return undefined;
  return file.line_items.map((li) => {
    const o = isObject(li) ? li : {};
    return {
      product: typeof o.product === 'number' ? o.product : undefined,
      quantity: undefined, // a file's line quantity is a total, not a per-recipient one
      attributes: isObject(o.attributes) ? (o.attributes as Record<string, string>) : {},
    };
  });
}

export function buildOrder(pieces: OrderPieces): BuiltOrder {
  const fileLabel = pieces.fileName ?? '--file';
  if (pieces.file !== undefined && !isObject(pieces.file)) {
    throw new BuildError(`${fileLabel}: expected a JSON object (the request body of POST /v1/orders/)`);
  }
  const file = (pieces.file as Record<string, unknown> | undefined) ?? {};
  const body: Record<string, unknown> = { ...file };
  const sources: OrderSources = { lineItems: new Map(), shippingOrders: new Map() };
  const missing: string[] = [];

  if (pieces.externalId !== undefined) body.external_id = pieces.externalId;
  if (pieces.paymentMethodId !== undefined) body.payment_method_id = pieces.paymentMethodId;
  if (pieces.billing !== undefined) {
    body.billing_address = { ...pieces.billing };
    sources.billing = (f) => `--billing, key ${f}`;
  }
  if (pieces.recipient && pieces.recipients) {
    throw new BuildError('--recipient and --recipients cannot be used together');
  }

  if (pieces.recipients) {
    buildFromCsv(body, sources, pieces.recipients, pieces.items ?? fileItems(file));
  } else if (pieces.items || pieces.recipient) {
    let lineItems: unknown[];
    if (pieces.items) {
      lineItems = pieces.items.map((it, i) => {
        sources.lineItems.set(i, itemOrigin(it));
        if (it.product === undefined) missing.push('--product');
        if (it.quantity === undefined) missing.push(it.flag ? `${it.flag}: quantity=N` : '--quantity');
        return { id: i + 1, product: it.product, quantity: it.quantity, attributes: { ...it.attributes } };
      });
      body.line_items = lineItems;
    } else {
      lineItems = Array.isArray(file.line_items) ? file.line_items : [];
    }

    let recipient: unknown = pieces.recipient;
    if (recipient !== undefined) {
      sources.shippingOrders = new Map([[0, (f: string) => `--recipient, key ${f}`]]);
    } else if (Array.isArray(file.shipping_orders)) {
      if (file.shipping_orders.length > 1) {
        throw new BuildError(
          `items given by flags replace the line items of ${fileLabel}, whose ${file.shipping_orders.length} shipping orders refer to them: give the recipient with --recipient or --recipients`,
        );
      }
      const only = file.shipping_orders[0];
      recipient = isObject(only) ? only.recipient : undefined;
    }
    if (recipient !== undefined) {
      body.shipping_orders = [
        {
          recipient: isObject(recipient) ? { ...recipient } : recipient,
          line_items: lineItems.map((li) => {
            const o = isObject(li) ? li : {};
            return { id: o.id, quantity: o.quantity };
          }),
        },
      ];
    }
  }

  if (!Array.isArray(body.line_items) || body.line_items.length === 0) {
    if (!pieces.recipients) missing.push('--product and --quantity (or --item, or --file)');
  }
  if (!Array.isArray(body.shipping_orders) || body.shipping_orders.length === 0) {
    missing.push('--recipient or --recipients');
  }
  return { body, sources, missing };
}

function buildFromCsv(
  body: Record<string, unknown>,
  sources: OrderSources,
  csv: RecipientsCsv,
  items: ItemInput[] | undefined,
): void {
  if (items && items.length > 1) {
    throw new BuildError(
      `--recipients sends each recipient one product, but ${items.length} items were given: use one --product (or a "product" column in ${csv.file})`,
    );
  }
  const base = items?.[0];
  const baseOrigin = base ? itemOrigin(base) : undefined;
  const groups = new Map<string, { index: number; item: Record<string, unknown> }>();
  const lineItems: Record<string, unknown>[] = [];
  const shippingOrders: Record<string, unknown>[] = [];
  const rowOfShippingOrder: number[] = [];

  for (const row of csv.rows) {
    const product = row.product ?? base?.product;
    if (product === undefined) {
      throw new BuildError(
        `${csvLocation(csv.file, row.row, csv.hasProduct ? 'product' : undefined)}: no product: add a "product" column or pass --product`,
      );
    }
    const quantity = row.quantity ?? base?.quantity ?? 1;
    // The attribute set is a function of the product (which decides the inherited --attr
    // values) and of the row's attribute cells: key on those, without building the set.
    let key = String(product);
    for (const column of csv.attributeColumns) {
      const v = row.attributes[column];
      key += v === undefined ? '\u0001\u0002' : `\u0001${v.toLowerCase()}`;
    }
    let group = groups.get(key);
    if (!group) {
      // The base item's attributes apply to rows of the same product; the row's cells win.
      const inherited = base && base.product === product ? base.attributes : {};
      const attributes: Record<string, string> = { ...inherited };
      for (const [k, v] of Object.entries(row.attributes)) {
        // a CSV column replaces an inherited attribute of the same name in any letter case
        for (const ik of Object.keys(attributes)) if (ik.toLowerCase() === k) delete attributes[ik];
        attributes[k] = v;
      }
      const index = lineItems.length;
      const item = { id: index + 1, product, quantity: 0, attributes };
      group = { index, item };
      groups.set(key, group);
      lineItems.push(item);
      const fromRow = new Set(Object.keys(row.attributes));
      const rowNo = row.row;
      sources.lineItems.set(index, (f) => {
        if (fromRow.has(f) || (f === 'product' && row.product !== undefined) || (f === 'quantity' && row.quantity !== undefined)) {
          return csvLocation(csv.file, rowNo, f);
        }
        return baseOrigin ? baseOrigin(f) : csvLocation(csv.file, rowNo, f);
      });
    }
    group.item.quantity = (group.item.quantity as number) + quantity;
    const soIndex = shippingOrders.length;
    shippingOrders.push({ recipient: row.recipient, line_items: [{ id: group.index + 1, quantity }] });
    rowOfShippingOrder[soIndex] = row.row;
  }
  sources.shippingOrders = {
    get: (index) => {
      const rowNo = rowOfShippingOrder[index];
      return rowNo === undefined ? undefined : (f) => csvLocation(csv.file, rowNo, f);
    },
  };
  body.line_items = lineItems;
  body.shipping_orders = shippingOrders;
}
