import type { CustomProduct, PaymentMethod } from '../../api/schemas.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { buildOrder, withPaymentMethod, type MissingPiece, type OrderPieces } from './builder.js';
import { OrderInvalid } from './errors.js';
import { defaultPaymentMethod } from '../payment-method.js';
import type { AccountApi, RunAccount } from './ports.js';
import { validateOrder, type ValidationIssue } from './validate.js';
import { exactIntegerOf } from '../../lib/exact-json.js';

/**
 * From builder pieces to an order ready to send, once: the payment method resolved (the
 * account's default when none is given: not by flags, nor by a `payment_method_id` key of
 * the file, whatever its value), the order built, the account's products and payment
 * methods fetched once, and the order validated by the contract's rules. Nothing that
 * changes anything is sent. A rule broken is an OrderInvalid; pieces that make no order, a
 * BuildError.
 */

export interface PreparedOrder {
  body: OrderRequest;
  /** What the service will probably refuse or ignore; the order is sent all the same. */
  warnings: ValidationIssue[];
  products: ReadonlyMap<number | bigint, CustomProduct | null>;
  paymentMethod?: PaymentMethod;
  /** The payment method was not given: it is the account's default. */
  paymentIsDefault: boolean;
}

export type Preparation = { complete: true; order: PreparedOrder } | { complete: false; missing: MissingPiece[] };

export async function prepareOrder(given: OrderPieces, lookups: AccountLookups): Promise<Preparation> {
  // What the order lacks is known before anything is asked of the service.
  const assembled = buildOrder(given);
  // A file is the whole body: what it lacks, the rules name by its field (`line_items: is required`).
  if (assembled.missing.length > 0 && given.file === undefined) return { complete: false, missing: assembled.missing };
  const methods = await lookups.paymentMethods();
  const named = given.paymentMethodId ?? paymentMethodOfFile(given.file);
  // The account's default is a piece like any other: the builder alone assembles the body.
  const built = named === undefined ? withPaymentMethod(assembled, defaultPaymentMethod(methods).id) : assembled;

  const products = await lookups.products(productIdsOf(built.body));
  const result = validateOrder(built.body, {
    products: new Map([...products].map(([id, p]) => [id, p ? ((p.available_attributes ?? {}) as Record<string, unknown>) : null])),
    paymentMethodIds: new Set(methods.map((m) => m.id)),
    sources: built.sources,
  });
  if (!result.ok) throw new OrderInvalid(result.issues, given.recipients?.attributeColumns);
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

/**
 * The account's data an order is checked against, each fetched once however many orders
 * are prepared (the batches of one CSV, or the wizard's answers and then the order they make):
 * its payment methods and its custom products. A fetch that failed is forgotten, so that
 * asking again (the wizard's "Try again") asks the service again.
 */
export class AccountLookups implements RunAccount {
  private methods: Promise<PaymentMethod[]> | undefined;
  private readonly known = new Map<number | bigint, Promise<CustomProduct | null>>();

  constructor(private readonly account: AccountApi) {}

  paymentMethods(): Promise<PaymentMethod[]> {
    this.methods ??= this.account.paymentMethods().catch((err: unknown) => {
      this.methods = undefined;
      throw err;
    });
    return this.methods;
  }

  /** Each product once; one the account does not have (404) is null, for validation to name. */
  async products(ids: readonly (number | bigint)[]): Promise<Map<number | bigint, CustomProduct | null>> {
    for (const id of ids) {
      if (this.known.has(id)) continue;
      this.known.set(id, this.account.product(id).catch((err: unknown) => {
        this.known.delete(id);
        throw err;
      }));
    }
    return new Map(await Promise.all(ids.map(async (id) => [id, await this.known.get(id)!] as const)));
  }

  /** A product read by other means (the wizard's search): not fetched again. */
  remember(product: CustomProduct): void {
    // Exactly as the line items name it: a number, or a BigInt beyond 2^53 (lib/exact-json.ts).
    const id = typeof product.id === 'bigint' ? product.id : exactIntegerOf(String(product.id));
    if (id !== undefined) this.known.set(id, Promise.resolve(product));
  }
}

/** The file's payment method, whatever its type: a value that is not a method id is the rules' to refuse, not the default's to replace. */
function paymentMethodOfFile(file: unknown): unknown {
  return typeof file === 'object' && file !== null ? (file as { payment_method_id?: unknown }).payment_method_id : undefined;
}

function productIdsOf(body: Record<string, unknown>): (number | bigint)[] {
  const ids = new Set<number | bigint>();
  for (const li of Array.isArray(body.line_items) ? (body.line_items as { product?: unknown }[]) : []) {
    if (typeof li?.product === 'number' && Number.isInteger(li.product) && li.product > 0) ids.add(li.product);
    else if (typeof li?.product === 'bigint' && li.product > 0n) ids.add(li.product);
  }
  return [...ids];
}
