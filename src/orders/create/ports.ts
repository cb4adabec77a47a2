import type { ApiClient } from '../../api/client.js';
import { createOrder, findOrderByExternalId, getOrder, type ExternalIdLookup } from '../../api/resources/orders.js';
import type { Order } from '../../api/schemas.js';
import type { OrderRequest } from '../../contract/order-request.js';
import type { OrderJournal } from './order-journal.js';
import { scanRunOrders, type RunOrders } from './run-orders.js';

/**
 * What placing an order needs from outside the domain (src/orders/place-order.ts,
 * place-batches.ts): the service's orders, the journal, a confirmation before anything is
 * sent, and a way to tell what is happening as it happens. The command layer gives them;
 * a test can give its own.
 */

/** The service's orders, as placing an order reads and writes them. */
export interface OrdersApi {
  /** How many times a create whose answer was ambiguous may be sent again, each after a look-up (`--retries`). */
  readonly resends: number;
  /** `POST /v1/orders/` (resent on a lost answer with the same body): the response body. */
  create(body: OrderRequest): Promise<unknown>;
  /** `GET /v1/orders/{id}`; an ApiError (404) when the service has no such order. */
  get(id: number | string): Promise<Order>;
  /** The order with this external id, if the service can tell (src/api/resources/orders.ts). */
  findByExternalId(externalId: string): Promise<ExternalIdLookup>;
  /** Every order whose external id is `runId` or `<runId>-<k>`, as the list gives them (a record that lacks what matching reads is read again by earlier-orders.ts), in no particular order; and what the scan saw. */
  ordersOfRun(runId: string): RunOrders;
}

export interface PlacePorts<Plan, Event> {
  api: OrdersApi;
  journal: OrderJournal;
  /** Asked once everything is checked and before anything is sent; false stops the placing. */
  confirm?: (plan: Plan) => Promise<boolean>;
  /** Told what happens, as it happens (stderr lines, progress). */
  notify?: (event: Event) => void;
}

/** The service's orders through the API client. */
export function serviceOrdersApi(client: ApiClient): OrdersApi {
  return {
    resends: client.retries,
    create: (body) => createOrder(client, body),
    get: (id) => getOrder(client, String(id)),
    findByExternalId: (externalId) => findOrderByExternalId(client, externalId),
    ordersOfRun: (runId) => scanRunOrders(client, runId),
  };
}
