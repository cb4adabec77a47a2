import { OrderFollower, type OrderView } from './follower.js';
import { followEventJournal } from './event-journal-tail.js';
import { poll } from './poll.js';
import { ServiceHealth, type ServiceChange } from './service-health.js';
import { cannotReach, isDelivered } from './wait-states.js';

export interface WatchRequest {
  orderId: string;
  fetchOrder: () => Promise<Record<string, unknown>>;
  intervalMs: number;
  /** The journal of a running `merch webhooks listen`, followed alongside polling. */
  eventsFile?: string;
  /** Aborts on Ctrl-C. */
  interrupted: AbortSignal;
  /** Every change of what is shown, in the order it was learnt, once each. */
  onChange: (view: OrderView, at: Date) => void;
  /** The service started failing the polls, fails in another way, or answers again (not every poll). */
  onServiceChange?: (change: ServiceChange) => void;
}

export type WatchOutcome = 'delivered' | 'cancelled' | 'interrupted';

/**
 * `orders watch`: follows the order from polls and, when given, the webhook journal,
 * whichever tells first, until every shipment is delivered, the order is cancelled, or
 * the watch is interrupted. A failure that passes (5xx, 429, no answer) is polled through;
 * any other failure of a source ends the watch with its error.
 */
export async function watchOrder(request: WatchRequest): Promise<WatchOutcome> {
  const follower = new OrderFollower(request.orderId);
  const finished = new AbortController();
  const signal = AbortSignal.any([finished.signal, request.interrupted]);
  /** Whether the watch is over after this change. */
  const changed = (isChange: boolean): boolean => {
    if (isChange) request.onChange(follower.view(), new Date());
    const order = follower.order;
    const over = order !== undefined && (isDelivered(order) || cannotReach(order));
    if (over) finished.abort();
    return over;
  };
  const sources = [
    poll(request.fetchOrder, (record) => changed(follower.observeOrder(record)), {
      intervalMs: request.intervalMs,
      signal,
      health: new ServiceHealth(request.onServiceChange),
    }),
  ];
  if (request.eventsFile !== undefined) {
    sources.push(followEventJournal(request.eventsFile, (event) => void changed(follower.observeEvent(event.event, event.data)), signal));
  }
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
