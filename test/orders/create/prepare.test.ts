import { beforeAll, describe, expect, it } from 'vitest';
import { OrderInvalid } from '../../../src/orders/create/errors.js';
import { prepareOrder } from '../../../src/orders/create/prepare.js';
import { useMemoryService } from '../../support/memory-service.js';
import { oneOrder, shirtOf, type Shirt } from '../../support/memory-orders.js';

// prepareOrder over the in-memory service: the order checked against the account's data,
// read through the ports (src/orders/create/ports.ts) once however many orders are prepared.

const service = useMemoryService();
let shirt: Shirt;
beforeAll(async () => {
  shirt = await shirtOf(service());
});

/** The requests for the account's payment methods and products that `work` made. */
async function accountReads(work: () => Promise<unknown>): Promise<string[]> {
  const from = service().requests.length;
  await work();
  return service().requests.slice(from).map((r) => r.path).filter((path) => /^\/v1\/(payment-methods|custom-products)/.test(path));
}

describe('prepareOrder', () => {
  it("takes the account's default payment method when none is given, and says so", async () => {
    const methods = (await service().call('/v1/payment-methods/')).body.card as { id: string; is_default?: boolean }[];
    const prepared = await prepareOrder(oneOrder(shirt, 'Prep'), service().lookups());
    expect(prepared.complete).toBe(true);
    if (!prepared.complete) return;
    expect(prepared.order.paymentIsDefault).toBe(true);
    expect(prepared.order.body.payment_method_id).toBe(methods.find((m) => m.is_default)!.id);
  });

  it('a product the account does not have is the rules\' to name: OrderInvalid, nothing sent', async () => {
    const pieces = oneOrder(shirt, 'Prep');
    pieces.items![0]!.product = 999_999;
    const from = service().requests.length;
    const refused = await prepareOrder(pieces, service().lookups()).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(OrderInvalid);
    expect((refused as Error).message).toContain('custom product 999999 does not exist (or is not in this account)');
    expect(service().requests.slice(from).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it("one set of lookups reads the account's payment methods and each product once, however many orders it prepares", async () => {
    const lookups = service().lookups();
    const reads = await accountReads(async () => {
      for (const name of ['Once', 'Twice', 'Thrice']) expect((await prepareOrder(oneOrder(shirt, name), lookups)).complete).toBe(true);
    });
    expect(reads).toEqual(['/v1/payment-methods/', `/v1/custom-products/${shirt.id}`]);
  });
});
