import type { Order } from '../../api/schemas.js';
import { OrderFollower } from '../follow/follower.js';
import { poll } from '../follow/poll.js';
import { ServiceHealth, type Failing, type ServiceChange } from '../follow/service-health.js';
import { atLeast, isCancelled, SHIPMENT_PROGRESSION } from '../follow/status-progression.js';
import { cannotReach, hasReached } from '../follow/wait-states.js';
import type { SendOrders, TrackPorts } from './ports.js';
import { readEach } from './read-each.js';
import type { ResultsRow } from './results-rows.js';
import { batchOfRun } from '../create/run-orders.js';
import { detailsOf, shipmentRecords, type OrderDetails, type ShipmentRecord } from './shipment-record.js';
import type { TrackState } from './track-states.js';

/**
 * Every shipment of a send (its orders), read concurrently, each order once per poll: one
 * read (`readSend`), or polls until every shipment is shipped or delivered (`waitForSend`).
 */

export interface OrderToTrack {
  id: string;
  /** Its rows in a results file (none when the order was named otherwise). */
  rows: readonly ResultsRow[];
}

export interface TrackRequest {
  /** The orders named (by id, or by a results file). */
  orders: readonly OrderToTrack[];
  /** Also every order of this run: external id `run`, or starting with `run-` (its batches), found by listing the account's orders. */
  run?: string;
  /** Orders read at once, and pages of the account's order list. */
  concurrency: number;
  /** After each page of the account's order list: how many orders were listed so far, and their count when known. */
  onListed?: (fetched: number, total: number | undefined) => void;
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
  /** Every shipment read, ordered by row, then as the orders were given, then the run's by batch. */
  shipments: ShipmentRecord[];
  /** Order ids the service does not know (404). */
  missing: string[];
  /** The run id, when the run has no orders. */
  emptyRun: string | undefined;
  /** Shipments that can never get anywhere: cancelled themselves, or their order is. */
  cancelled: ShipmentRecord[];
  /** Orders that are cancelled (all their shipments are in `cancelled`). */
  cancelledOrders: string[];
  /** Orders that listed no shipping orders: they go by their own status. */
  withoutShipments: { order_id: string; status: string | null }[];
}

export type WaitOutcome = 'reached' | 'missing' | 'cancelled' | 'timed-out' | 'interrupted';

export interface WaitResult {
  outcome: WaitOutcome;
  state: SendState;
  /** What is not there yet: shipments, and orders with no shipment read (none listed, or not read yet). */
  waiting: { shipments: ShipmentRecord[]; orders: string[] };
  /** Whether the service answered any poll. */
  answered: boolean;
  /** When the wait ended with the polls failing: for how long, and the last failure. */
  failing: Failing | undefined;
}

/** One poll: every order read once. */
export async function readSend(request: TrackRequest, orders: SendOrders): Promise<SendState> {
  const send = new Send(request, orders);
  await send.poll(undefined, new AbortController().signal);
  return send.state();
}

/**
 * Polls the send until every shipment is at `until` (or past it), one of its orders is
 * unknown, a shipment can never get there, `maxWaitMs` passes, or the wait is
 * interrupted. An order that is there, cancelled or unknown is not read again. Polling
 * and its failures are the waiters' (src/orders/follow/poll.ts): a poll that fails in a
 * way that passes (5xx, 429, no answer) is tried again later, whole; any other failure
 * is thrown at once.
 */
export async function waitForSend(request: TrackRequest, settings: WaitSettings, { orders, clock }: TrackPorts): Promise<WaitResult> {
  const send = new Send(request, orders);
  const deadline = clock.timeout(settings.maxWaitMs);
  const signal = AbortSignal.any([deadline, settings.interrupted]);
  const health = new ServiceHealth(settings.onServiceChange, () => clock.now());
  const over = (state: SendState) => state.missing.length > 0 || state.emptyRun !== undefined || send.cannotReach() || send.reached(settings.until);
  await poll(
    () => send.poll(settings.until, signal),
    () => {
      const state = send.state();
      settings.onPoll?.(state, over(state));
      return over(state);
    },
    { intervalMs: settings.intervalMs, clock, signal, health },
  );
  const state = send.state();
  const outcome: WaitOutcome =
    state.missing.length > 0 || state.emptyRun !== undefined ? 'missing'
    : send.cannotReach() ? 'cancelled'
    : send.reached(settings.until) ? 'reached'
    : settings.interrupted.aborted && !deadline.aborted ? 'interrupted'
    : 'timed-out';
  return { outcome, state, waiting: send.waiting(settings.until), answered: health.everAnswered, failing: health.failing };
}

/**
 * A poll reads the orders due through the account's order list, rather than one GET each,
 * when there are at least LISTING_FROM of them and the account has at most LISTING_FACTOR
 * times as many orders (the first page's count says): fewer requests for the same records.
 * Otherwise the first page is all it reads of the list (what it holds is used).
 */
const LISTING_FROM = 20;
const LISTING_FACTOR = 2;

/** One order of the send: what is known of it, and what its records need of its last record. */
class TrackedOrderState {
  readonly follower: OrderFollower;
  details: OrderDetails | undefined;
  missing = false;

