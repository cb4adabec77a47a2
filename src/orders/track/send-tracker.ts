import type { Order } from '../../api/schemas.js';
import { OrderFollower } from '../follow/follower.js';
import { poll } from '../follow/poll.js';
import { ServiceHealth, type ServiceChange } from '../follow/service-health.js';
import { atLeast, isCancelled, SHIPMENT_PROGRESSION } from '../follow/progress.js';
import { cannotReach, hasReached } from '../follow/wait-states.js';
import { readEach } from './read-each.js';
import type { ResultsRow } from './results-rows.js';
import { shipmentRecords, type ShipmentRecord } from './shipment-record.js';
import type { TrackState } from './track-states.js';

/**
 * Every shipment of a send (its orders), read concurrently, each order once per poll: one
 * read (`readSend`), or polls until every shipment is shipped or delivered (`waitForSend`).
 */

export interface OrderToTrack {
  id: string;
  /** Its rows in a results file (none when the order was named otherwise). */
  rows: readonly ResultsRow[];
  /** The order as a listing already returned it (read once more only in later polls). */
  record?: Order;
}

export interface TrackRequest {
  orders: readonly OrderToTrack[];
  /** One GET of an order. */
  fetchOrder: (id: string) => Promise<Order>;
  /** Orders read at once. */
  concurrency: number;
}

export interface WaitSettings {
  until: TrackState;
  maxWaitMs: number;
  intervalMs: number;
  /** Aborts on Ctrl-C. */
  interrupted: AbortSignal;
  /** After every poll; `over` when it ends the wait. */
  onPoll?: (state: SendState, over: boolean) => void;
  /** The service started failing the polls, fails in another way, or answers again (not every poll). */
  onServiceChange?: (change: ServiceChange) => void;
}

/** What is known of the send after a poll. */
export interface SendState {
  /** Every shipment read, ordered by row, then as the orders were given. */
  shipments: ShipmentRecord[];
  /** Order ids the service does not know (404). */
  missing: string[];
  /** Shipments that can never get anywhere: cancelled themselves, or their order is. */
  cancelled: ShipmentRecord[];
  /** Orders that are cancelled (all their shipments are in `cancelled`). */
  cancelledOrders: string[];
  /** Orders that listed no shipping orders (or were not read yet): they go by their own status. */
  withoutShipments: { order_id: string; status: string | null }[];
}

export type WaitOutcome = 'reached' | 'missing' | 'cancelled' | 'timed-out' | 'interrupted';

export interface WaitResult {
  outcome: WaitOutcome;
  state: SendState;
  /** What is not there yet: shipments, and orders without shipments listed (none when reached). */
  waiting: { shipments: ShipmentRecord[]; orders: string[] };
}

/** One poll: every order read once. */
export async function readSend(request: TrackRequest): Promise<SendState> {
  const send = new Send(request);
  await send.poll(undefined, new AbortController().signal);
  return send.state();
}

/**
 * Polls the send until every shipment is at `until` (or past it), one of its orders is
 * unknown, a shipment can never get there, `maxWaitMs` passes, or the wait is
 * interrupted. An order that is there, cancelled or unknown is not read again. Polling
 * and its failures are the waiters' (src/orders/follow/poll.ts): a poll that fails for a
 * reason worth waiting out is tried again later, whole; any other failure is thrown.
 */
export async function waitForSend(request: TrackRequest, settings: WaitSettings): Promise<WaitResult> {
  const send = new Send(request);
  const deadline = AbortSignal.timeout(settings.maxWaitMs);
  const signal = AbortSignal.any([deadline, settings.interrupted]);
  await poll(
    () => send.poll(settings.until, signal),
    () => {
      const state = send.state();
      const over = state.missing.length > 0 || send.cannotReach() || send.reached(settings.until);
      settings.onPoll?.(state, over);
      return over;
    },
    { intervalMs: settings.intervalMs, signal, health: new ServiceHealth(settings.onServiceChange) },
  );
  const state = send.state();
  const outcome: WaitOutcome =
    state.missing.length > 0 ? 'missing'
    : send.cannotReach() ? 'cancelled'
    : send.reached(settings.until) ? 'reached'
    : settings.interrupted.aborted && !deadline.aborted ? 'interrupted'
    : 'timed-out';
  return { outcome, state, waiting: send.waiting(settings.until) };
}

