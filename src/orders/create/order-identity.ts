import { createHash } from 'node:crypto';
import type { OrderRequest } from '../../contract/order-request.js';
import { Digests } from './content-digests.js';
import { requestContent, shipmentKey, type Offerings } from './order-content.js';

/**
 * When two `orders create` invocations are the same order (docs/orders.md, "What makes two
 * orders the same"): the same service and account, the same items (product, attributes,
 * quantities) for the same recipients. An order is the multiset of its shipping orders'
 * contents (order-content.ts's `shipmentKey`: the recipient as a service may store it, and
 * its share of the items), so nothing else counts:
 *
 * - not how the order was composed: the wizard, flags, a JSON file, a recipients list; flag
 *   order, column order, the spacing and case of cells, the order of the rows, how line items
 *   are grouped;
 * - not how the user signed in (a token, a login, a refresh, the environment): the account
 *   is the service's (`scope`), asked of the service once per token, never a hash of one;
 * - not which payment method pays, nor the billing address, nor the batch size.
 *
 * A single order's derived external id and a recipients list's derived run id are the same
 * function of their shipping orders, so a list of one row and the same order given by flags
 * are one order.
 */

export interface OrderIdentity {
  /** The journal's key for "the same order" (order-journal.ts). */
  key: string;
  /** The external id (or run id) derived from it. */
  externalId: string;
}

/** The service and the account an order's identity is scoped to: the base URL's origin and the service's account id. */
export function identityScope(baseUrl: string, accountId: string): string {
  return `${new URL(baseUrl).origin}|${accountId}`;
}

/** The identity of an order whose shipping orders' contents are `digests` (content-digests.ts), in any order. */
export function identityOfShipments(scope: string, digests: Digests): OrderIdentity {
  const sorted = Array.from({ length: digests.length }, (_, i) => digests.hex(i)).sort();
  const key = createHash('sha256').update(`merch order v2\n${scope}\n${sorted.join('\n')}`).digest('hex');
  return { key, externalId: uuidOfHash(key) };
}

/** The identity of a validated order body. */
export function identityOfBody(scope: string, body: OrderRequest, offerings: Offerings): OrderIdentity {
  return identityOfShipments(scope, shipmentDigests(body, offerings));
}

/** The content digests of a body's shipping orders, in the body's order (what the journal keeps of an order it sent). */
export function shipmentDigests(body: OrderRequest, offerings: Offerings): Digests {
  const digests = new Digests();
  for (const shipment of requestContent(body, offerings).shipments) digests.push(shipmentKey(shipment));
  return digests;
}

/** A SHA-256 (hex) in the form of a UUID: an external id a service's field for one accepts. */
export function uuidOfHash(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
