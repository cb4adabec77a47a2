import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { getCustomProduct } from '../api/resources/custom-products.js';
import { listPaymentMethods } from '../api/resources/payment-methods.js';
import type { CustomProduct, PaymentMethod } from '../api/schemas.js';
import type { OrderRequest } from '../contract/order-request.js';
import { UsageError } from '../errors.js';
import { BuildError, buildOrder, type OrderPieces } from './builder.js';
import { defaultPaymentMethod } from './payment-method.js';
import { summariseIssues, validateOrder, type ValidationIssue } from './validate.js';

/**
 * From builder pieces to an order ready to send, once: the payment method resolved (the
 * account's default when none is given), the order built, the account's products and
 * payment methods fetched once, and the order validated by the contract's rules. Nothing
 * that changes anything is sent.
 */

export interface PreparedOrder {
  body: OrderRequest;
  /** What the service will probably refuse or ignore; the order is sent all the same. */
  warnings: ValidationIssue[];
  products: ReadonlyMap<number, CustomProduct | null>;
  paymentMethod?: PaymentMethod;
  /** The payment method was not given: it is the account's default. */
  paymentIsDefault: boolean;
}

export type Preparation = { complete: true; order: PreparedOrder } | { complete: false; missing: string[] };

export async function prepareOrder(client: ApiClient, given: OrderPieces): Promise<Preparation> {
  // What the order lacks is known before anything is asked of the service.
  const assembled = build(given);
  if (assembled.missing.length > 0) return { complete: false, missing: assembled.missing };
  const methods = await listPaymentMethods(client);
  const named = given.paymentMethodId ?? paymentMethodOfFile(given.file);
  // The account's default is a piece like any other: the builder alone assembles the body.
  const built = named === undefined ? build({ ...given, paymentMethodId: defaultPaymentMethod(methods).id }) : assembled;

  const products = await fetchProducts(client, built.body);
  const result = validateOrder(built.body, {
    products: new Map([...products].map(([id, p]) => [id, p ? ((p.available_attributes ?? {}) as Record<string, unknown>) : null])),
    paymentMethodIds: new Set(methods.map((m) => m.id)),
    sources: built.sources,
  });
  if (!result.ok) throw new UsageError(summariseIssues(result.issues), 'nothing was sent; fix the order and run again');
  return {
    complete: true,
    order: {
      body: result.body,
      warnings: result.warnings,
      products,
      paymentMethod: methods.find((m) => m.id === result.body.payment_method_id),
      paymentIsDefault: named === undefined,
    },
  };
}

function build(pieces: OrderPieces) {
  try {
    return buildOrder(pieces);
  } catch (err) {
    if (err instanceof BuildError) throw new UsageError(err.message);
    throw err;
  }
}

function paymentMethodOfFile(file: unknown): string | undefined {
  const value = typeof file === 'object' && file !== null ? (file as { payment_method_id?: unknown }).payment_method_id : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Each distinct custom product once, a few at a time; a 404 is `null` (validation names it). */
async function fetchProducts(client: ApiClient, body: Record<string, unknown>): Promise<Map<number, CustomProduct | null>> {
  const ids = new Set<number>();
  if (Array.isArray(body.line_items)) {
    for (const li of body.line_items as { product?: unknown }[]) {
      if (typeof li?.product === 'number' && Number.isInteger(li.product) && li.product > 0) ids.add(li.product);
    }
  }
  const out = new Map<number, CustomProduct | null>();
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        out.set(id, await getCustomProduct(client, String(id)));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) out.set(id, null);
        else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, queue.length) }, worker));
  return out;
}