/** One order of the send: what is known of it, and its last record. */
class TrackedOrderState {
  readonly follower: OrderFollower;
  record: Order | undefined;
  missing = false;

  constructor(readonly order: OrderToTrack) {
    this.follower = new OrderFollower(order.id);
    if (order.record) this.observe(order.record);
  }

  observe(record: Order): void {
    this.record = record;
    this.follower.observeOrder(record);
  }

  /** Never changes again, or need not be read again for `until`. */
  settled(until: TrackState | undefined): boolean {
    const known = this.follower.order;
    if (this.missing) return true;
    if (known === undefined || until === undefined) return false;
    return hasReached(known, until) || this.cannotReach();
  }

  cannotReach(): boolean {
    const known = this.follower.order;
    return known !== undefined && (cannotReach(known) || known.shipments.some((s) => isCancelled(s.status)));
  }

  /** Its shipments that can never get anywhere: all of them when the order is cancelled. */
  cancelledRecords(): ShipmentRecord[] {
    const known = this.follower.order;
    if (known === undefined) return [];
    const records = this.records();
    return cannotReach(known) ? records : records.filter((s) => isCancelled(s.status));
  }

  records(): ShipmentRecord[] {
    const known = this.follower.order;
    return this.record && known ? shipmentRecords(this.record, known, this.order.rows) : [];
  }
}

class Send {
  private readonly orders: TrackedOrderState[];
  private polled = false;

  constructor(private readonly request: TrackRequest) {
    this.orders = request.orders.map((order) => new TrackedOrderState(order));
  }

  /** Reads every order not settled; the first poll leaves out those a listing already returned. */
  async poll(until: TrackState | undefined, signal: AbortSignal): Promise<void> {
    const first = !this.polled;
    this.polled = true;
    const due = this.orders.filter((order) => !order.settled(until) && !(first && order.order.record));
    await readEach(due, this.request.concurrency, signal, async (order) => {
      const record = await this.request.fetchOrder(order.order.id);
      order.observe(record);
    }, (order) => {
      order.missing = true;
    });
  }

  /** Some shipment (or order) can never get anywhere. */
  cannotReach(): boolean {
    return this.orders.some((order) => order.cannotReach());
  }

  reached(until: TrackState): boolean {
    return this.orders.every((order) => !order.missing && order.follower.order !== undefined && hasReached(order.follower.order, until));
  }

  state(): SendState {
    const shipments = this.orders.flatMap((order) => order.records());
    const rowed = shipments.filter((s) => s.row !== null).sort((a, b) => a.row! - b.row!);
    return {
      shipments: [...rowed, ...shipments.filter((s) => s.row === null)],
      missing: this.orders.filter((order) => order.missing).map((order) => order.order.id),
      cancelled: this.orders.flatMap((order) => order.cancelledRecords()),
      cancelledOrders: this.orders.filter((order) => order.follower.order !== undefined && cannotReach(order.follower.order)).map((order) => order.order.id),
      withoutShipments: this.orders
        .filter((order) => !order.missing && (order.follower.order?.shipments.length ?? 0) === 0)
        .map((order) => ({ order_id: order.order.id, status: order.follower.order?.status ?? null })),
    };
  }

  waiting(until: TrackState): WaitResult['waiting'] {
    const open = this.orders.filter((order) => !order.missing && !order.cannotReach() && !(order.follower.order && hasReached(order.follower.order, until)));
    return {
      shipments: open.flatMap((order) => order.records()).filter((s) => !atLeast(SHIPMENT_PROGRESSION, s.status, until)),
      orders: open.filter((order) => (order.follower.order?.shipments.length ?? 0) === 0).map((order) => order.order.id),
    };
  }
}
