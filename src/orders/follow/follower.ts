import { mergeOrder, mergeShipment, orderObservation, shipmentObservation, type TrackedOrder } from './tracked-order.js';

/** What a change shows: the order's status and each shipment's status and tracking. */
export interface OrderView {
  order: number | string;
  status: string | null;
  shipments: { id: number | string; status: string | null; tracking_number: string | null; tracking_url: string | null }[];
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
    if (kind.startsWith('order.') && String(data.id) === this.orderId) return this.observeOrder(data);
    if (kind.startsWith('shipping_order.') && String(data.order) === this.orderId) {
      const known = this.tracked ?? { id: this.orderId, status: null, modified_on: null, shipments: [] };
      return this.apply(mergeShipment(known, shipmentObservation(data)));
    }
    return false;
  }

  view(): OrderView {
    const order = this.tracked;
    return {
      order: order?.id ?? this.orderId,
      status: order?.status ?? null,
      shipments: (order?.shipments ?? []).map(({ id, status, tracking_number, tracking_url }) => ({ id, status, tracking_number, tracking_url })),
    };
  }

  private apply(next: TrackedOrder): boolean {
    this.tracked = next;
    const shown = JSON.stringify(this.view());
    if (shown === this.shown) return false;
    this.shown = shown;
    return true;
  }
}
