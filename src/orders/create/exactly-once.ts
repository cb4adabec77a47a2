import { ApiError } from '../../api/errors.js';
import { backoffDelay, sleep } from '../../lib/backoff.js';
import { fieldErrorsOf } from '../../api/field-errors.js';
import type { Order } from '../../api/schemas.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { OutcomeUnknown } from './errors.js';
import { bodyHashOf, type BatchRecord, type JournalEntry, type OrderJournal } from './order-journal.js';
import type { OrderIdentity } from './order-identity.js';
import type { OrdersApi } from './ports.js';
import { isRecord } from '../../lib/is-record.js';

/**
 * Exactly-once order creation on top of the journal (order-journal.ts):
 *
 * 1. `plan`: which external id this run uses. An explicit one (flag or file) is used as
 *    given; otherwise a live journal entry of the same order (same key: order-identity.ts,
 *    or merch 0.1's key) lends its id, else the one the order's identity derives. An entry already `created` names the order the journal
 *    believes this is (the service then has the last word: see place-order.ts). An entry
 *    stays live (pending) until its order is confirmed created, or refused on an attempt
 *    that nothing before it could have reached, so a rerun never invents a new external id
 *    for a command whose earlier run may have created an order.
 * 2. `send`: the attempt is journalled as pending (fsync'd), then POSTed. The client
 *    resends a POST whose connection failed or that got 429/502/503/504 with the same body
 *    and external id. What the service answers a repeat is not part of the interface: the
 *    sandbox can answer 409 naming the order; Django REST Framework answers `400
 *    {"non_field_errors": ["The fields account, external_id must make a unique set."]}`.
 *    So a refusal that names the external id (or uniqueness), or any refusal after an
 *    attempt that may have reached the service, is "perhaps already created": the order is
 *    looked up by its external id, and returned as found (`duplicate`), unjournalled: it
 *    is this command's order only if its content is this order's, which the caller decides.
 *    Not found, nothing is resent and the entry stays pending. An order found after a
 *    duplicate answer to the first attempt, whose external id a look-up had just shown
 *    unused, is this attempt's (a proxy that sent the POST twice).
 */

export interface Plan {
  externalId: string;
  /** Where the external id came from. */
  origin: 'given' | 'generated' | 'journal';
  key: string;
  /** Hash of the body as sent with an external id. */
  bodyHash(externalId: string): string;
  /** The journal says this external id was created as this order. */
  existing?: JournalEntry & { order_id: number | bigint | string };
  /** A pending attempt of an earlier run, which may have reached the service, is being finished. */
  resumed?: JournalEntry;
}

export function plan(journal: OrderJournal, body: OrderRequest, identity: OrderIdentity & { legacyKey?: string }, given?: string): Plan {
  const base = { key: identity.key, bodyHash: bodyHashOf(body) };
  if (given !== undefined) {
    const entry = journal.find({ externalId: given });
    // Created, with this body or another: the service's order is compared with this one.
    if (entry?.state === 'created' && entry.order_id !== undefined) {
      return { ...base, externalId: given, origin: 'given', existing: { ...entry, order_id: entry.order_id } };
    }
    return { ...base, externalId: given, origin: 'given', resumed: entry?.state === 'pending' ? entry : undefined };
  }
  // The same order sent from this machine before, by this version or by merch 0.1 (whose key differs).
  const entry = journal.find({ key: identity.key }) ?? (identity.legacyKey === undefined ? undefined : journal.find({ key: identity.legacyKey }));
  if (entry?.state === 'created' && entry.order_id !== undefined) {
    return { ...base, externalId: entry.external_id, origin: 'journal', existing: { ...entry, order_id: entry.order_id } };
  }
  if (entry?.state === 'pending') return { ...base, externalId: entry.external_id, origin: 'journal', resumed: entry };
  // Derived from the order's identity, so a dry run shows the id the real run sends, and a
  // rerun (here or on a machine without this journal) sends the same one.
  return { ...base, externalId: identity.externalId, origin: 'generated' };
}

