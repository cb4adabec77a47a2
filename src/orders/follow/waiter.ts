import type { Order } from '../../api/schemas.js';
import { OrderFollower } from './follower.js';
import { poll } from './poll.js';
import type { FollowPorts } from './ports.js';
import { ServiceHealth, type Failing, type ServiceChange } from './service-health.js';
import type { TrackedOrder } from './tracked-order.js';
import { cannotReach, hasReached, type WaitState } from './wait-states.js';

export interface WaitRequest {
  orderId: string;
  until: WaitState;
  maxWaitMs: number;
  intervalMs: number;
  /** Aborts on Ctrl-C. */
  interrupted: AbortSignal;
  /** After every poll that changed what is known. */
  onProgress?: (order: TrackedOrder) => void;
  /** The service started failing the polls, fails in another way, or answers again (not every poll). */
  onServiceChange?: (change: ServiceChange) => void;
}

export type WaitOutcome = 'reached' | 'cancelled' | 'timed-out' | 'interrupted';

export interface WaitResult {
  outcome: WaitOutcome;
  /** What is known of the order (undefined when no poll was answered). */
  order: TrackedOrder | undefined;
  /** The last order record the service sent. */
  record: Order | undefined;
  /** Whether the service answered any poll. */
  answered: boolean;
  /** When the wait ended with the polls failing: for how long, and the last failure. */
  failing: Failing | undefined;
}

/**
 * `orders wait`: polls the order until it reaches the state, can never reach it (it is
 * cancelled), `maxWaitMs` passes, or the wait is interrupted. A failure that passes (5xx,
 * 429, no answer) is polled through until then; any other is thrown at once (poll.ts).
 */
export async function waitForOrder(request: WaitRequest, { orders, clock }: FollowPorts): Promise<WaitResult> {
  const follower = new OrderFollower(request.orderId);
  const deadline = clock.timeout(request.maxWaitMs);
  let record: Order | undefined;
  const settled = (order: TrackedOrder) => hasReached(order, request.until) || cannotReach(order);
  const health = new ServiceHealth(request.onServiceChange, () => clock.now());
  await poll(
    () => orders.get(request.orderId),
    (answer) => {
      record = answer;
      if (follower.observeOrder(answer)) request.onProgress?.(follower.order!);
      return settled(follower.order!);
    },
    {
      intervalMs: request.intervalMs,
      clock,
      signal: AbortSignal.any([deadline, request.interrupted]),
      health,
    },
  );
  const order = follower.order;
  // A wait that ran out with no answer failed for all of --max-wait. (The clock may say a
  // millisecond less: the deadline's timer counts from the event loop's cached time.)
  const failedThroughout = deadline.aborted && !request.interrupted.aborted && !health.everAnswered;
  const failing = health.failing && failedThroughout ? { ...health.failing, forMs: Math.max(health.failing.forMs, request.maxWaitMs) } : health.failing;
  return { outcome: outcomeOf(order, request.until, request.interrupted.aborted && !deadline.aborted), order, record, answered: health.everAnswered, failing };
}

function outcomeOf(order: TrackedOrder | undefined, until: WaitState, interrupted: boolean): WaitOutcome {
  if (order !== undefined && hasReached(order, until)) return 'reached';
  if (order !== undefined && cannotReach(order)) return 'cancelled';
  return interrupted ? 'interrupted' : 'timed-out';
}
