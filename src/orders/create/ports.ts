import type { ExternalIdLookup } from '../../api/resources/orders.js';
import type { CustomProduct, Order, PaymentMethod } from '../../api/schemas.js';
import type { OrderRequest } from '../../contract/order-request.js';
import type { OrderPieces } from './builder.js';
import type { OrderJournal } from './order-journal.js';
import type { ResultRow } from './results-file.js';

/**
 * The domain's doors to the service, and what else placing an order needs from outside it
 * (engine.ts, and the steps it runs: place-order.ts, plan-batches.ts, place-batches.ts,
 * prepare.ts): the service's orders, the account's payment methods and products, what the
 * orders are scoped to, the journal, a confirmation before anything is sent, and a way to
 * tell what is happening as it happens. The commands build them from the run's context,
 * once (src/commands/orders/service-ports.ts, over src/api/resources/); a
 * test gives the in-memory service (test/support/memory-service.ts). The records are the
 * API's types (src/api/schemas.ts), read as types only: the layer gate keeps the rest of
 * api/ out of orders/.
 */

/** The service's orders, as placing an order reads and writes them. */
export interface OrdersApi {
  /** How many times a create whose answer was ambiguous may be sent again, each after a look-up (`--retries`). */
  readonly resends: number;
  /** `POST /v1/orders/` (resent on a lost answer with the same body): the answer's status (201: made now) and body. */
  create(body: OrderRequest): Promise<{ status: number; body: unknown }>;
  /** `GET /v1/orders/{id}`; an ApiError (404) when the service has no such order. */
  get(id: number | bigint | string): Promise<Order>;
  /** The order with this external id, if the service can tell (src/api/resources/orders.ts). */
  findByExternalId(externalId: string): Promise<ExternalIdLookup>;
  /** Every order of the account, as the list gives them (a record that lacks what matching reads is read again by earlier-orders.ts), in no particular order; and what the scan saw. */
  everyOrder(): AccountOrders;
}

/** The account's orders as the service's list gives them, and, once read through, what was seen of them. */
export interface AccountOrders extends AsyncIterable<Order> {
  /** How many of the account's orders were read (each once), how many of them show an external id (a service may leave the field out), and how many the first page counted. */
  readonly seen: { orders: number; showingExternalId: number; counted?: number };
}

/** The account's data an order is checked against (read once per run by prepare.ts's AccountLookups). */
export interface AccountApi {
  /** The account's payment methods, every type in one list. */
  paymentMethods(): Promise<PaymentMethod[]>;
  /** One of the account's custom products; null when the account has no such product (the service's 404). */
  product(id: number | bigint): Promise<CustomProduct | null>;
}

export interface PlacePorts<Plan, Event> {
  api: OrdersApi;
  journal: OrderJournal;
  /** Asked once everything is checked and before anything is sent; false stops the placing. */
  confirm?: (plan: Plan) => Promise<boolean>;
  /** Told what happens, as it happens (stderr lines, progress). */
  notify?: (event: Event) => void;
}

/** What an order's identity is scoped to (order-identity.ts): the service's origin and the account, as the service knows it. */
export interface OrderScope {
  scope: string;
  /** What merch 0.1 scoped an order to (order-journal.ts's `legacyKey`): an order it placed from this machine is still found. */
  legacy: { baseUrl: string; accountId?: string; token?: string };
}

/** The account's data as one run reads it, each fetched once (prepare.ts's AccountLookups): what the wizard and the order it makes share. */
export interface RunAccount {
  paymentMethods(): Promise<PaymentMethod[]>;
  products(ids: readonly (number | bigint)[]): Promise<Map<number | bigint, CustomProduct | null>>;
  /** A product read by other means (a search): not fetched again. */
  remember(product: CustomProduct): void;
}

/** Where each row of a recipients list goes once its result is known (`--results`). */
export interface ResultsSink {
  append(rows: readonly ResultRow[]): Promise<void>;
}

/** The doors of `orders create`'s one entry (engine.ts): built once by the command (or by `merch mcp`), a test's in memory. */
export interface CreatePorts<Question> {
  orders: OrdersApi;
  account: AccountApi;
  /** What the orders' identity is scoped to: asked once, when the run needs it. */
  scope(): Promise<OrderScope>;
  /** Asked once everything is checked and before anything is sent; false stops the run. Without it, nothing is asked. */
  confirm?: (question: Question) => Promise<boolean>;
  /** Completes an order whose pieces are not enough (the wizard, where a person can answer); without it, an incomplete order is refused. */
  complete?: (pieces: OrderPieces, account: RunAccount) => Promise<OrderPieces>;
  /** Aborted (Ctrl-C): no new batch starts; planning a list stops where it is. */
  signal?: AbortSignal;
  results?: ResultsSink;
}
