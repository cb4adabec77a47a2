import type { Order } from '../../api/schemas.js';
import type { Clock, FollowedOrders } from '../follow/ports.js';

/**
 * What tracking a send (send-tracker.ts) needs from outside: the service's orders, one by
 * one and as the account's list, and, to poll with `--until`, time (follow/ports.ts). The
 * commands build them (src/commands/orders/follow-ports.ts); a test gives the in-memory
 * service and a fake clock (test/support/memory-follow.ts).
 */

/** How the account's order list is read: pages at once, and who hears of each page. */
export interface OrderListing {
  /** Pages fetched at once. */
  concurrency: number;
  /** After each page: records fetched so far, and their count when the service says it. */
  onPage: (fetched: number, total: number | undefined) => void;
}

/** The service's orders, as tracking a send reads them. */
export interface SendOrders extends FollowedOrders {
  /** The account's orders, every page (`GET /v1/orders`). */
  list(listing: OrderListing): AsyncIterable<Order>;
}

export interface TrackPorts {
  orders: SendOrders;
  clock: Clock;
}
