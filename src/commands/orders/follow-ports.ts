import type { ApiClient } from '../../api/client.js';
import { getOrder, listOrders } from '../../api/resources/orders.js';
import { sleep } from '../../lib/backoff.js';
import { followEventJournal } from '../../orders/follow/event-journal-tail.js';
import type { Clock, EventFeed } from '../../orders/follow/ports.js';
import type { TrackPorts } from '../../orders/track/ports.js';

/**
 * The doors of following orders and tracking a send (src/orders/follow/ports.ts,
 * src/orders/track/ports.ts), built over src/api/resources/: the one place they are made,
 * for the commands and for the in-memory service of the tests. The client is asked for
 * at the first request, so a run refused for its flags reads no session.
 */
export function followPorts(api: () => ApiClient): TrackPorts {
  return {
    orders: {
      get: (id) => getOrder(api(), id),
      list: ({ concurrency, onPage }) => listOrders(api(), { all: true, concurrency, onProgress: onPage }),
    },
    clock: systemClock,
  };
}

/** The machine's time. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, signal),
  timeout: (ms) => AbortSignal.timeout(ms),
};

/** The events a running `merch webhooks listen --journal FILE` appends, from now on. */
export function journalFeed(file: string): EventFeed {
  return (onEvent, signal) => followEventJournal(file, onEvent, signal);
}
