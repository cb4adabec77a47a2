import { attributeName } from '../../contract/attributes.js';
import { shapedByConstruction, type ShippingLineItem, type ShippingOrder } from '../../contract/order-request.js';
import { isRecord } from '../../lib/is-record.js';
import { csvLocation, type RecipientRow, type RecipientsCsv } from './recipients-csv.js';

/**
 * The one order builder behind every input path: `--file` JSON, flags, a recipients CSV
 * and the wizard's answers all become `OrderPieces`, and `buildOrder` turns them into the
 * request body of section 4.4. It does not validate (see validate.ts) and makes no
 * request; it only assembles, so the same pieces always give the same body.
 *
 * Precedence: the pieces given (from flags, say) override the file: the external id, the
 * payment method and the billing address replace the file's values; items replace its line
 * items; a recipient or a recipients list replaces its shipping orders. Items without
 * recipients keep the file's single shipping order's recipient. The builder names no flag:
 * what is missing is a piece, and where a value came from is the piece's `origin`.
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
  /** Custom product id (a BigInt beyond 2^53); optional only as a CSV default holder (rows may name the product). */
  product?: number | bigint;
  /** Line quantity; with a recipients CSV, the default quantity per recipient. */
  quantity?: number;
  attributes: Record<string, string>;
  /** Where this item's fields came from, named in messages (`--item #2, key size`); by default their JSON path. */
  origin?: Origin;
}

