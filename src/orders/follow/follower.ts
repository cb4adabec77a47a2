import { mergeOrder, mergeShipment, orderObservation, shipmentObservation, type TrackedOrder } from './tracked-order.js';
import { stringifyExact } from '../../lib/exact-json.js';

/** What a change shows: the order's status and each shipment's status and tracking. */
export interface OrderView {
  order: number | bigint | string;
  status: string | null;
  shipments: { id: number | bigint | string; status: string | null; tracking_number: string | null; tracking_url: string | null }[];
}

/**
 * One order followed from polls and webhook events, whichever comes first: each
 * observation is merged (never backwards, see tracked-order.ts) and reported as a change
 * only when it changes what is shown.
 */
export class OrderFollower {
  private tracked: TrackedOrder | undefined;
  private shown = '';
  private wholeOrderSeen = false;

  constructor(readonly orderId: string) {}

  /** What is known, once a whole order record was seen (shipment events alone do not list every shipment). */
  get order(): TrackedOrder | undefined {
    return this.wholeOrderSeen ? this.tracked : undefined;
  }

  /** An order record (a poll's answer or an order event): true when what is shown changed. */
  observeOrder(record: Record<string, unknown>): boolean {
    this.wholeOrderSeen = true;
    return this.apply(mergeOrder(this.tracked, orderObservation(record)));
  }

  /** A webhook event (kind and data): true when it is about this order and changed what is shown. */
  observeEvent(kind: string, data: Record<string, unknown>): boolean {
    const next = this.afterEvent(kind, data);
    if (next === undefined) return false;
    if (kind.startsWith('order.')) this.wholeOrderSeen = true;
    return this.apply(next);
  }

  /**
   * What would be shown if the event were taken, without taking it: undefined when it is
   * not about this order or would change nothing shown (a stale event, a repeat). Events
   * are what a sender claims; `orders watch` asks the service before it shows a claim.
   */
  claimedBy(kind: string, data: Record<string, unknown>): OrderView | undefined {
    const next = this.afterEvent(kind, data);
    if (next === undefined) return undefined;
    const claimed = viewOf(next, this.orderId);
    return stringifyExact(claimed) === this.shown ? undefined : claimed;
  }

  view(): OrderView {
    return viewOf(this.tracked, this.orderId);
  }

  private afterEvent(kind: string, data: Record<string, unknown>): TrackedOrder | undefined {
    if (kind.startsWith('order.') && String(data.id) === this.orderId) return mergeOrder(this.tracked, orderObservation(data));
    if (kind.startsWith('shipping_order.') && String(data.order) === this.orderId) {
      const known = this.tracked ?? { id: this.orderId, status: null, modified_on: null, shipments: [] };
      return mergeShipment(known, shipmentObservation(data));
    }
    return undefined;
  }

  private apply(next: TrackedOrder): boolean {
    this.tracked = next;
    const shown = stringifyExact(this.view());
    if (shown === this.shown) return false;
    this.shown = shown;
    return true;
  }
}

function viewOf(order: TrackedOrder | undefined, orderId: string): OrderView {
  return {
    order: order?.id ?? orderId,
    status: order?.status ?? null,
    shipments: (order?.shipments ?? []).map(({ id, status, tracking_number, tracking_url }) => ({ id, status, tracking_number, tracking_url })),
  };
}

/** Values in a note are the sender's: cut, so a forged event cannot fill the screen. */
const NOTE_VALUE_LIMIT = 40;

/**
 * What an event said that the service does not confirm, in one line: `order 1001: an
 * order.changed event said Delivered, the service says In Production; going by the service`,
 * or for shipments `... said shipment 5001 Delivered, the service says shipment 5001 Shipped; ...`.
 */
export function unconfirmedNote(kind: string, claimed: OrderView, service: OrderView): string {
  const said: string[] = [];
  const says: string[] = [];
  if (claimed.status !== service.status) {
    said.push(noteValue(claimed.status));
    says.push(noteValue(service.status));
  }
  for (const shipment of claimed.shipments) {
    const known = service.shipments.find((s) => String(s.id) === String(shipment.id));
    if (known !== undefined && stringifyExact(known) === stringifyExact(shipment)) continue;
    const id = noteValue(shipment.id);
    said.push(`shipment ${id} ${shipmentState(shipment, known)}`);
    says.push(known === undefined ? `no shipment ${id}` : `shipment ${id} ${shipmentState(known, shipment)}`);
  }
  const name = noteValue(kind);
  return `order ${noteValue(service.order)}: ${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name} event said ${said.join(', ')}, the service says ${says.join(', ')}; going by the service`;
}

/** A shipment's status, and its tracking number when that is what differs from `other`'s. */
function shipmentState(shipment: OrderView['shipments'][number], other: OrderView['shipments'][number] | undefined): string {
  const status = noteValue(shipment.status);
  if (other === undefined || other.status !== shipment.status || other.tracking_number === shipment.tracking_number) return status;
  return `${status} (tracking ${shipment.tracking_number === null ? 'none' : noteValue(shipment.tracking_number)})`;
}

function noteValue(value: string | number | bigint | null): string {
  if (value === null) return 'no status';
  const text = String(value);
  return text.length > NOTE_VALUE_LIMIT ? `${text.slice(0, NOTE_VALUE_LIMIT - 1)}…` : text;
}