export interface SendResult {
  orderId: number | bigint | string;
  /** The creation response, or the record found, when it is a whole order record (the spec only promises the id). */
  record?: Order;
  /** The service already had an order with this external id (an earlier attempt or run, or another order): found, not journalled. */
  duplicate: boolean;
  /** Found after an attempt of this very call whose answer was lost (and no earlier run's attempt was pending): that attempt most likely made it. */
  ownAttempt?: boolean;
}

const DEFINITE_REFUSALS = new Set([400, 401, 403, 404, 409, 422]);

/** The pause before a resend (each only after a look-up found no order, or nothing was sent). */
const RESEND_BACKOFF = { initialMs: 200, maxMs: 3_000 };

/**
 * Sends the order once, and again only where it can show the earlier attempt created
 * nothing (issue 28): every ambiguous answer (a lost connection, a 5xx, a 2xx without a
 * readable id) is followed by a look-up by external id before anything is resent. Found:
 * the attempt made it. Not found: resent only when the look-up was conclusive and the
 * answer was not a 2xx (a service that said yes may still be writing); otherwise the
 * outcome is unknown and nothing more is sent. A service that accepts a repeated external
 * id so never gets a second order from here.
 */
export async function send(
  api: OrdersApi,
  journal: OrderJournal,
  body: OrderRequest,
  p: Plan,
  extra: Partial<BatchRecord> = {},
  /** What a 2xx answer with an id (and its status: 201 is made now) shows of the order, judged: an error when it is, or may be, another order than the one sent. */
  anotherOrder: (answer: unknown, orderId: number | bigint | string, status: number) => Error | undefined = () => undefined,
): Promise<SendResult> {
  await journal.recordAttempt({ key: p.key, external_id: p.externalId, body_hash: p.bodyHash(p.externalId), ...extra });
  let reached = false;
  /** A conclusive look-up found nothing after the last ambiguous answer: no attempt so far created the order. */
  let cleared = false;
  for (let attempt = 0; ; attempt++) {
    let data: unknown;
    let status: number;
    try {
      ({ status, body: data } = await api.create({ ...body, external_id: p.externalId }));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const answer = answerOf(err);
      if (answer === 'nothing-done' && attempt < api.resends) {
        await sleep(err.failure?.type === 'status' && err.failure.retryAfterMs !== undefined ? err.failure.retryAfterMs : backoffDelay(attempt, RESEND_BACKOFF));
        continue;
      }
      if (answer === 'refused') return settleRefusal(api, journal, p, err, reached);
      if (answer === 'nothing-done') {
        if (reached && !cleared) throw new OutcomeUnknown(`${err.message} (the order may or may not have been created by an earlier attempt)`, p.externalId);
        // Never reached: nothing was created, and a rerun starts afresh.
        await journal.recordFailed(p.externalId, err.message);
        throw err;
      }
      reached = true;
      cleared = false;
      const found = await lookUp(api, p.externalId);
      if (found.id !== undefined) return foundAfterAttempt(found, p);
      const description = answer === 'accepted' ? `${err.message}; the service accepted the order but its answer carries no order id` : err.message;
      if (answer === 'accepted' || !found.definitive || attempt >= api.resends) {
        throw new OutcomeUnknown(`${description}; no order with external id ${p.externalId} was found${found.definitive ? '' : ' (the look-up could not tell)'}, so nothing more was sent`, p.externalId);
      }
      cleared = true;
      await sleep(backoffDelay(attempt, RESEND_BACKOFF));
      continue;
    }
    const id = orderIdOf(data);
    if (id === undefined) {
      // A 2xx without an id (202 with no body): the service may have the order; it is looked up, never resent.
      const found = await lookUp(api, p.externalId);
      if (found.id !== undefined) return foundAfterAttempt(found, p);
      throw new OutcomeUnknown(`POST /v1/orders/: the service accepted the order without saying its id, and no order with external id ${p.externalId} was found${found.definitive ? ' yet' : ' (the look-up could not tell)'}; nothing more was sent`, p.externalId);
    }
    const another = anotherOrder(data, id, status);
    if (another !== undefined) {
      // The service kept another order under this external id and made none of this one.
      await journal.recordFailed(p.externalId, another.message);
      throw another;
    }
    await journal.recordCreated(p.externalId, id);
    return isWholeRecord(data) ? { orderId: id, duplicate: false, record: data } : { orderId: id, duplicate: false };
  }
}

