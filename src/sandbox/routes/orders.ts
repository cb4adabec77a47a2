import { z } from 'zod';
import type { App, SandboxContext } from '../route-context.js';
import { checkOrderRequest } from '../../contract/order-rules.js';
import { conflict, HttpError, NON_FIELD_ERRORS, notFound, validationError } from '../errors.js';
import { orderBy, orderOrdering } from '../listing.js';
import type { DuplicateOrderForm } from '../options.js';
import { buildOrderRecord } from '../order-record.js';
import { accountData, resolveOrder } from '../order-resolution.js';
import { paginate } from '../pagination.js';
import type { Order } from '../records.js';
import { parseQuery, pathId, readJson, stringList } from '../request-parsing.js';

const listQuery = z.object({
  external_id: z.string().optional(),
  ordering: orderOrdering,
  /** Status names (any case) or ids, comma separated: `status=shipped,delivered`, `status=3,4`. */
  status: stringList,
  /** Created at or after this ISO 8601 date or date-time (DRF's DateTimeFilter, `lookup_expr='gte'`). */
  created_at__gte: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), 'Enter a valid date/time.')
    .transform((value) => Date.parse(value))
    .optional(),
});

/** Whether the order's status is one of `statuses` (names without regard to case, or ids). */
function hasStatus(order: Order, statuses: string[]): boolean {
  return statuses.some((wanted) => wanted.toLowerCase() === order.status.name.toLowerCase() || wanted === String(order.status.id));
}

/**
 * A second order with an account's external_id: DRF's unique-together refusal (400
 * `non_field_errors`, naming neither the order nor the field's value), or the 409 form that
 * names the existing order.
 */
function duplicateOrder(form: DuplicateOrderForm, existing: Order): HttpError {
  if (form === '409') {
    return conflict(`An order with external_id "${existing.external_id}" already exists.`, { order_id: existing.id });
  }
  return new HttpError(400, { [NON_FIELD_ERRORS]: ['The fields account, external_id must make a unique set.'] });
}

export function orderRoutes(app: App, ctx: SandboxContext): void {
  const { store } = ctx;

  app.get('/v1/orders', (c) => {
    const { external_id: externalId, ordering, status, created_at__gte: createdSince } = parseQuery(c, listQuery);
    const orders = store
      .orders(c.get('account'))
      .filter((order) => externalId === undefined || order.external_id === externalId)
      .filter((order) => status === undefined || status.length === 0 || hasStatus(order, status))
      .filter((order) => createdSince === undefined || Date.parse(order.created_at) >= createdSince);
    return c.json(paginate(c, orderBy(orders, ordering ?? ['-id'])));
  });

  app.get('/v1/orders/:id', (c) => {
    const order = store.order(c.get('account'), pathId(c));
    if (!order) throw notFound();
    return c.json(order);
  });

  app.post('/v1/orders', async (c) => {
    const body = await readJson(c);
    const account = store.account(c.get('account'));
    const products = store.customProducts(account.id);
    // The same rules the CLI applies before it sends (src/contract/order-rules.ts).
    const checked = checkOrderRequest(body, accountData(body, account, products));
    if (!checked.ok) throw validationError(checked.errors);
    const request = checked.body;
    if (request.external_id) {
      const existing = store.orders(account.id).find((order) => order.external_id === request.external_id);
      if (existing) throw duplicateOrder(ctx.duplicateOrder, existing);
    }
    const resolved = resolveOrder(request, account, products);
    const order = buildOrderRecord(store, account, request, resolved);
    store.addOrder(account.id, order);
    ctx.lifecycle.orderCreated(account.id, order);
    return c.json(order, 201);
  });
}
