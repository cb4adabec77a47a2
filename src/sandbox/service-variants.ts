import type { MiddlewareHandler } from 'hono';
import { isRecord } from '../lib/is-record.js';
import { rewriteJson } from '../lib/json-response.js';
import type { MoneyForm, OrderRecordTrait, ServiceVariants } from './options.js';
import type { Env } from './route-context.js';

/**
 * The interface's open choices that shape answers (issue 28.7; docs/sandbox.md, "What the
 * real service may do"): each a function over the JSON the routes produce, applied at the
 * edge to a parsed copy, so the store, the lifecycle and the webhook payloads never see
 * them. What acts elsewhere: `standardised-addresses` (when the order is stored), the
 * create answer and the duplicate forms (routes/orders.ts), the page rules (pagination.ts).
 */

type JsonObject = Record<string, unknown>;
type Reshape = (value: JsonObject) => void;

/** Which answer a body is: the orders list, one order record (retrieved or created), any other. */
export type AnswerKind = 'order-list' | 'order' | 'other';

const objects = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** Calls `visit` on every object in `value`, at any depth. */
function eachObject(value: unknown, visit: Reshape): void {
  if (Array.isArray(value)) {
    for (const item of value) eachObject(item, visit);
  } else if (isRecord(value)) {
    visit(value);
    for (const child of Object.values(value)) eachObject(child, visit);
  }
}

/** `slim-list`: the list's records without their line items and shipping orders (one order's record stays whole). */
const slimList: Reshape = (order) => {
  delete order.line_items;
  delete order.shipping_orders;
};

/** `no-shipping-orders`: the shipments are still being created (here, forever). */
const noShippingOrders: Reshape = (order) => {
  order.shipping_orders = [];
};

/** `shipping-orders-absent`: the same, the key left out. */
const shippingOrdersAbsent: Reshape = (order) => {
  delete order.shipping_orders;
};

/** `no-line-items`: the record does not show its line items yet (with `no-shipping-orders`: no content at all). */
const noLineItems: Reshape = (order) => {
  order.line_items = [];
};

/** `no-external-id`: the record does not carry the caller's reference (the service still keeps it). */
const noExternalId: Reshape = (order) => {
  delete order.external_id;
};

/** The fields of a part that the interface's 2.3 shape gives only in order events. */
const ORDER_EVENT_PART_FIELDS = ['product_id', 'product_weight', 'product_weight_unit', 'storage_category', 'product_production_time'];

/** `interface-parts`: the parts inside shipping orders have the interface's 2.3 shape (the order's own line items keep theirs). */
const interfaceParts: Reshape = (order) => {
  for (const shipping of objects(order.shipping_orders)) {
    for (const item of objects(shipping.line_items)) {
      if (isRecord(item.part)) for (const field of ORDER_EVENT_PART_FIELDS) delete item.part[field];
    }
  }
};

/** What each trait does to every order record answered; `standardised-addresses` acts when the order is stored. */
const RECORD_TRAITS: Partial<Record<OrderRecordTrait, Reshape>> = {
  'no-shipping-orders': noShippingOrders,
  'shipping-orders-absent': shippingOrdersAbsent,
  'no-line-items': noLineItems,
  'no-external-id': noExternalId,
  'interface-parts': interfaceParts,
};

/** What each trait does to the records of the orders list only. */
const LIST_TRAITS: Partial<Record<OrderRecordTrait, Reshape>> = { 'slim-list': slimList };

/** The keys whose integer values `--ids-as-strings` answers as numeric strings. */
const ID_KEYS = ['id', 'order', 'product', 'product_id', 'order_id'];

/** `--ids-as-strings`: every integer id, and every reference to an order or a product, a numeric string. */
const idsAsStrings: Reshape = (object) => {
  for (const key of ID_KEYS) if (Number.isInteger(object[key])) object[key] = String(object[key]);
};

const isMoney = (object: JsonObject): boolean => typeof object.amount === 'number' && typeof object.display === 'string';

/** `--money`: money objects (`{currency, amount, display}`, and a custom product's `price` without its currency) reshaped. */
const MONEY: Record<Exclude<MoneyForm, 'whole'>, Reshape> = {
  'no-display': (object) => {
    if (isMoney(object)) delete object.display;
  },
  'decimal-amount': (object) => {
    if (!isMoney(object)) return;
    // `display` is the amount in major units with the currency's decimals (`"17.50"`).
    object.amount = object.display;
    delete object.display;
  },
};

/** `--attribute-extras`: a custom product's `available_attributes` also carry members that are not lists. */
const attributeExtras: Reshape = (object) => {
  const attributes = object.available_attributes;
  if (!isRecord(attributes)) return;
  attributes.has_sizes = Array.isArray(attributes.sizes) && attributes.sizes.length > 0;
  attributes.notes = 'Colors and sizes as the supplier offers them.';
};

/** The reshaping of answers the variants ask for (in place, on a parsed copy); undefined when they ask for none. */
export function answerReshaper(variants: ServiceVariants): ((kind: AnswerKind, body: unknown) => void) | undefined {
  const traits = [...variants.orderRecords];
  const onRecords = traits.flatMap((trait) => RECORD_TRAITS[trait] ?? []);
  const onListed = [...onRecords, ...traits.flatMap((trait) => LIST_TRAITS[trait] ?? [])];
  const everywhere = [
    ...(variants.idsAsStrings ? [idsAsStrings] : []),
    ...(variants.money === 'whole' ? [] : [MONEY[variants.money]]),
    ...(variants.attributeExtras ? [attributeExtras] : []),
  ];
  if (onListed.length === 0 && everywhere.length === 0) return undefined;
  return (kind, body) => {
    if (kind === 'order' && isRecord(body)) for (const reshape of onRecords) reshape(body);
    if (kind === 'order-list' && isRecord(body)) {
      for (const order of objects(body.results)) for (const reshape of onListed) reshape(order);
    }
    for (const reshape of everywhere) eachObject(body, reshape);
  };
}

const ORDERS_LIST = /^\/v1\/orders\/?$/;
const ONE_ORDER = /^\/v1\/orders\/\d+\/?$/;

function answerKind(method: string, path: string, status: number, variants: ServiceVariants): AnswerKind {
  if (method === 'GET' && status === 200 && ORDERS_LIST.test(path)) return 'order-list';
  if (method === 'GET' && status === 200 && ONE_ORDER.test(path)) return 'order';
  if (method === 'POST' && status === 201 && ORDERS_LIST.test(path) && variants.createAnswer === 'record') return 'order';
  // A repeat answered with the earlier order (`--duplicate-order existing`).
  if (method === 'POST' && status === 200 && ORDERS_LIST.test(path)) return 'order';
  return 'other';
}

/**
 * The middleware that reshapes the service's JSON answers (`/v1`), when the variants ask for
 * any reshaping: none otherwise, so the default sandbox pays nothing. A body that does not
 * parse (`--create-answer truncated`) goes out as it is.
 */
export function answerVariants(variants: ServiceVariants): MiddlewareHandler<Env>[] {
  const reshape = answerReshaper(variants);
  if (reshape === undefined) return [];
  return [
    async (c, next) => {
      await next();
      if (!c.res.headers.get('content-type')?.includes('application/json')) return;
      const kind = answerKind(c.req.method, c.req.path, c.res.status, variants);
      c.res = await rewriteJson(c.res, (body) => {
        reshape(kind, body);
        return JSON.stringify(body);
      });
    },
  ];
}