  constructor(readonly order: OrderToTrack) {
    this.follower = new OrderFollower(order.id);
  }

  observe(record: Order): void {
    this.details = detailsOf(record);
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
    return this.details && known ? shipmentRecords(this.details, known, this.order.rows) : [];
  }
}

class Send {
  private readonly orders: TrackedOrderState[];
  private readonly byId = new Map<string, TrackedOrderState>();
  /** The run's orders are found by the first poll's listing. */
  private runFound: boolean | undefined;

  constructor(
    private readonly request: TrackRequest,
    private readonly service: SendOrders,
  ) {
    this.orders = request.orders.map((order) => new TrackedOrderState(order));
    for (const order of this.orders) this.byId.set(order.order.id, order);
  }

  /** Reads every order not settled, through the order list (the first poll of a run, or many orders due) or one GET each. */
  async poll(until: TrackState | undefined, signal: AbortSignal): Promise<void> {
    const due = this.orders.filter((order) => !order.settled(until));
    const findRun = this.request.run !== undefined && this.runFound === undefined;
    const rest = findRun || due.length >= LISTING_FROM ? await this.readListing(due, findRun, signal) : due;
    const read = async (order: TrackedOrderState) => order.observe(await this.service.get(order.order.id));
    await readEach(rest, this.request.concurrency, signal, read, (order) => {
      order.missing = true;
    });
  }

  /**
   * The orders due (and, finding the run, the run's) from the account's order list; returns
   * those still to read one by one: not listed, listed without their shipping orders, or
   * all but the first page's when the account has too many orders for a listing to pay.
   */
  private async readListing(due: TrackedOrderState[], findRun: boolean, signal: AbortSignal): Promise<TrackedOrderState[]> {
    const wanted = new Map(due.map((order) => [order.order.id, order]));
    const toRead: TrackedOrderState[] = [];
    const ofRun: { order: TrackedOrderState; batch: number }[] = [];
    let firstPage: { size: number; total: number | undefined } | undefined;
    let seen = 0;
    let runSeen = false;
    const take = (record: Order): void => {
      const id = String(record.id);
      let order = wanted.get(id);
      const batch = findRun ? runPosition(record.external_id, this.request.run!) : undefined;
      runSeen ||= batch !== undefined;
      if (order === undefined && batch !== undefined && !this.byId.has(id)) {
        order = new TrackedOrderState({ id, rows: [] });
        this.byId.set(id, order);
        ofRun.push({ order, batch });
      }
      if (order === undefined) return;
      wanted.delete(id);
      if (Array.isArray(record.shipping_orders)) order.observe(record);
      else toRead.push(order);
    };
    const onPage = (fetched: number, total: number | undefined) => {
      firstPage ??= { size: fetched, total };
      this.request.onListed?.(fetched, total);
    };
    for await (const record of this.service.list({ concurrency: this.request.concurrency, onPage })) {
      if (signal.aborted) break;
      take(record);
      if (findRun) continue;
      // Past the first page, the listing goes on only while it pays: every order due is not seen yet, and the account is not much larger.
      const pays = firstPage?.total !== undefined && firstPage.total <= due.length * LISTING_FACTOR;
      if (wanted.size === 0 || (!pays && ++seen >= (firstPage?.size ?? 0))) break;
    }
    if (findRun) {
      this.runFound = runSeen;
      ofRun.sort((a, b) => a.batch - b.batch || Number(a.order.order.id) - Number(b.order.order.id));
      this.orders.push(...ofRun.map(({ order }) => order));
    }
    return [...wanted.values(), ...toRead];
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
      emptyRun: this.runFound === false ? this.request.run : undefined,
      cancelled: this.orders.flatMap((order) => order.cancelledRecords()),
      cancelledOrders: this.orders.filter((order) => order.follower.order !== undefined && cannotReach(order.follower.order)).map((order) => order.order.id),
      withoutShipments: this.orders
        .filter((order) => order.details !== undefined && order.details.shipments.length === 0)
        .map((order) => ({ order_id: order.order.id, status: order.follower.order?.status ?? null })),
    };
  }

  waiting(until: TrackState): WaitResult['waiting'] {
    const open = this.orders.filter((order) => !order.missing && !order.cannotReach() && !(order.follower.order && hasReached(order.follower.order, until)));
    return {
      shipments: open.flatMap((order) => order.records()).filter((s) => !atLeast(SHIPMENT_PROGRESSION, s.status, until)),
      orders: open.filter((order) => (order.details?.shipments.length ?? 0) === 0).map((order) => order.order.id),
    };
  }
}

/**
 * Where an order stands among the run's: its batch number (0 for the run id itself, k for
 * `<run id>-k`: src/orders/create/run-orders.ts), after them any other external id that starts
 * with `<run id>-`; undefined for an order that is not the run's.
 */
function runPosition(externalId: string | null | undefined, runId: string): number | undefined {
  return batchOfRun(externalId, runId) ?? (externalId?.startsWith(`${runId}-`) ? Infinity : undefined);
}
