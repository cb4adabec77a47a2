import type { Order } from '../../api/schemas.js';
import { Digests } from './content-digests.js';
import { RunInDoubt } from './errors.js';
import { recordContent, shipmentKey, type Offerings } from './order-content.js';
import type { JournalEntry, OrderJournal } from './order-journal.js';
import { recordOrGone } from './place-order.js';
import type { OrdersApi } from './ports.js';
import { batchOfRun } from './run-orders.js';

/**
 * The run's earlier orders and the shipping orders they hold, by content (issue 28): what a
 * recipients list's rerun may not send again. The service is the truth, this machine's
 * journal is evidence, and where neither can tell, nothing of the run is sent (RunInDoubt):
 *
 * - The account's orders are scanned for the run's external ids; the orders the journal
 *   recorded for the run and the scan did not show (a service that leaves `external_id`
 *   out of its records) are read by their ids.
 * - A service whose records show no external id at all cannot tell a fresh machine which of
 *   its orders are the run's: unless this machine's journal sent the run (and knows the
 *   outcome of each of its attempts), the run stops.
 * - An order whose record cannot show which rows it holds (no shipping orders yet, shares
 *   that do not add up to its line items) is read again on its own; if it still cannot, the
 *   journal's record of what was sent in it is used, else the run stops.
 * `assumeUnsent` (a person has checked) turns each stop into "holds nothing that can be told".
 */

export interface HeldOrder {
  batch: number;
  externalId: string;
  orderId: number | string;
  /** Its shipping orders are `held.shipments` from `first`, `count` of them, in the record's order. */
  first: number;
  count: number;
}

export interface Held {
  /** In batch order, so a row is matched to the first order that holds it. */
  orders: HeldOrder[];
  /** Every shipping order of those orders, flat (a run of 100,000 rows has as many): its content's digest, its id, its order. */
  shipments: { digests: Digests; ids: (number | string | undefined)[]; order: number[] };
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

interface Found {
  order: Omit<HeldOrder, 'first' | 'count'>;
  ids: (number | string | undefined)[];
  digests: Digests;
}

export async function findHeld(runId: string, ports: HeldPorts, assumeUnsent = false): Promise<Held> {
  const found: Found[] = [];
  const seen = new Set<string>();
  const scan = ports.api.ordersOfRun(runId);
  for await (const order of scan) {
    const batch = batchOfRun(order.external_id, runId);
    if (batch === undefined) continue;
    seen.add(String(order.id));
    found.push(await readHeld(order, order.external_id!, batch, ports, assumeUnsent));
  }
  const sentHere = ports.journal.entriesOfRun(runId);
  for (const entry of sentHere) {
    if (entry.state !== 'created' || entry.order_id === undefined || seen.has(String(entry.order_id))) continue;
    const batch = batchOfRun(entry.external_id, runId);
    const record = batch === undefined ? undefined : await recordOrGone(ports.api, entry.order_id, entry.external_id);
    if (record === undefined || batch === undefined) continue;
    seen.add(String(entry.order_id));
    found.push(await readHeld(record, entry.external_id, batch, ports, assumeUnsent));
  }
  const hidden = scan.seen.orders > 0 && scan.seen.showingExternalId === 0;
  if (hidden && !assumeUnsent) {
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
  return gather(found, !hidden);
}

/** One earlier order's shipping orders by content: from its record, read again on its own, or from this machine's journal. */
async function readHeld(listed: Order, externalId: string, batch: number, ports: HeldPorts, assumeUnsent: boolean): Promise<Found> {
  const order = { batch, externalId, orderId: listed.id };
  const offeringsOf = (record: Order) => ports.offerings((record.line_items ?? []).map((li) => (li.part as { product_id?: unknown } | null | undefined)?.product_id));
  let record = listed;
  let content = recordContent(record, await offeringsOf(record));
  if ('missing' in content) {
    record = await ports.api.get(listed.id);
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
    `order ${String(listed.id)} (external id ${externalId}) of this run: its record cannot show which rows it holds (it lacks ${content.missing}), and this machine's journal does not record what was sent in it; nothing was sent`,
    listed.id,
  );
}

/** What this machine's journal recorded sending as this order, when it did. */
function journalShipments(entry: JournalEntry | undefined, orderId: number | string): Digests | undefined {
  if (entry?.state !== 'created' || String(entry.order_id) !== String(orderId) || entry.shipment_digests === undefined) return undefined;
  return Digests.fromHex(entry.shipment_digests);
}

function gather(found: Found[], conclusive: boolean): Held {
  found.sort((a, b) => a.order.batch - b.order.batch || Number(a.order.orderId) - Number(b.order.orderId));
  const held: Held = { orders: [], shipments: { digests: new Digests(), ids: [], order: [] }, maxBatch: -1, conclusive };
  for (const { order, ids, digests } of found) {
    const index = held.orders.length;
    held.orders.push({ ...order, first: held.shipments.ids.length, count: ids.length });
    held.shipments.digests.append(digests);
    for (const id of ids) {
      held.shipments.ids.push(id);
      held.shipments.order.push(index);
    }
    held.maxBatch = Math.max(held.maxBatch, order.batch);
  }
  return held;
}
