import type { Order } from '../../api/schemas.js';
import { isCancelled, rank, SHIPMENT_PROGRESSION } from '../follow/status-progression.js';
import type { TrackedOrder } from '../follow/tracked-order.js';
import { recipientField, recipientName } from '../shipment-recipient.js';
import type { ResultsRow } from './results-rows.js';

/** What `orders track` says of one shipment, that is of one recipient. */
export interface ShipmentRecord {
  /** The recipient's row in the recipients file (from a results file), else null. */
  row: number | null;
  order_id: number | bigint | string;
  shipping_order_id: number | bigint | string;
  recipient_name: string;
  email: string | null;
  /** The shipping order's status name. */
  status: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  shipping_date: string | null;
}

/** What a record needs of an order's record, kept instead of the whole record (a send's orders can be many, and large). */
export interface OrderDetails {
  order_id: number | bigint | string;
  shipments: { id: number | bigint | string; recipient_name: string; email: string | null; shipping_date: string | null }[];
}

export function detailsOf(record: Order): OrderDetails {
  return {
    order_id: record.id,
    shipments: (record.shipping_orders ?? []).map((s) => ({ id: s.id, recipient_name: recipientName(s), email: text(recipientField(s, 'email')), shipping_date: text(s.shipping_date) })),
  };
}

/**
 * The records of one order's shipments: recipient and date from the order record as the
 * service last sent it, status and tracking from what is known of it (merged, never
 * backwards: src/orders/follow/tracked-order.ts). `rows` are the results file's rows of this
 * order: a row names its shipping order, or, when it does not, is the order's shipping
 * order at its position among the order's rows (the order `orders create` sent them in).
 */
export function shipmentRecords(details: OrderDetails, known: TrackedOrder, rows: readonly ResultsRow[] = []): ShipmentRecord[] {
  const rowOf = rowsByShipment(details.shipments.map((s) => String(s.id)), rows);
  return details.shipments.map((shipment) => {
    const tracked = known.shipments.find((s) => String(s.id) === String(shipment.id));
    return {
      row: rowOf.get(String(shipment.id)) ?? null,
      order_id: details.order_id,
      shipping_order_id: shipment.id,
      recipient_name: shipment.recipient_name,
      email: shipment.email,
      status: tracked?.status ?? null,
      tracking_number: tracked?.tracking_number ?? null,
      tracking_url: tracked?.tracking_url ?? null,
      shipping_date: shipment.shipping_date,
    };
  });
}

function rowsByShipment(shipmentIds: string[], rows: readonly ResultsRow[]): Map<string, number> {
  const byShipment = new Map<string, number>();
  const ordered = [...rows].sort((a, b) => a.row - b.row);
  ordered.forEach((row, position) => {
    const id = row.shipping_order_id ?? shipmentIds[position];
    if (id !== undefined && !byShipment.has(id)) byShipment.set(id, row.row);
  });
  return byShipment;
}

/** How many shipments have each status: the progression's order first, then others by name, Cancelled last; names as the service wrote them. */
export function countByStatus(records: readonly ShipmentRecord[]): { status: string; count: number }[] {
  const counts = new Map<string, { status: string; count: number }>();
  for (const record of records) {
    const name = record.status ?? 'status unknown';
    const key = name.toLowerCase();
    const entry = counts.get(key) ?? { status: name, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  const position = (status: string) => (isCancelled(status) ? Infinity : (rank(SHIPMENT_PROGRESSION, status) ?? SHIPMENT_PROGRESSION.length));
  return [...counts.values()].sort((a, b) => position(a.status) - position(b.status) || a.status.localeCompare(b.status));
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
