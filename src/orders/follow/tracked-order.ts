import { rank, ORDER_PROGRESSION, SHIPMENT_PROGRESSION, type Progression } from './status-progression.js';
import { isRecord } from '../../lib/is-record.js';

/**
 * What `orders wait` and `orders watch` know of an order: its status and each shipment's
 * status and tracking, merged from polls and webhook events that may arrive late or out
 * of order. A change never moves the order or a shipment backwards.
 */

export interface TrackedShipment {
  id: number | bigint | string;
  status: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  /** null unless the service sends one (the specification shows none on shipping orders). */
  modified_on: string | null;
}

export interface TrackedOrder {
  id: number | bigint | string;
  status: string | null;
  modified_on: string | null;
  shipments: TrackedShipment[];
}

/** The fields read from an order record (a poll's answer or an `order.changed` event). */
export function orderObservation(record: Record<string, unknown>): TrackedOrder {
  const shipments = Array.isArray(record.shipping_orders) ? record.shipping_orders : [];
  return {
    id: record.id as number | bigint | string,
    status: statusName(record.status),
    modified_on: text(record.modified_on),
    shipments: shipments.filter(isRecord).map(shipmentObservation),
  };
}

/** The fields read from a shipping order record (a `shipping_order.changed` event). */
export function shipmentObservation(record: Record<string, unknown>): TrackedShipment {
  return {
    id: record.id as number | bigint | string,
    status: statusName(record.status),
    tracking_number: text(record.tracking_number),
    tracking_url: text(record.tracking_url),
    modified_on: text(record.modified_on),
  };
}

/**
 * The order after an observation of it. An observation is stale, and changes nothing,
 * when its `modified_on` is older than the one known, or its status is behind the known
 * one; otherwise the newer values win, except that a tracking number (and URL) once seen
 * is kept when the observation has none.
 */
export function mergeOrder(known: TrackedOrder | undefined, seen: TrackedOrder): TrackedOrder {
  if (known === undefined) return seen;
  if (isStale(known, seen, ORDER_PROGRESSION)) return known;
  let shipments = known.shipments;
  for (const shipment of seen.shipments) shipments = withShipment(shipments, shipment);
  return { id: known.id, status: seen.status ?? known.status, modified_on: seen.modified_on ?? known.modified_on, shipments };
}

/** The order after an observation of one of its shipments. */
export function mergeShipment(known: TrackedOrder, seen: TrackedShipment): TrackedOrder {
  return { ...known, shipments: withShipment(known.shipments, seen) };
}

function withShipment(shipments: TrackedShipment[], seen: TrackedShipment): TrackedShipment[] {
  const index = shipments.findIndex((shipment) => String(shipment.id) === String(seen.id));
  if (index < 0) return [...shipments, seen];
  const known = shipments[index]!;
  if (isStale(known, seen, SHIPMENT_PROGRESSION)) return shipments;
  const merged: TrackedShipment = {
    id: known.id,
    status: seen.status ?? known.status,
    tracking_number: seen.tracking_number ?? known.tracking_number,
    tracking_url: seen.tracking_url ?? known.tracking_url,
    modified_on: seen.modified_on ?? known.modified_on,
  };
  return shipments.map((shipment, at) => (at === index ? merged : shipment));
}

function isStale(
  known: { status: string | null; modified_on: string | null },
  seen: { status: string | null; modified_on: string | null },
  progression: Progression,
): boolean {
  if (known.modified_on && seen.modified_on && Date.parse(seen.modified_on) < Date.parse(known.modified_on)) return true;
  const before = rank(progression, known.status);
  const after = rank(progression, seen.status);
  return before !== undefined && after !== undefined && after < before;
}

function statusName(value: unknown): string | null {
  if (isRecord(value)) return text(value.name);
  return text(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
