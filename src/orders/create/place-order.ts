import { ApiError } from '../../api/errors.js';
import type { CustomProduct, Order } from '../../api/schemas.js';
import { offeredAttributes } from '../../contract/attributes.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { ExternalIdTaken, PlacingStopped, RecordIncomparable } from './errors.js';
import { send, type Plan } from './exactly-once.js';
import { compareOrder, type Offerings } from './order-content.js';
import type { BatchRecord, OrderJournal } from './order-journal.js';
import type { OrdersApi, PlacePorts } from './ports.js';

/**
 * Placing one order, exactly once (issue 18): the use case behind `orders create` for an
 * order given by flags, a file or the wizard. The service is the truth and the journal a
 * cache. Wherever the order's external id is found (the journal, a duplicate answer in any
 * form, the lookup by external id), the service's order is compared with this one
 * (order-content.ts): the same is reported as existing; another order, or a record that
 * lacks what the comparison needs, is refused (ExternalIdTaken, RecordIncomparable) and
 * nothing is placed. An order the journal names but the service no longer has is placed
 * again under the same external id.
 */

export interface OrderToPlace {
  /** The validated body, without its external id (the plan gives it). */
  body: OrderRequest;
  /** The account's products the body names (their offered attributes read the service's record). */
  products: ReadonlyMap<number, CustomProduct | null>;
  /** Kept with the journal's entries: the run of a recipients list this order is a batch of. */
  journalled?: BatchRecord;
  /** The caller has shown the service has no order of this external id (a run's conclusive look-up): none is looked for before sending. */
  checkedUnsent?: boolean;
}

export interface PlacedOrder {
  status: 'created' | 'existing';
  externalId: string;
  orderId: number | string;
  /** The service's record of the order. */
  record: Order;
}

export type PlaceOrderEvent =
  /** The journal says this external id was order N, which the service no longer has: it is placed again. */
  | { kind: 'gone'; externalId: string; orderId: number | string }
  /** The POST is about to be sent (`resumed`: an earlier attempt, which may have reached the service, is finished). */
  | { kind: 'sending'; externalId: string; origin: Plan['origin']; resumed: boolean }
  /**
   * The service already had an order with this external id, and it is this order: found by
   * the journal, or by the service's answer to a repeat; `lost answer` when this run's own
   * attempt made it and its answer was lost (then it counts as created by this run).
   */
  | { kind: 'found'; externalId: string; orderId: number | string; via: 'journal' | 'service' | 'lost answer' };

export type PlaceOrderPorts = PlacePorts<OrderToPlace, PlaceOrderEvent>;

export async function placeOrder(order: OrderToPlace, plan: Plan, ports: PlaceOrderPorts): Promise<PlacedOrder> {
  const offerings = offeringsOf(order.products);
  const judgeFound = (record: Order, orderId: number | string) => judgeRecord(order.body, record, plan, orderId, offerings, ports);
  if (plan.existing) {
    const orderId = plan.existing.order_id;
    const record = await recordOrGone(ports.api, orderId, plan.externalId);
    if (record) {
      const placed = await judgeFound(record, orderId);
      ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId, via: 'journal' });
      return placed;
    }
    ports.notify?.({ kind: 'gone', externalId: plan.externalId, orderId });
  } else if (!order.checkedUnsent) {
    // Before a first send: the service may already have this external id's order (sent from
    // another machine), and a service that accepts a repeated external id would make a second.
    const { order: prior } = await ports.api.findByExternalId(plan.externalId);
    if (prior) {
      const placed = await judgeFound(prior, prior.id);
      ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId: prior.id, via: 'service' });
      return placed;
    }
  }
  if (ports.confirm && !(await ports.confirm(order))) throw new PlacingStopped('cancelled: no order was created');
  ports.notify?.({ kind: 'sending', externalId: plan.externalId, origin: plan.origin, resumed: plan.resumed !== undefined });
  const sent = await send(ports.api, ports.journal, order.body, plan, order.journalled);
  const record = sent.record ?? (await ports.api.get(sent.orderId));
  if (!sent.duplicate) return { status: 'created', externalId: plan.externalId, orderId: sent.orderId, record };
  if (sent.ownAttempt) {
    // Looked for before it was sent and not there: the order found is the one this attempt made.
    await ports.journal.recordCreated(plan.externalId, sent.orderId);
    ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId: sent.orderId, via: 'lost answer' });
    return { status: 'created', externalId: plan.externalId, orderId: sent.orderId, record };
  }
  try {
    const placed = await judgeFound(record, sent.orderId);
    await ports.journal.recordCreated(plan.externalId, sent.orderId);
    ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId: sent.orderId, via: 'service' });
    return placed;
  } catch (err) {
    // Another order has this external id: this command's attempt created nothing.
    if (err instanceof ExternalIdTaken) await ports.journal.recordFailed(plan.externalId, err.message);
    throw err;
  }
}

/**
 * The service's order of this external id compared with this one: existing when it is the
 * same; refused when it differs. A record that cannot show its content (a listing's, or one
 * whose shipping orders are not there yet) is read again on its own; if it still cannot,
 * the order is this one only if this machine's journal sent this very body as that order,
 * and otherwise cannot be compared (never "differs").
 */
async function judgeRecord(body: OrderRequest, record: Order, plan: Plan, orderId: number | string, offerings: Offerings, ports: PlaceOrderPorts): Promise<PlacedOrder> {
  let comparison = compareOrder(body, record, offerings);
  let read = record;
  if (comparison.verdict === 'incomparable') {
    read = await ports.api.get(orderId);
    comparison = compareOrder(body, read, offerings);
  }
  if (comparison.verdict === 'different') throw new ExternalIdTaken(plan.externalId, orderId, comparison.difference);
  if (comparison.verdict === 'incomparable' && !journalVouches(ports.journal, plan, orderId)) {
    throw new RecordIncomparable(plan.externalId, orderId, comparison.missing);
  }
  return { status: 'existing', externalId: plan.externalId, orderId, record: read };
}

/** This machine's journal sent this very body under this external id and recorded it created as this order. */
function journalVouches(journal: OrderJournal, plan: Plan, orderId: number | string): boolean {
  const entry = journal.find({ externalId: plan.externalId });
  return entry?.state === 'created' && String(entry.order_id) === String(orderId) && entry.body_hash === plan.bodyHash(plan.externalId);
}

/**
 * The order the journal names, or undefined when the service has no such order (404), or
 * the order of that id is another external id's (a service that lost its orders reuses ids;
 * a record without one cannot say).
 */
export async function recordOrGone(api: OrdersApi, orderId: number | string, externalId: string): Promise<Order | undefined> {
  try {
    const record = await api.get(orderId);
    return record.external_id === undefined || record.external_id === null || record.external_id === externalId ? record : undefined;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** The offered attributes of the products an order names, as the comparison reads them. */
export function offeringsOf(products: ReadonlyMap<number, CustomProduct | null>): Offerings {
  const offered = new Map<number, ReturnType<typeof offeredAttributes>>();
  for (const [id, product] of products) if (product) offered.set(id, offeredAttributes(product.available_attributes));
  return (id) => offered.get(id);
}
