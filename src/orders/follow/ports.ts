import type { Order } from '../../api/schemas.js';
import type { JournalEvent } from '../../webhooks/event-journal-records.js';

/**
 * What following an order (waiter.ts, watcher.ts, and track/'s polls) needs from outside:
 * the service's orders, time, and for `orders watch --journal` the webhook events. The
 * commands build them (src/commands/orders/follow-ports.ts, over src/api/resources/); a test
 * gives the in-memory service and a fake clock (test/support/memory-follow.ts), so a wait of
 * half an hour runs in milliseconds.
 */

/** The service's orders, as following one reads them. */
export interface FollowedOrders {
  /** `GET /v1/orders/{id}`; an ApiError (404) when the service has no such order. */
  get(id: string): Promise<Order>;
}

/** Time as a wait spends it: every wait, deadline and timestamp of following goes through it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** A signal that aborts once `ms` have passed. */
  timeout(ms: number): AbortSignal;
}

/** Webhook events as they arrive: each to `onEvent`, one at a time (the next once its promise settles; its failure ends the feed), until the signal aborts. */
export type EventFeed = (onEvent: (event: JournalEvent) => Promise<void>, signal: AbortSignal) => Promise<void>;

export interface FollowPorts {
  orders: FollowedOrders;
  clock: Clock;
}

export interface WatchPorts extends FollowPorts {
  /** Events to check with the service alongside polling (`--journal`), if any. */
  events?: EventFeed;
}
