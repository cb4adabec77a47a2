import { ApiError } from '../../api/errors.js';
import type { CustomProduct, Order } from '../../api/schemas.js';
import { offeredAttributes } from '../../contract/attributes.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { AnsweredWithAnotherOrder, CreatedOrderMissing, ExternalIdTaken, PlacingStopped, RecordIncomparable, RunInDoubt } from './errors.js';
import { isRecord } from '../../lib/is-record.js';
import { sameExternalId } from '../../lib/external-id.js';
import { send, type Plan } from './exactly-once.js';
import { compareOrder, type Offerings } from './order-content.js';
import type { BatchRecord, OrderJournal } from './order-journal.js';
import type { OrdersApi, PlacePorts } from './ports.js';

/**
 * Placing one order, exactly once (issue 18): the use case behind `orders create` for an
 * order given by flags, a file or the wizard. The service is the truth and the journal a
 * cache. Wherever the order's external id is found (the journal, a duplicate answer in any
 * form, the lookup by external id), the service's order is compared with this one
 * (order-content.ts): the same is reported as existing (whatever payment method paid it);
 * another order, or a record that lacks what the comparison needs, is refused
 * (ExternalIdTaken, RecordIncomparable) and nothing is placed; a record that differs from
 * an order this machine's journal sent and recorded made is that order, stored otherwise. A
 * create's 2xx answer is evidence, not proof (judgeCreateAnswer): another external id, or a
 * 200 with other content, is not `created` (AnsweredWithAnotherOrder); a 201 with other
 * content is this order stored otherwise (`created`, the difference said). An order the
 * journal names but the service does not show is doubt (CreatedOrderMissing): never placed
 * again on that ground alone. A first send waits for a look-up that can tell (else doubt,
 * RunInDoubt, unless `--assume-unsent`).
 */

export interface OrderToPlace {
  /** The validated body, without its external id (the plan gives it). */
  body: OrderRequest;
  /** The account's products the body names (their offered attributes read the service's record). */
  products: ReadonlyMap<number | bigint, CustomProduct | null>;
  /** Kept with the journal's entries: the run of a recipients list this order is a batch of. */
  journalled?: BatchRecord;
  /** The caller has shown the service has no order of this external id (a run's conclusive look-up): none is looked for before sending. */
  checkedUnsent?: boolean;
  /** `--assume-unsent`: a person has checked that the order was not placed, where the service cannot show it. */
  assumeUnsent?: boolean;
}

export interface PlacedOrder {
  status: 'created' | 'existing';
  externalId: string;
  orderId: number | bigint | string;
  /** The service's record of the order. */
  record: Order;
}

export type PlaceOrderEvent =
  /** The POST is about to be sent (`resumed`: an earlier attempt, which may have reached the service, is finished). */
  | { kind: 'sending'; externalId: string; origin: Plan['origin']; resumed: boolean }
  /**
   * The service already had an order with this external id, and it is this order: found by
   * the journal, or by the service's answer to a repeat; `lost answer` when this run's own
   * attempt made it and its answer was lost (then it counts as created by this run).
   */
  | { kind: 'found'; externalId: string; orderId: number | bigint | string; via: 'journal' | 'service' | 'lost answer'; paidWith?: string }
  /** Made now (201), and the service's record of it is not what was sent (a service that splits, merges or shortens what it stores). */
  | { kind: 'stored otherwise'; externalId: string; orderId: number | bigint | string; difference: string };

export type PlaceOrderPorts = PlacePorts<OrderToPlace, PlaceOrderEvent>;

