import type { JournalEvent } from '../../webhooks/event-journal-records.js';
import { stringifyExact } from '../../lib/exact-json.js';
import { OrderFollower, unconfirmedNote, type OrderView } from './follower.js';
import { abandonOnAbort, ABORTED, isTransient, poll } from './poll.js';
import type { WatchPorts } from './ports.js';
import { ServiceHealth, type ServiceChange } from './service-health.js';
import { cannotReach, isDelivered } from './wait-states.js';

export interface WatchRequest {
  orderId: string;
  intervalMs: number;
  /** Aborts on Ctrl-C. */
  interrupted: AbortSignal;
  /** Every change of what is shown, in the order it was learnt, once each. */
  onChange: (view: OrderView, at: Date) => void;
  /** The service started failing the polls, fails in another way, or answers again (not every poll). */
  onServiceChange?: (change: ServiceChange) => void;
  /** An event said what the service, asked at once, does not say (once per claim): `order 1001: an order.changed event said Delivered, ...`. */
  onUnconfirmed?: (note: string) => void;
}

/** Unconfirmed claims remembered (not asked again) until what is shown changes; a bound on a flood of forgeries. */
const MAX_UNCONFIRMED = 1000;

export type WatchOutcome = 'delivered' | 'cancelled' | 'interrupted';

/**
 * `orders watch`: follows the order from polls and, when given, the webhook events,
 * whichever tells first, until every shipment is delivered, the order is cancelled, or
 * the watch is interrupted. A failure that passes (5xx, 429, no answer) is polled through;
 * any other failure of a source ends the watch with its error.
 *
 * Events are hints, the service is the truth: deliveries are unsigned, and a listener's
 * journal holds whatever was posted to it. An event that would change what is shown makes
 * the watch read the order at once (one GET), and what is shown is the service's answer;
 * what the event said and the service does not is told to `onUnconfirmed`, and never
 * ends the watch. A stale or repeated event, which would change nothing, costs nothing.
 */
export async function watchOrder(request: WatchRequest, { orders, clock, events }: WatchPorts): Promise<WatchOutcome> {
  const follower = new OrderFollower(request.orderId);
  const finished = new AbortController();
  const signal = AbortSignal.any([finished.signal, request.interrupted]);
  /** Claims of events the service did not confirm: not asked about again until what is shown changes. */
  const unconfirmed = new Set<string>();
  /** Whether the watch is over after this change. */
  const changed = (isChange: boolean): boolean => {
    if (isChange) {
      unconfirmed.clear();
      request.onChange(follower.view(), new Date(clock.now()));
    }
    const order = follower.order;
    const over = order !== undefined && (isDelivered(order) || cannotReach(order));
    if (over) finished.abort();
    return over;
  };
  const health = new ServiceHealth(request.onServiceChange, () => clock.now());
  const fetchOrder = () => orders.get(request.orderId);
  /** An event: a reason to ask the service now, when it would change what is shown. */
  const checkEvent = async (event: JournalEvent): Promise<void> => {
    const claimed = follower.claimedBy(event.event, event.data);
    if (claimed === undefined) return;
    const claim = stringifyExact([event.event, claimed]);
    if (unconfirmed.has(claim)) return;
    let answer;
    try {
      answer = await abandonOnAbort(fetchOrder(), signal);
    } catch (error) {
      // A failure that passes: the polls will tell (and say it); the event is not taken.
      if (isTransient(error)) return;
      throw error;
    }
    if (answer === ABORTED) return;
    health.answered();
    if (changed(follower.observeOrder(answer.result))) return;
    const still = follower.claimedBy(event.event, event.data);
    if (still === undefined) return;
    if (unconfirmed.size >= MAX_UNCONFIRMED) unconfirmed.clear();
    unconfirmed.add(stringifyExact([event.event, still]));
    request.onUnconfirmed?.(unconfirmedNote(event.event, still, follower.view()));
  };
  const sources = [poll(fetchOrder, (record) => changed(follower.observeOrder(record)), { intervalMs: request.intervalMs, clock, signal, health })];
  if (events !== undefined) sources.push(events(checkEvent, signal));
  try {
    await Promise.all(sources);
  } finally {
    finished.abort();
  }
  const order = follower.order;
  if (order !== undefined && isDelivered(order)) return 'delivered';
  if (order !== undefined && cannotReach(order)) return 'cancelled';
  return 'interrupted';
}
