import type { ApiClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { getCustomProduct } from '../../api/resources/custom-products.js';
import { scanOrders } from '../../api/resources/order-scan.js';
import { createOrder, findOrderByExternalId, getOrder } from '../../api/resources/orders.js';
import { listPaymentMethods } from '../../api/resources/payment-methods.js';
import type { Context } from '../../context.js';
import type { AccountApi, OrdersApi } from '../../orders/create/ports.js';
import { AccountLookups } from '../../orders/create/prepare.js';

/**
 * The domain's doors to the service (src/orders/create/ports.ts), built over
 * src/api/resources/: the one place they are made, from the run's context or, for the
 * in-memory service of the tests (test/support/memory-service.ts), from a client.
 */

/** The service's orders, as the run's context reaches them. */
export function ordersOf(ctx: Context): OrdersApi {
  return serviceOrdersApi(ctx.api());
}

/** The account's payment methods and products, each read once however often asked (the wizard and the order it makes share them). */
export function accountLookupsOf(ctx: Context): AccountLookups {
  return new AccountLookups(serviceAccount(ctx.api()));
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