export async function placeOrder(order: OrderToPlace, plan: Plan, ports: PlaceOrderPorts): Promise<PlacedOrder> {
  const offerings = offeringsOf(order.products);
  const judgeFound = (record: Order, orderId: number | bigint | string) => judgeRecord(order.body, record, plan, orderId, offerings, ports);
  if (plan.existing) {
    const orderId = plan.existing.order_id;
    const record = await recordOrGone(ports.api, orderId, plan.externalId);
    if (!record) throw new CreatedOrderMissing(plan.externalId, orderId);
    const placed = await judgeFound(record, orderId);
    ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId, via: 'journal', ...paidOtherwise(order.body, placed.record) });
    return placed;
  } else if (!order.checkedUnsent) {
    // Before a first send: the service may already have this external id's order (sent from
    // another machine), and a service that accepts a repeated external id would make a second.
    const { order: prior, definitive } = await ports.api.findByExternalId(plan.externalId);
    if (!prior && !definitive && !order.assumeUnsent) {
      // Doubt never sends: a service whose records hide the external id, or whose list could not be searched through, cannot show the order is not there.
      throw new RunInDoubt(
        'unfindable',
        `the service cannot show whether it already has an order with external id ${plan.externalId} (its order records carry no external_id, or its orders could not all be searched), so this machine cannot show the order was not placed before; nothing was sent`,
      );
    }
    if (prior) {
      const placed = await judgeFound(prior, prior.id);
      ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId: prior.id, via: 'service', ...paidOtherwise(order.body, placed.record) });
      return placed;
    }
  }
  if (ports.confirm && !(await ports.confirm(order))) throw new PlacingStopped('cancelled: no order was created');
  ports.notify?.({ kind: 'sending', externalId: plan.externalId, origin: plan.origin, resumed: plan.resumed !== undefined });
  let storedOtherwise: string | undefined;
  const judgeAnswer = (answer: unknown, orderId: number | bigint | string, status: number) => {
    const verdict = judgeCreateAnswer(order.body, answer, orderId, plan, offerings, status);
    if (typeof verdict === 'string') storedOtherwise = verdict;
    return typeof verdict === 'string' ? undefined : verdict;
  };
  const sent = await send(ports.api, ports.journal, order.body, plan, order.journalled, judgeAnswer);
  if (storedOtherwise !== undefined) ports.notify?.({ kind: 'stored otherwise', externalId: plan.externalId, orderId: sent.orderId, difference: storedOtherwise });
  const record = sent.record ?? (await ports.api.get(sent.orderId));
  if (!sent.duplicate) return { status: 'created', externalId: plan.externalId, orderId: sent.orderId, record };
  if (sent.ownAttempt) {
    // Looked for before it was sent and not there: the order found is the one this attempt made
    // (its answer lost, or a proxy that sent the POST again), unless it shows other content.
    const comparison = compareOrder(order.body, record, offerings);
    if (comparison.verdict === 'different') {
      const taken = new ExternalIdTaken(plan.externalId, sent.orderId, comparison.difference);
      await ports.journal.recordFailed(plan.externalId, taken.message);
      throw taken;
    }
    await ports.journal.recordCreated(plan.externalId, sent.orderId);
    ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId: sent.orderId, via: 'lost answer' });
    return { status: 'created', externalId: plan.externalId, orderId: sent.orderId, record };
  }
  try {
    const placed = await judgeFound(record, sent.orderId);
    await ports.journal.recordCreated(plan.externalId, sent.orderId);
    ports.notify?.({ kind: 'found', externalId: plan.externalId, orderId: sent.orderId, via: 'service', ...paidOtherwise(order.body, placed.record) });
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
 * and otherwise cannot be compared (never "differs"). A record that differs is this order
 * stored otherwise when the journal vouches for it so.
 */
async function judgeRecord(body: OrderRequest, record: Order, plan: Plan, orderId: number | bigint | string, offerings: Offerings, ports: PlaceOrderPorts): Promise<PlacedOrder> {
  let comparison = compareOrder(body, record, offerings);
  let read = record;
  if (comparison.verdict === 'incomparable') {
    read = await ports.api.get(orderId);
    comparison = compareOrder(body, read, offerings);
  }
  // This machine sent this order's content under this external id and the service made it as
  // this order: a record that differs is this order stored otherwise, not another one.
  if (comparison.verdict === 'different' && !journalVouches(ports.journal, plan, orderId)) throw new ExternalIdTaken(plan.externalId, orderId, comparison.difference);
  if (comparison.verdict === 'incomparable' && !journalVouches(ports.journal, plan, orderId)) {
    throw new RecordIncomparable(plan.externalId, orderId, comparison.missing);
  }
  return { status: 'existing', externalId: plan.externalId, orderId, record: read };
}

/**
 * A create's 2xx answer, against what was sent. An answer that shows another external id is
 * another order; a whole record whose content differs is this order stored otherwise when
 * the service says it made it now (201: the difference, to be said), and otherwise (a 200 to a
 * POST: a service that answers a repeat with what it has) may be an earlier order under this
 * external id: not reported created (AnsweredWithAnotherOrder). An answer that shows no content
 * (an id alone, a record without its shipping orders yet) cannot tell: the id stands, since this
 * external id was looked up before it was sent, and the journal records what was sent under it.
 */
function judgeCreateAnswer(body: OrderRequest, answer: unknown, orderId: number | bigint | string, plan: Plan, offerings: Offerings, status: number): AnsweredWithAnotherOrder | string | undefined {
  if (!isRecord(answer)) return undefined;
  const shown = answer.external_id;
  if (typeof shown === 'string' && !sameExternalId(shown, plan.externalId)) return new AnsweredWithAnotherOrder(plan.externalId, orderId, `its external id is ${shown}`);
  const comparison = compareOrder(body, answer, offerings);
  if (comparison.verdict !== 'different') return undefined;
  return status === 201 ? comparison.difference : new AnsweredWithAnotherOrder(plan.externalId, orderId, comparison.difference);
}

/** The payment method of a found order, when its record shows one other than this command's: the same order, paid otherwise. */
function paidOtherwise(body: OrderRequest, record: Order): { paidWith?: string } {
  const info = (record as { payment_information?: unknown }).payment_information;
  const id = isRecord(info) && typeof info.payment_method_id === 'string' ? info.payment_method_id : undefined;
  return id !== undefined && id !== body.payment_method_id ? { paidWith: id } : {};
}

/** This machine's journal sent this order's content under this external id and recorded it created as this order. */
function journalVouches(journal: OrderJournal, plan: Plan, orderId: number | bigint | string): boolean {
  const entry = journal.find({ externalId: plan.externalId });
  // The same content (whatever paid it), or this very body as merch 0.1 recorded it.
  return entry?.state === 'created' && String(entry.order_id) === String(orderId) && (entry.key === plan.key || entry.body_hash === plan.bodyHash(plan.externalId));
}

/**
 * The order the journal names, or undefined when the service has no such order (404), or
 * the order of that id is another external id's (a service that lost its orders reuses ids;
 * a record without one cannot say).
 */
export async function recordOrGone(api: OrdersApi, orderId: number | bigint | string, externalId: string): Promise<Order | undefined> {
  try {
    const record = await api.get(orderId);
    return record.external_id === undefined || record.external_id === null || sameExternalId(record.external_id, externalId) ? record : undefined;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return undefined;
    throw err;
  }
}

/** The offered attributes of the products an order names, as the comparison reads them. */
export function offeringsOf(products: ReadonlyMap<number | bigint, CustomProduct | null>): Offerings {
  const offered = new Map<number | bigint, ReturnType<typeof offeredAttributes>>();
  for (const [id, product] of products) if (product) offered.set(id, offeredAttributes(product.available_attributes));
  return (id) => offered.get(id);
}
