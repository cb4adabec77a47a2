import type { Order } from '../../api/schemas.js';
import { Digests } from './content-digests.js';
import { RunInDoubt } from './errors.js';
import { recordContent, shipmentKey, type Offerings } from './order-content.js';
import type { JournalEntry, OrderJournal } from './order-journal.js';
import { recordOrGone } from './place-order.js';
import type { OrdersApi } from './ports.js';
import { batchOfRun } from './run-orders.js';

/**
 * The earlier orders that hold rows of a recipients list, and the shipping orders they hold,
 * by content (issues 28 and 40): what a run may not send again. The service is the truth,
 * this machine's journal is evidence, and where neither can tell, nothing of the run is sent
 * (RunInDoubt):
 *
 * - The account's orders are scanned. The run's own (external id `<run id>` or
 *   `<run id>-<k>`) always count. A run whose id was derived (no `--external-id`) also counts
 *   every other order of the account that holds a row of the list (`accountWide`): a
 *   recipient row is the unit of intent, so a row already in an order of the account for the
 *   same items is not sent again, whatever run id the current list derives (an edited, grown,
 *   reordered or re-saved list, another machine, an earlier version of merch). Only orders
 *   that name a product of the list are read further.
 * - The orders the journal recorded for the run and the scan did not show (a service that
 *   leaves `external_id` out of its records) are read by their ids; one the service does not
 *   show (404, or another external id's order) is doubt.
 * - A service whose records show no external id at all cannot tell a fresh machine which of
 *   its orders are a named run's: unless this machine's journal sent the run (and knows the
 *   outcome of each of its attempts), a run with a given id stops. A derived run finds its
 *   rows by content and does not need the external ids.
 * - An order whose record cannot show which rows it holds (no line items or shipping orders
 *   yet, shares that do not add up to its line items) is read again on its own; if it still
 *   cannot, the journal's record of what was sent in it is used, else the run stops.
 * `assumeUnsent` (a person has checked) turns each stop into "holds nothing that can be told".
 */

export interface HeldOrder {
  /** k of the run's `<run id>-<k>` (0: the run id itself); null for another order of the account that holds rows of the list. */
  batch: number | null;
  externalId: string;
  orderId: number | bigint | string;
  /** Its shipping orders are `held.shipments` from `first`, `count` of them, in the record's order. */
  first: number;
  count: number;
}

export interface Held {
  /** The run's orders in batch order, then the account's other orders that hold rows, so a row is matched to the run's first. */
  orders: HeldOrder[];
  /** Every shipping order of those orders, flat (a run of 100,000 rows has as many): its content's digest, its id, its order. */
  shipments: { digests: Digests; ids: (number | bigint | string | undefined)[]; order: number[] };
  /** The highest k in use; -1 when the run has no order at all. */
  maxBatch: number;
  /** The look-up showed which orders are the run's (the service shows external ids): a new batch's external id is known to be free. */
  conclusive: boolean;
}

export interface HeldPorts {
  api: OrdersApi;
  journal: OrderJournal;
  /** The offered attributes of the products an order's line items name. */
  offerings(products: readonly unknown[]): Promise<Offerings>;
}

/** The list's rows, as a derived run looks for them among all the account's orders. */
export interface WantedRows {
  digests: Digests;
  /** The products the rows order (as text: a service may write ids as numbers or strings). */
  products: ReadonlySet<string>;
}

interface Found {
  order: Omit<HeldOrder, 'first' | 'count'>;
  ids: (number | bigint | string | undefined)[];
  digests: Digests;
}

export async function findHeld(runId: string, ports: HeldPorts, options: { assumeUnsent?: boolean; accountWide?: WantedRows } = {}): Promise<Held> {
  const { assumeUnsent = false, accountWide } = options;
  const found: Found[] = [];
  const others: Found[] = [];
  const seen = new Set<string>();
  const wanted = accountWide === undefined ? undefined : { ...accountWide, hex: hexSet(accountWide.digests) };
  const scan = ports.api.everyOrder();
  for await (const order of scan) {
    const batch = batchOfRun(order.external_id, runId);
    if (batch !== undefined) {
      seen.add(String(order.id));
      found.push(await readHeld(order, order.external_id!, batch, ports, assumeUnsent));
    } else if (wanted !== undefined) {
      const other = await readOther(order, wanted, ports, assumeUnsent);
      if (other === undefined) continue;
      seen.add(String(order.id));
      others.push(other);
    }
  }
  // Fewer orders read than the list counted: pages that shifted while they were read (an
  // ordering the service ignores) may have hidden some (docs/service-assumptions.md, R7).
  if (scan.seen.counted !== undefined && scan.seen.orders < scan.seen.counted && !assumeUnsent) {
    throw new RunInDoubt(
      'unfindable',
      `the account's orders list counted ${scan.seen.counted} orders but showed ${scan.seen.orders} different ones (its pages may have shifted while they were read), so this machine cannot show the rows were not sent before; nothing was sent`,
    );
  }
  const sentHere = ports.journal.entriesOfRun(runId);
  for (const entry of sentHere) {
    if (entry.state !== 'created' || entry.order_id === undefined || seen.has(String(entry.order_id))) continue;
    const batch = batchOfRun(entry.external_id, runId);
    if (batch === undefined) continue;
    const record = await recordOrGone(ports.api, entry.order_id, entry.external_id);
    if (record === undefined) {
      if (assumeUnsent) continue;
      throw new RunInDoubt(
        'order',
        `this machine's journal says order ${String(entry.order_id)} (external id ${entry.external_id}) of this run was created, but the service does not show it; it cannot show that order's rows were not sent, and sent nothing`,
        entry.order_id,
      );
    }
    seen.add(String(entry.order_id));
    found.push(await readHeld(record, entry.external_id, batch, ports, assumeUnsent));
  }
  const hidden = scan.seen.orders > 0 && scan.seen.showingExternalId === 0;
  if (hidden && !assumeUnsent && accountWide === undefined) {
    if (sentHere.length === 0) {
      throw new RunInDoubt(
        'unfindable',
        `the service's order records carry no external_id, so this machine cannot find which of the account's ${scan.seen.orders} orders belong to this run (${runId}); it cannot show the list was not sent before, and sent nothing`,
      );
    }
    const open = sentHere.find((entry) => entry.state === 'pending');
    if (open) {
      throw new RunInDoubt(
        'unfindable',
        `order ${open.external_id} of this run was sent from this machine without a known outcome, and the service's order records carry no external_id to find it by; nothing was sent`,
      );
    }
  }
  return gather(found, others, !hidden);
}

