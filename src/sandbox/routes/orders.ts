import type { Context } from 'hono';
import { z } from 'zod';
import type { App, SandboxContext } from '../route-context.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { checkOrderRequest } from '../../contract/order-rules.js';
import { standardiseRecipient } from '../address-standard.js';
import { conflict, HttpError, NON_FIELD_ERRORS, notFound, serverErrorPage, validationError } from '../errors.js';
import { orderBy, orderOrdering } from '../listing.js';
import type { DuplicateOrderForm, ServiceVariants } from '../options.js';
import { buildOrderRecord } from '../order-record.js';
import { accountData, resolveOrder } from '../order-resolution.js';
import { paginate } from '../pagination.js';
import type { Order } from '../records.js';
import { parseQuery, pathId, readJson, stringList } from '../request-parsing.js';
import { answerReshaper } from '../service-variants.js';

const orderingQuery = z.object({ ordering: orderOrdering });

/** The list's filters; with `--order-filters ignored` they are not read (unknown parameters, which DRF ignores). */
const filterQuery = z.object({
  external_id: z.string().optional(),
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
 * A second order with an account's external_id, as `--duplicate-order` answers it: DRF's
 * unique-together refusal (400 `non_field_errors`, naming neither the order nor the field's
 * value), a 409 naming the existing order, a 400 on the field (a unique field's validator),
 * Django's 500 page (an IntegrityError no view handled; nothing is created), or 200 with the
 * existing order (a view that answers a repeat with what it has: `existing`). `accepted`
 * never gets here: there is no check.
 */
function duplicateOrder(c: Context, form: Exclude<DuplicateOrderForm, 'accepted'>, existing: Order): HttpError | Response {
  switch (form) {
    case 'existing':
      return c.json(existing, 200);
    case 'drf':
      return new HttpError(400, { [NON_FIELD_ERRORS]: ['The fields account, external_id must make a unique set.'] });
    case '409':
      return conflict(`An order with external_id "${existing.external_id}" already exists.`, { order_id: existing.id });
    case 'field':
      return new HttpError(400, { external_id: ['order with this external id already exists.'] });
    case '500':
      return serverErrorPage();
  }
}

/** `--order-records standardised-addresses`: the recipients stored as USPS standardises them. */
function asStored(request: OrderRequest, variants: ServiceVariants): OrderRequest {
  if (!variants.orderRecords.has('standardised-addresses')) return request;
  return {
    ...request,
    shipping_orders: request.shipping_orders.map((shipping) => ({ ...shipping, recipient: standardiseRecipient(shipping.recipient) })),
  };
}

/**
 * The answer to a create, as `--create-answer` says: 201 with the record (reshaped by the
 * other variants at the edge), 201 `{"id"}`, 202 without a body, or 201 with the record's
 * JSON cut in half (it does not parse).
 */
function createAnswer(c: Context, order: Order, variants: ServiceVariants): Response {
  switch (variants.createAnswer) {
    case 'record':
      return c.json(order, 201);
    case 'id':
      return c.json({ id: order.id }, 201);
    case 'accepted-empty':
      return c.body(null, 202);
    case 'truncated': {
      const record: unknown = JSON.parse(JSON.stringify(order));
      answerReshaper(variants)?.('order', record);
      const text = JSON.stringify(record);
      return c.body(text.slice(0, Math.floor(text.length / 2)), 201, { 'Content-Type': 'application/json' });
    }
  }
}

export function orderRoutes(app: App, ctx: SandboxContext): void {
  const { store, variants } = ctx;

  app.get('/v1/orders', (c) => {
    const { ordering } = parseQuery(c, orderingQuery);
    const filters = variants.orderFilters === 'honoured' ? parseQuery(c, filterQuery) : {};
    const { external_id: externalId, status, created_at__gte: createdSince } = filters;
    const orders = store
      .orders(c.get('account'))
      .filter((order) => externalId === undefined || order.external_id === externalId)
      .filter((order) => status === undefined || status.length === 0 || hasStatus(order, status))
      .filter((order) => createdSince === undefined || Date.parse(order.created_at) >= createdSince);
    return c.json(paginate(c, orderBy(orders, ordering ?? ['-id']), variants.pages));
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
    const request = asStored(checked.body, variants);
    if (request.external_id && variants.duplicateOrder !== 'accepted') {
      const existing = store.orders(account.id).find((order) => order.external_id === request.external_id);
      if (existing) {
        const refusal = duplicateOrder(c, variants.duplicateOrder, existing);
        if (refusal instanceof Response) return refusal;
        throw refusal;
      }
    }
    const resolved = resolveOrder(request, account, products);
    const order = buildOrderRecord(store, account, request, resolved);
    store.addOrder(account.id, order);
    ctx.lifecycle.orderCreated(account.id, order);
    return createAnswer(c, order, variants);
  });
}