export interface OrderPieces {
  /** The parsed `--file` JSON (any value; non-objects are a build error). */
  file?: unknown;
  /** The file's name in messages, as the caller names its source (the command: the path, or `standard input (--file -)`). */
  fileName?: string;
  externalId?: string;
  paymentMethodId?: string;
  billing?: Record<string, string>;
  items?: ItemInput[];
  /** One recipient (`--recipient`, or typed into the wizard). */
  recipient?: Record<string, string>;
  /** Many recipients (`--recipients FILE.csv`). */
  recipients?: RecipientsCsv;
  /** Where the recipient and the billing address came from, named in messages; by default their JSON path. */
  origins?: { recipient?: Origin; billing?: Origin };
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

/** A piece the order still lacks: its line items, its recipients, or a field of an item (named by the item's origin). */
export type MissingPiece = { piece: 'line items' | 'recipients' } | { piece: 'product' | 'quantity'; item: number; origin?: string };

export interface BuiltOrder {
  body: Record<string, unknown>;
  sources: OrderSources;
  /** Pieces the order still lacks. */
  missing: MissingPiece[];
}

/**
 * Why the pieces do not make an order: `file` is not an object, one recipient and a list
 * were both given, items replace a file's line items that its shipping orders refer to, a
 * recipients list with several items, a row that names no product.
 */
export type BuildProblem = 'file-not-object' | 'recipient-and-list' | 'items-replace-file-items' | 'list-with-several-items' | 'row-without-product';

export class BuildError extends Error {
  constructor(
    readonly problem: BuildProblem,
    message: string,
    /** The recipients file, for a problem of the list. */
    readonly file?: string,
  ) {
    super(message);
    this.name = 'BuildError';
  }
}


/** Line items of a `--file` body as builder items (only to serve as CSV defaults). */
function fileItems(file: Record<string, unknown>): ItemInput[] | undefined {
  if (!Array.isArray(file.line_items)) return undefined;
  return file.line_items.map((li) => {
    const o = isRecord(li) ? li : {};
    return {
      product: typeof o.product === 'number' || typeof o.product === 'bigint' ? o.product : undefined,
      quantity: undefined, // a file's line quantity is a total, not a per-recipient one
      attributes: isRecord(o.attributes) ? (o.attributes as Record<string, string>) : {},
    };
  });
}

export function buildOrder(pieces: OrderPieces): BuiltOrder {
  const fileLabel = pieces.fileName ?? 'the order file';
  if (pieces.file !== undefined && !isRecord(pieces.file)) {
    throw new BuildError('file-not-object', `${fileLabel}: expected a JSON object (the request body of POST /v1/orders/)`);
  }
  const file = (pieces.file as Record<string, unknown> | undefined) ?? {};
  const body: Record<string, unknown> = { ...file };
  const sources: OrderSources = { lineItems: new Map(), shippingOrders: new Map() };
  const missing: MissingPiece[] = [];

  if (pieces.externalId !== undefined) body.external_id = pieces.externalId;
  if (pieces.paymentMethodId !== undefined) body.payment_method_id = pieces.paymentMethodId;
  if (pieces.billing !== undefined) {
    body.billing_address = { ...pieces.billing };
    if (pieces.origins?.billing) sources.billing = pieces.origins.billing;
  }
  if (pieces.recipient && pieces.recipients) {
    throw new BuildError('recipient-and-list', 'one recipient and a list of recipients cannot both be given');
  }

  if (pieces.recipients) {
    buildFromCsv(body, sources, pieces.recipients, listBase(pieces, pieces.recipients.file));
  } else if (pieces.items || pieces.recipient) {
    let lineItems: unknown[];
    if (pieces.items) {
      lineItems = pieces.items.map((it, i) => {
        if (it.origin) sources.lineItems.set(i, it.origin);
        if (it.product === undefined) missing.push({ piece: 'product', item: i, origin: it.origin?.('product') });
        if (it.quantity === undefined) missing.push({ piece: 'quantity', item: i, origin: it.origin?.('quantity') });
        return { id: i + 1, product: it.product, quantity: it.quantity, attributes: { ...it.attributes } };
      });
      body.line_items = lineItems;
    } else {
      lineItems = Array.isArray(file.line_items) ? file.line_items : [];
    }

    let recipient: unknown = pieces.recipient;
    if (recipient !== undefined) {
      if (pieces.origins?.recipient) sources.shippingOrders = new Map([[0, pieces.origins.recipient]]);
    } else if (Array.isArray(file.shipping_orders)) {
      if (file.shipping_orders.length > 1) {
        throw new BuildError(
          'items-replace-file-items',
          `the items given replace the line items of ${fileLabel}, whose ${file.shipping_orders.length} shipping orders refer to them: give the recipients too`,
        );
      }
      const only = file.shipping_orders[0];
      recipient = isRecord(only) ? only.recipient : undefined;
    }
    if (recipient !== undefined) {
      body.shipping_orders = [
        {
          recipient: isRecord(recipient) ? { ...recipient } : recipient,
          line_items: lineItems.map((li) => {
            const o = isRecord(li) ? li : {};
            return { id: o.id, quantity: o.quantity };
          }),
        },
      ];
    }
  }

  if (!Array.isArray(body.line_items) || body.line_items.length === 0) {
    if (!pieces.recipients) missing.push({ piece: 'line items' });
  }
  if (!Array.isArray(body.shipping_orders) || body.shipping_orders.length === 0) {
    missing.push({ piece: 'recipients' });
  }
  return { body, sources, missing };
}

/**
 * The built order with this payment method, as `buildOrder` makes it from the same pieces
 * and `paymentMethodId` (the account's default, known once the pieces were built), without
 * assembling the rows again: a list of 10,000 rows took ~15 ms a build.
 */
export function withPaymentMethod(built: BuiltOrder, paymentMethodId: string): BuiltOrder {
  return { ...built, body: { ...built.body, payment_method_id: paymentMethodId } };
}

/**
 * Where a field of a row's line item came from: the base item (`--attr size`) only when it
 * gave that field and the row did not; otherwise the row and the column, even when the cell
 * is empty or the file has no such column (the row is where the value is missing).
 */
function rowItemOrigin(file: string, row: RecipientRow, base: ItemInput | undefined, inherited: Record<string, string>): Origin {
  const rowNo = row.row;
  const fromRow = new Set(Object.keys(row.attributes).map(attributeName));
  const fromBase = new Set(Object.keys(inherited).map(attributeName));
  const rowGave = { product: row.product !== undefined, quantity: row.quantity !== undefined };
  return (f) => {
    const name = attributeName(f);
    const baseGave = f === 'product' ? base?.product !== undefined : f === 'quantity' ? base?.quantity !== undefined : fromBase.has(name);
    const rowSet = f === 'product' || f === 'quantity' ? rowGave[f] : fromRow.has(name);
    if (!rowSet && baseGave && base?.origin) return base.origin(f);
    return csvLocation(file, rowNo, f);
  };
}

/**
 * The item every row of a recipients list (`file`) gets unless its cells say otherwise: the
 * one item of the pieces, or of the file's line items; undefined when the rows name their
 * products. More than one is a BuildError.
 */
export function listBase(pieces: OrderPieces, file: string): ItemInput | undefined {
  const items = pieces.items ?? (isRecord(pieces.file) ? fileItems(pieces.file) : undefined);
  if (items && items.length > 1) {
    throw new BuildError('list-with-several-items', `each recipient of ${file} gets one product, but ${items.length} items were given`, file);
  }
  return items?.[0];
}

/** What one row of a recipients list orders: its product and quantity (or the base item's), and the base item's attributes with the row's cells over them. */
export function rowItem(csv: Pick<RecipientsCsv, 'file' | 'hasProduct'>, row: RecipientRow, base: ItemInput | undefined): { product: number | bigint; quantity: number; attributes: Record<string, string> } {
  const product = rowProduct(csv, row, base);
  return { product, quantity: row.quantity ?? base?.quantity ?? 1, attributes: rowAttributes(row, base, product) };
}

/** The product a row orders: its `product` cell, else the base item's; a BuildError when neither names one. */
export function rowProduct(csv: Pick<RecipientsCsv, 'file' | 'hasProduct'>, row: RecipientRow, base: ItemInput | undefined): number | bigint {
  const product = row.product ?? base?.product;
  if (product === undefined) {
    throw new BuildError('row-without-product', `${csvLocation(csv.file, row.row, csv.hasProduct ? 'product' : undefined)}: no product`, csv.file);
  }
  return product;
}

/** The base item's attributes apply to rows of the same product; a row's cell replaces one of the same name in any letter case. */
function rowAttributes(row: RecipientRow, base: ItemInput | undefined, product: number | bigint): Record<string, string> {
  const attributes: Record<string, string> = { ...inheritedAttributes(base, product) };
  for (const [k, v] of Object.entries(row.attributes)) {
    for (const ik of Object.keys(attributes)) if (ik.toLowerCase() === k) delete attributes[ik];
    attributes[k] = v;
  }
  return attributes;
}

function inheritedAttributes(base: ItemInput | undefined, product: number | bigint): Record<string, string> {
  return base && base.product === product ? base.attributes : {};
}

function buildFromCsv(body: Record<string, unknown>, sources: OrderSources, csv: RecipientsCsv, base: ItemInput | undefined): void {
  // A group's shipping orders of the same quantity share one `line_items` array: the body is
  // only read (checked, printed, sent as JSON), and a list of 10,000 rows makes 20,000 fewer
  // objects for the garbage collector to copy (bench/README.md, issue 32.3).
  const groups = new Map<string, { index: number; item: Record<string, unknown>; refs: Map<number, ShippingLineItem[]> }>();
  const lineItems: Record<string, unknown>[] = [];
  const shippingOrders: ShippingOrder[] = [];
  // Each shipping order is the shape order-request.ts reads (its recipient the row's string
  // cells, its references whole numbers) when the header's recipient columns are in the
  // interface's order and every quantity is a positive whole number: then the list is marked,
  // and the reading does not go through 10,000 of them again.
  let shaped = csv.recipientsInAddressOrder;
  const rowOfShippingOrder: number[] = [];

  for (const row of csv.rows) {
    const product = rowProduct(csv, row, base);
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
      const index = lineItems.length;
      const item = { id: index + 1, product, quantity: 0, attributes: rowAttributes(row, base, product) };
      group = { index, item, refs: new Map() };
      groups.set(key, group);
      lineItems.push(item);
      sources.lineItems.set(index, rowItemOrigin(csv.file, row, base, inheritedAttributes(base, product)));
    }
    group.item.quantity = (group.item.quantity as number) + quantity;
    const soIndex = shippingOrders.length;
    let refs = group.refs.get(quantity);
    if (!refs) {
      group.refs.set(quantity, (refs = [{ id: group.index + 1, quantity }]));
      shaped &&= Number.isSafeInteger(quantity) && quantity > 0;
    }
    shippingOrders.push({ recipient: row.recipient, line_items: refs });
    rowOfShippingOrder[soIndex] = row.row;
  }
  sources.shippingOrders = {
    get: (index) => {
      const rowNo = rowOfShippingOrder[index];
      return rowNo === undefined ? undefined : (f) => csvLocation(csv.file, rowNo, f);
    },
  };
  body.line_items = lineItems;
  body.shipping_orders = shaped ? shapedByConstruction(shippingOrders) : shippingOrders;
}
