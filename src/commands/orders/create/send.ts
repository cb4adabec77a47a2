import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../../api/client.js';
import { ApiError } from '../../../api/errors.js';
import { getOrder } from '../../../api/resources/orders.js';
import { orderSchema, type Order } from '../../../api/schemas.js';
import { CliError, ExitCode } from '../../../errors.js';
import type { OrderRequest } from './order-request.js';
import { commandIdentity, type JournalEntry, type OrderJournal } from './order-journal.js';

/**
 * Exactly-once order creation on top of the journal (see order-journal.ts):
 *
 * 1. `plan`: which external id this run uses. An explicit one (flag or file) is used as
 *    given; otherwise a live journal entry of the same command (same key) lends its id,
 *    else a new UUID. An entry already `created` means there is nothing to send.
 * 2. `send`: the attempt is journalled as pending (fsync'd), then POSTed. The client
 *    retries connection failures and 429/502/503/504 with the same body and external id:
 *    safe, because the service refuses a second order with the same external_id. A 409
 *    naming an `order_id` is that order, created once. A definite refusal (400, 401, 403,
 *    404, 422) is journalled as failed. Anything else leaves the entry pending, so a rerun
 *    of the same command resends with the same external id.
 */

export interface Plan {
  externalId: string;
  /** Where the external id came from. */
  origin: 'given' | 'generated' | 'journal';
  key: string;
  /** Hash of the body as sent with an external id. */
  bodyHash(externalId: string): string;
  /** The journal already holds the order this command creates. */
  existing?: JournalEntry & { order_id: number | string };
  /** A pending attempt of an earlier run that is being finished. */
  resumed?: JournalEntry;
}

export function plan(journal: OrderJournal, body: OrderRequest, scope: string, given?: string): Plan {
  // A validated body has a fixed key order (the schema's, attributes sorted by name), so
  // the native serialiser gives the canonical form without re-sorting 10,000 recipients.
  const { key, bodyHash } = commandIdentity(body, scope, JSON.stringify);
  const base = { key, bodyHash };
  if (given !== undefined) {
    const entry = journal.find({ externalId: given });
    if (entry?.state === 'created' && entry.order_id !== undefined) {
      if (entry.body_hash !== bodyHash(given)) {
        throw new CliError(
          `external id ${given} was already used for order ${entry.order_id}, with a different order`,
          ExitCode.refused,
          'pass a new --external-id for a new order',
        );
      }
      return { ...base, externalId: given, origin: 'given', existing: { ...entry, order_id: entry.order_id } };
    }
    return { ...base, externalId: given, origin: 'given', resumed: entry?.state === 'pending' ? entry : undefined };
  }
  const entry = journal.find({ key });
  if (entry?.state === 'created' && entry.order_id !== undefined) {
    return { ...base, externalId: entry.external_id, origin: 'journal', existing: { ...entry, order_id: entry.order_id } };
  }
  if (entry?.state === 'pending') return { ...base, externalId: entry.external_id, origin: 'journal', resumed: entry };
  return { ...base, externalId: randomUUID(), origin: 'generated' };
}

export interface SendResult {
  orderId: number | string;
  /** The creation response, when it is the whole order record (the sandbox's; the spec only promises the id). */
  record?: Order;
  /** The service already had an order with this external id (409). */
  duplicate: boolean;
}

const DEFINITE_REFUSALS = new Set([400, 401, 403, 404, 422]);

export async function send(client: ApiClient, journal: OrderJournal, body: OrderRequest, p: Plan): Promise<SendResult> {
  const sent: OrderRequest = { ...body, external_id: p.externalId };
  await journal.recordAttempt({ key: p.key, external_id: p.externalId, body_hash: p.bodyHash(p.externalId) });
  try {
    const response = await client.request({ method: 'POST', path: '/v1/orders/', body: sent, retry: true });
    const id = orderIdOf(response.data);
    if (id === undefined) {
      throw new ApiError('POST /v1/orders/: the response carries no order id', 'unexpected', response.status, response.data);
    }
    await journal.recordCreated(p.externalId, id);
    const data = response.data as Record<string, unknown>;
    const whole = Array.isArray(data.shipping_orders) && typeof data.total === 'object' && data.total !== null;
    return whole ? { orderId: id, duplicate: false, record: data as Order } : { orderId: id, duplicate: false };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === undefined) throw pendingHint(err, p.externalId);
    if (err.status === 409) {
      const id = orderIdOf(err.body, 'order_id') ?? (await findByExternalId(client, p.externalId));
      if (id !== undefined) {
        await journal.recordCreated(p.externalId, id);
        return { orderId: id, duplicate: true };
      }
    }
    if (DEFINITE_REFUSALS.has(err.status) || err.status === 409) {
      await journal.recordFailed(p.externalId, err.message);
      throw err;
    }
    throw pendingHint(err, p.externalId);
  }
}

function orderIdOf(data: unknown, field = 'id'): number | string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const id = (data as Record<string, unknown>)[field];
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? id : undefined;
}

/**
 * A 409 without `order_id`: look the order up by external id. The filter is the sandbox's;
 * a service that ignores it returns other orders, so the external id is checked here.
 */
async function findByExternalId(client: ApiClient, externalId: string): Promise<number | string | undefined> {
  try {
    const page = await client.get<unknown>('/v1/orders', { external_id: externalId, limit: 100 });
    const results = Array.isArray(page) ? page : ((page as { results?: unknown[] } | undefined)?.results ?? []);
    for (const record of results) {
      const parsed = orderSchema.safeParse(record);
      if (parsed.success && parsed.data.external_id === externalId) return parsed.data.id;
    }
  } catch {
    // fall through: unknown
  }
  return undefined;
}

/** The outcome is unknown: say how to finish safely. */
function pendingHint(err: ApiError, externalId: string): CliError {
  return new CliError(
    `${err.message} (the order may or may not have been created)`,
    err.exitCode,
    `run the same command again to finish it safely: it resends with external id ${externalId}, and the service will not create a second order`,
  );
}

export async function fetchOrder(client: ApiClient, id: number | string): Promise<Order> {
  return getOrder(client, String(id));
}
