import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { getCustomProduct } from '../../api/resources/custom-products.js';
import { scanOrders } from '../../api/resources/order-scan.js';
import { createOrder, findOrderByExternalId, getOrder } from '../../api/resources/orders.js';
import { listPaymentMethods } from '../../api/resources/payment-methods.js';
import type { CreateOrdersPorts } from '../../orders/create/engine.js';
import type { AccountApi, OrdersApi } from '../../orders/create/ports.js';
import { orderScopeOf, type RunService } from './order-scope.js';

/**
 * The domain's doors to the service (src/orders/create/ports.ts), built over
 * src/api/resources/: the one place they are made, from the run's service (its settings and
 * its API client) or, for the in-memory service of the tests (test/support/memory-service.ts),
 * from a client.
 */

/** The doors of `orders create` (src/orders/create/engine.ts) to the run's service: its orders, the account's data, and the account the orders are scoped to. */
export function servicePorts(service: RunService): Pick<CreateOrdersPorts, 'orders' | 'account' | 'scope'> {
  const client = service.api();
  return { orders: serviceOrdersApi(client), account: serviceAccount(client), scope: () => orderScopeOf(service) };
}

export function serviceOrdersApi(client: ApiClient): OrdersApi {
  return {
    resends: client.retries,
    create: (body) => createOrder(client, body),
    get: (id) => getOrder(client, String(id)),
    findByExternalId: (externalId) => findOrderByExternalId(client, externalId),
    everyOrder: () => scanOrders(client),
  };
}

export function serviceAccount(client: ApiClient): AccountApi {
  return {
    paymentMethods: () => listPaymentMethods(client),
    async product(id) {
      try {
        return await getCustomProduct(client, String(id));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  };
}