function hexSet(digests: Digests): Set<string> {
  const set = new Set<string>();
  for (let i = 0; i < digests.length; i++) set.add(digests.hex(i));
  return set;
}

/** The products an order's record names in its line items; undefined when it does not show them all. */
function productsNamed(record: Order): string[] | undefined {
  const items = record.line_items;
  if (!Array.isArray(items) || items.length === 0) return undefined;
  const products: string[] = [];
  for (const item of items) {
    const product = (item?.part as { product_id?: unknown } | null | undefined)?.product_id;
    if (typeof product !== 'number' && typeof product !== 'string' && typeof product !== 'bigint') return undefined;
    products.push(String(product));
  }
  return products;
}

/**
 * Another order of the account, when it holds a row of the list: its shipping orders by
 * content. An order whose line items name none of the list's products holds none of its rows,
 * and is not read further.
 */
async function readOther(listed: Order, wanted: WantedRows & { hex: ReadonlySet<string> }, ports: HeldPorts, assumeUnsent: boolean): Promise<Found | undefined> {
  const namesNone = (record: Order) => productsNamed(record)?.every((product) => !wanted.products.has(product)) === true;
  if (namesNone(listed)) return undefined;
  const held = await readHeld(listed, listed.external_id ?? '', null, ports, assumeUnsent, namesNone);
  for (let i = 0; i < held.digests.length; i++) if (wanted.hex.has(held.digests.hex(i))) return held;
  return undefined;
}

/** One earlier order's shipping orders by content: from its record, read again on its own, or from this machine's journal. */
async function readHeld(listed: Order, externalId: string, batch: number | null, ports: HeldPorts, assumeUnsent: boolean, namesNone?: (record: Order) => boolean): Promise<Found> {
  const order = { batch, externalId, orderId: listed.id };
  const offeringsOf = (record: Order) => ports.offerings((record.line_items ?? []).map((li) => (li.part as { product_id?: unknown } | null | undefined)?.product_id));
  let record = listed;
  let content = recordContent(record, await offeringsOf(record));
  if ('missing' in content) {
    record = await ports.api.get(listed.id);
    if (namesNone?.(record)) return { order, ids: [], digests: new Digests() };
    content = recordContent(record, await offeringsOf(record));
  }
  if (!('missing' in content)) {
    const ids = (record.shipping_orders ?? []).map((so) => so.id);
    const digests = new Digests();
    for (const shipment of content.shipments) digests.push(shipmentKey(shipment));
    return { order, ids: content.shipments.map((_, s) => ids[s]), digests };
  }
  const sent = journalShipments(ports.journal.find({ externalId }), listed.id);
  if (sent) return { order, ids: Array.from({ length: sent.length }, () => undefined), digests: sent };
  if (assumeUnsent) return { order, ids: [], digests: new Digests() };
  throw new RunInDoubt(
    'order',
    `order ${String(listed.id)} (${externalId === '' ? 'no external id' : `external id ${externalId}`}) ${batch === null ? 'of this account, which orders a product of this list' : 'of this run'}: its record cannot show which rows it holds (it lacks ${content.missing}), and this machine's journal does not record what was sent in it; nothing was sent`,
    listed.id,
  );
}

/** What this machine's journal recorded sending as this order, when it did. */
function journalShipments(entry: JournalEntry | undefined, orderId: number | bigint | string): Digests | undefined {
  if (entry?.state !== 'created' || String(entry.order_id) !== String(orderId) || entry.shipment_digests === undefined) return undefined;
  return Digests.fromHex(entry.shipment_digests);
}

function gather(found: Found[], others: Found[], conclusive: boolean): Held {
  const byId = (a: Found, b: Found) => String(a.order.orderId).localeCompare(String(b.order.orderId), 'en', { numeric: true });
  found.sort((a, b) => a.order.batch! - b.order.batch! || byId(a, b));
  others.sort(byId);
  const held: Held = { orders: [], shipments: { digests: new Digests(), ids: [], order: [] }, maxBatch: -1, conclusive };
  for (const { order, ids, digests } of [...found, ...others]) {
    const index = held.orders.length;
    held.orders.push({ ...order, first: held.shipments.ids.length, count: ids.length });
    held.shipments.digests.append(digests);
    for (const id of ids) {
      held.shipments.ids.push(id);
      held.shipments.order.push(index);
    }
    if (order.batch !== null) held.maxBatch = Math.max(held.maxBatch, order.batch);
  }
  return held;
}
