import type { EventKind } from '../contract/delivery.js';
import type { Deliveries } from './deliveries.js';
import type { Store } from './store.js';

/** Emits an event of an account: one delivery per active subscription to that event. */
export class Events {
  constructor(
    private readonly store: Store,
    private readonly deliveries: Deliveries,
  ) {}

  /** Returns the number of subscriptions the event goes to. */
  emit(account: string, event: EventKind, data: object): number {
    const subscriptions = this.store
      .webhooks(account)
      .filter((subscription) => subscription.is_active && subscription.event === event);
    if (subscriptions.length === 0) return 0;
    // A copy as it is now (the record moves on); made only when it goes somewhere: an order of
    // 500 shipping orders is copied once per event.
    const snapshot = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
    for (const { id, target } of subscriptions) {
      this.deliveries.send({ hook: { id, event, target }, data: snapshot });
    }
    return subscriptions.length;
  }
}
