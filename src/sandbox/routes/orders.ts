import { z } from 'zod';
import type { App, SandboxContext } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { buildOrder } from '../order-builder.js';
import { orderRequestSchema } from '../order-request.js';
import { resolveOrder } from '../order-validation.js';
import { paginate } from '../pagination.js';
import { parseJson, parseQuery, pathId } from '../validate.js';

const listQuery = z.object({ external_id: z.string().optional() });

export function orderRoutes(app: App, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/v1/orders', (c) => {
    const { external_id: externalId } = parseQuery(c, listQuery);
    const orders = store
      .orders(c.get('account'))
      .filter((order) => externalId === undefined || order.external_id === externalId)
      .sort((a, b) => b.id - a.id);
    return c.json(paginate(c, orders));
  });

  app.get('/v1/orders/:id', (c) => {
    const order = store.order(c.get('account'), pathId(c, 'Order'));
    if (!order) throw notFound('Order');
    return c.json(order);
  });

  app.post('/v1/orders', async (c) => {
    const request = await parseJson(c, orderRequestSchema);
    const account = store.account(c.get('account'));
    if (request.external_id) {
      const existing = store.orders(account.id).find((order) => order.external_id === request.external_id);
      if (existing) {
        throw conflict(`An order with external_id "${request.external_id}" already exists.`, { order_id: existing.id });
      }
    }
    const resolved = resolveOrder(request, account, store.customProducts(account.id));
    const order = buildOrder(store, account, request, resolved);
    store.addOrder(account.id, order);
    ctx.lifecycle.orderCreated(account.id, order);
    return c.json(order, 201);
  });
}