/** What a failed POST says of the order: refused (nothing created), nothing done (never reached, or throttled), accepted (a 2xx that cannot be read), or unknown. */
function answerOf(err: ApiError): 'refused' | 'nothing-done' | 'accepted' | 'unknown' {
  const failure = err.failure;
  if (failure?.type === 'refused' || failure?.type === 'host-not-found' || failure?.type === 'tls') return 'nothing-done';
  if (err.status === 429) return 'nothing-done';
  if (failure?.type === 'malformed' && failure.status >= 200 && failure.status < 300) return 'accepted';
  if (err.status !== undefined && DEFINITE_REFUSALS.has(err.status)) return 'refused';
  return 'unknown';
}

function foundAfterAttempt(found: Found, p: Plan): SendResult {
  return { orderId: found.id!, duplicate: true, ownAttempt: p.resumed === undefined, ...(found.record ? { record: found.record } : {}) };
}

/** A record with the line items and shipping orders a comparison reads (a listing may give less). */
export function isWholeRecord(data: unknown): data is Order {
  return isRecord(data) && Array.isArray(data.line_items) && Array.isArray(data.shipping_orders);
}

async function settleRefusal(api: OrdersApi, journal: OrderJournal, p: Plan, err: ApiError, reached: boolean): Promise<SendResult> {
  // An earlier attempt, of this call or of an earlier run, may have created the order.
  const mayExist = reached || err.afterAmbiguousAttempt || p.resumed !== undefined;
  const duplicate = isDuplicateExternalId(err);
  if (duplicate || mayExist) {
    const named = orderIdOf(err.body, 'order_id');
    const found: Found = named !== undefined ? { id: named, definitive: true } : await lookUp(api, p.externalId);
    if (found.id !== undefined) {
      // Sent only once the external id was shown unused (placeOrder's look-up, a run's scan, or
      // a person's check): the order found is this call's, unless an earlier run's attempt was pending.
      const ownAttempt = p.resumed === undefined;
      return { orderId: found.id, duplicate: true, ownAttempt, ...(found.record ? { record: found.record } : {}) };
    }
    if (duplicate || !found.definitive) {
      throw new OutcomeUnknown(
        `the order may have been created; not resent (the service answered: ${err.message}; no order with external id ${p.externalId} was found)`,
        p.externalId,
      );
    }
  }
  await journal.recordFailed(p.externalId, err.message);
  throw err;
}

/**
 * The service's answer to an external id it already has, in any form a service may use:
 * 409; or 400/422 whose errors name `external_id`, or whose object-level errors mention it
 * or uniqueness (DRF's "The fields account, external_id must make a unique set.").
 */
export function isDuplicateExternalId(err: ApiError): boolean {
  if (err.status === 409) return true;
  if (err.status !== 400 && err.status !== 422) return false;
  return fieldErrorsOf(err.body).some(
    ({ path, message }) => path.includes('external_id') || (path.length === 0 && /external_id|external id|unique/i.test(message)),
  );
}

interface Found {
  id?: number | bigint | string;
  record?: Order;
  /** False when the service's answers could not show that no such order exists. */
  definitive: boolean;
}

async function lookUp(api: OrdersApi, externalId: string): Promise<Found> {
  try {
    const { order, definitive } = await api.findByExternalId(externalId);
    return { id: order?.id, record: isWholeRecord(order) ? order : undefined, definitive };
  } catch {
    return { definitive: false };
  }
}

function orderIdOf(data: unknown, field = 'id'): number | bigint | string | undefined {
  if (!isRecord(data)) return undefined;
  const id = data[field];
  // A BigInt: an id beyond 2^53, read exactly (lib/exact-json.ts).
  return typeof id === 'number' || typeof id === 'bigint' || (typeof id === 'string' && id !== '') ? id : undefined;
}
