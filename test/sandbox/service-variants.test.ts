import { describe, expect, it } from 'vitest';
import {
  CREATE_ANSWERS,
  DUPLICATE_ORDER_FORMS,
  MONEY_FORMS,
  ORDER_RECORD_TRAITS,
  SandboxOptionError,
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../../src/sandbox/index.js';
import { DJANGO_SERVER_ERROR_PAGE } from '../../src/sandbox/errors.js';
import { waitFor } from '../support/wait-for.js';
import { call } from './helpers.js';
import { startListener } from './listener.js';
import { validOrder } from './order-fixtures.js';

// The interface's open choices (issue 28.7): each switch over real HTTP, and the default
// (today's answers) beside it.

/** A sandbox with these variants for the length of `use` (orders holding still unless told). */
async function withSandbox<T>(options: SandboxOptions, use: (sandbox: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ port: 0, catalog: 20, quiet: true, eventDelayMs: 3_600_000, ...options });
  try {
    return await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

/** Creates a valid order (two shipping orders) and returns the answer. */
async function createOrder(sandbox: Sandbox, externalId: string, change: (request: any) => void = () => {}) {
  const request = { ...(await validOrder(sandbox)), external_id: externalId };
  change(request);
  return call(sandbox, '/v1/orders/', { body: request });
}

/** The order as listed, found by id (the list is unfiltered: `--order-filters` may ignore filters). */
async function listed(sandbox: Sandbox, id: number | string): Promise<any> {
  const orders = (await call(sandbox, '/v1/orders?limit=100')).body.results;
  return orders.find((order: any) => String(order.id) === String(id));
}

const PART_FIELDS_OF_ORDER_EVENTS = ['product_id', 'product_weight', 'product_weight_unit', 'storage_category', 'product_production_time'];

describe('the defaults: today\'s answers', () => {
  it('a whole order record with integer ids and whole money, in the list, on its own and as the create answer', async () => {
    await withSandbox({}, async (sandbox) => {
      const created = await createOrder(sandbox, 'default-1');
      expect(created.status).toBe(201);
      for (const record of [created.body, (await call(sandbox, `/v1/orders/${created.body.id}`)).body, await listed(sandbox, created.body.id)]) {
        expect(record).toMatchObject({ id: expect.any(Number), external_id: 'default-1' });
        expect(record.total).toEqual({ currency: 'USD', amount: expect.any(Number), display: expect.stringMatching(/^\d+\.\d\d$/) });
        expect(record.line_items).toHaveLength(2);
        expect(record.shipping_orders).toHaveLength(2);
        expect(record.shipping_orders[0].order).toBe(record.id);
        expect(Object.keys(record.shipping_orders[0].line_items[0].part)).toEqual(expect.arrayContaining(PART_FIELDS_OF_ORDER_EVENTS));
        expect(record.shipping_orders[0].address.line_1).toBe('5 Elm Street');
      }
      const again = await createOrder(sandbox, 'default-1');
      expect([again.status, again.body]).toEqual([400, { non_field_errors: ['The fields account, external_id must make a unique set.'] }]);
      const products = (await call(sandbox, '/v1/custom-products')).body.results;
      expect(Object.keys(products[0].available_attributes)).toEqual(['colors', 'sizes']);
      expect(products[0].prices.price).toEqual({ amount: expect.any(Number), display: expect.any(String) });
    });
  });

  it('pages of at most 100, count of the whole result, filters of the orders list applied', async () => {
    await withSandbox({ catalog: 150 }, async (sandbox) => {
      const page = (await call(sandbox, '/v1/supplier-products?limit=120')).body;
      expect([page.count, page.results.length, new URL(page.next).searchParams.get('limit')]).toEqual([150, 100, '100']);
      expect((await call(sandbox, '/v1/supplier-products?limit=10000')).status).toBe(200);
      await createOrder(sandbox, 'filtered-a');
      await createOrder(sandbox, 'filtered-b');
      expect((await call(sandbox, '/v1/orders?external_id=filtered-a')).body.count).toBe(1);
      expect((await call(sandbox, '/v1/orders?created_at__gte=bogus')).status).toBe(400);
    });
  });
});

describe('orderRecords (--order-records)', () => {
  it('slim-list: the list leaves out line items and shipping orders; one order stays whole', async () => {
    await withSandbox({ orderRecords: ['slim-list'] }, async (sandbox) => {
      const created = await createOrder(sandbox, 'slim');
      expect(created.body.shipping_orders).toHaveLength(2);
      const record = await listed(sandbox, created.body.id);
      expect(record).not.toHaveProperty('line_items');
      expect(record).not.toHaveProperty('shipping_orders');
      expect(record.external_id).toBe('slim');
      const one = (await call(sandbox, `/v1/orders/${created.body.id}`)).body;
      expect([one.line_items.length, one.shipping_orders.length]).toEqual([2, 2]);
    });
  });

  it('no-shipping-orders and shipping-orders-absent: [] or no key, in the list, on its own and as the create answer', async () => {
    for (const [trait, check] of [
      ['no-shipping-orders', (record: any) => expect(record.shipping_orders).toEqual([])],
      ['shipping-orders-absent', (record: any) => expect(record).not.toHaveProperty('shipping_orders')],
    ] as const) {
      await withSandbox({ orderRecords: [trait] }, async (sandbox) => {
        const created = await createOrder(sandbox, trait);
        expect(created.status).toBe(201);
        for (const record of [created.body, (await call(sandbox, `/v1/orders/${created.body.id}`)).body, await listed(sandbox, created.body.id)]) {
          check(record);
          expect(record.line_items, trait).toHaveLength(2);
        }
      });
    }
  });

  it('no-external-id: records leave it out, yet the service keeps it: a second create is a duplicate, the filter finds it', async () => {
    await withSandbox({ orderRecords: ['no-external-id'] }, async (sandbox) => {
      const created = await createOrder(sandbox, 'kept');
      expect(created.status).toBe(201);
      for (const record of [created.body, (await call(sandbox, `/v1/orders/${created.body.id}`)).body, await listed(sandbox, created.body.id)]) {
        expect(record).not.toHaveProperty('external_id');
      }
      const again = await createOrder(sandbox, 'kept');
      expect([again.status, again.body]).toEqual([400, { non_field_errors: ['The fields account, external_id must make a unique set.'] }]);
      const found = (await call(sandbox, '/v1/orders?external_id=kept')).body;
      expect(found.results.map((order: any) => order.id)).toEqual([created.body.id]);
    });
  });

  it('standardised-addresses: recipients stored as USPS writes them; the billing address as given', async () => {
    await withSandbox({ orderRecords: ['standardised-addresses'] }, async (sandbox) => {
      const created = await createOrder(sandbox, 'usps', (request) => {
        request.shipping_orders[0].recipient = {
          first_name: 'Ada  Mary',
          last_name: "O'Neil, Jr.",
          email: 'Ada@Example.com',
          line_1: '1 Main Street, Apt 2',
          line_2: 'Suite 300',
          city: 'Austin',
          state: 'Tx',
          postal_code: '78701',
          country: 'United States',
        };
        request.shipping_orders[1].recipient = { ...request.shipping_orders[1].recipient, line_1: '10 North Lake Boulevard', postal_code: 'm5v 2t6', country: 'Canada' };
        request.billing_address = { line_1: '9 Oak Road', city: 'Austin', postal_code: '78701', country: 'United States' };
      });
      expect(created.status).toBe(201);
      const order = (await call(sandbox, `/v1/orders/${created.body.id}`)).body;
      const [first, second] = order.shipping_orders;
      for (const address of [first.address, first.recipient.shipping_address]) {
        expect(address).toMatchObject({ line_1: '1 MAIN ST APT 2', line_2: 'STE 300', city: 'AUSTIN', state: 'TX', postal_code: '78701-0001', country: 'US' });
      }
      expect([first.first_name, first.last_name, first.recipient.first_name, first.email]).toEqual(['ADA MARY', "O'NEIL JR", 'ADA MARY', 'Ada@Example.com']);
      expect(second.address).toMatchObject({ line_1: '10 N LAKE BLVD', postal_code: 'M5V 2T6', country: 'CA' });
      expect(order.billing_address).toMatchObject({ line_1: '9 Oak Road', postal_code: '78701', country: 'United States' });
    });
  });

  it("interface-parts: a shipping order's parts have the interface's 2.3 shape; the order's line items keep theirs", async () => {
    await withSandbox({ orderRecords: ['interface-parts'] }, async (sandbox) => {
      const created = await createOrder(sandbox, 'parts');
      for (const record of [created.body, (await call(sandbox, `/v1/orders/${created.body.id}`)).body, await listed(sandbox, created.body.id)]) {
        const orderLineIds = record.line_items.map((item: any) => item.id);
        for (const shipping of record.shipping_orders) {
          for (const item of shipping.line_items) {
            for (const field of PART_FIELDS_OF_ORDER_EVENTS) expect(item.part).not.toHaveProperty(field);
            expect(item.part).toMatchObject({ id: expect.any(Number), product_name: expect.any(String), code: expect.any(String) });
            expect(orderLineIds).toContain(item.id);
          }
        }
        for (const item of record.line_items) expect(Object.keys(item.part)).toEqual(expect.arrayContaining(PART_FIELDS_OF_ORDER_EVENTS));
      }
    });
  });

  it('combines traits, and refuses an unknown one or both shipping-order traits, naming the flag and the traits', async () => {
    await withSandbox({ orderRecords: [...ORDER_RECORD_TRAITS.filter((trait) => trait !== 'shipping-orders-absent')] }, async (sandbox) => {
      const created = await createOrder(sandbox, 'all-traits');
      expect(created.body).not.toHaveProperty('external_id');
      expect(created.body.shipping_orders).toEqual([]);
      expect(await listed(sandbox, created.body.id)).not.toHaveProperty('line_items');
    });
    for (const traits of [['bogus'], ['no-shipping-orders', 'shipping-orders-absent']]) {
      const error = await startSandbox({ port: 0, orderRecords: traits }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SandboxOptionError);
      expect((error as SandboxOptionError).flag).toBe('--order-records');
    }
    const unknown = await startSandbox({ port: 0, orderRecords: ['bogus'] }).catch((caught: Error) => caught.message);
    expect(unknown).toBe(`--order-records must list some of: ${ORDER_RECORD_TRAITS.join(', ')} (got "bogus").`);
  });
});

describe('createAnswer (--create-answer)', () => {
  it('answers each form, and the order is created in every case', async () => {
    for (const form of CREATE_ANSWERS) {
      await withSandbox({ createAnswer: form }, async (sandbox) => {
        const request = { ...(await validOrder(sandbox)), external_id: `answer-${form}` };
        const response = await fetch(`${sandbox.url}/v1/orders/`, {
          method: 'POST',
          headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        const text = await response.text();
        const order = (await call(sandbox, `/v1/orders?external_id=answer-${form}`)).body.results[0];
        expect(order, form).toBeDefined();
        const whole = JSON.stringify((await call(sandbox, `/v1/orders/${order.id}`)).body);
        switch (form) {
          case 'record':
            expect([response.status, JSON.parse(text).id]).toEqual([201, order.id]);
            break;
          case 'id':
            expect([response.status, JSON.parse(text)]).toEqual([201, { id: order.id }]);
            break;
          case 'accepted-empty':
            expect([response.status, text]).toEqual([202, '']);
            break;
          case 'truncated':
            expect(response.status).toBe(201);
            expect(response.headers.get('content-type')).toContain('application/json');
            expect(() => JSON.parse(text)).toThrow();
            expect(text).toBe(whole.slice(0, Math.floor(whole.length / 2)));
            break;
        }
      });
    }
  });
});

describe('duplicateOrder (--duplicate-order)', () => {
  it('field: a 400 on external_id; 500: Django\'s 500 page; neither creates a second order', async () => {
    expect(DUPLICATE_ORDER_FORMS).toEqual(expect.arrayContaining(['drf', '409', 'field', '500', 'accepted']));
    await withSandbox({ duplicateOrder: 'field' }, async (sandbox) => {
      await createOrder(sandbox, 'twice');
      const again = await createOrder(sandbox, 'twice');
      expect([again.status, again.body]).toEqual([400, { external_id: ['order with this external id already exists.'] }]);
      expect((await call(sandbox, '/v1/orders')).body.count).toBe(1);
    });
    await withSandbox({ duplicateOrder: '500' }, async (sandbox) => {
      await createOrder(sandbox, 'twice');
      const again = await createOrder(sandbox, 'twice');
      expect([again.status, again.headers.get('content-type'), again.body]).toEqual([500, 'text/html', DJANGO_SERVER_ERROR_PAGE]);
      expect(again.body).toContain('<h1>Server Error (500)</h1>');
      expect((await call(sandbox, '/v1/orders')).body.count).toBe(1);
    });
  });

  it('accepted: no check, a second order with the same external id is created and answered like the first', async () => {
    await withSandbox({ duplicateOrder: 'accepted' }, async (sandbox) => {
      const first = await createOrder(sandbox, 'twice');
      const second = await createOrder(sandbox, 'twice');
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.id).not.toBe(first.body.id);
      const found = (await call(sandbox, '/v1/orders?external_id=twice')).body;
      expect(found.results.map((order: any) => order.id)).toEqual([second.body.id, first.body.id]);
    });
  });
});

describe('pages (--page-cap, --page-limit-max, --page-count)', () => {
  it('pageCap: a page holds at most N whatever limit asks, its links carry limit=N', async () => {
    await withSandbox({ pageCap: 7 }, async (sandbox) => {
      const page = (await call(sandbox, '/v1/supplier-products?limit=100')).body;
      expect([page.count, page.results.length]).toEqual([20, 7]);
      expect(new URL(page.next).searchParams.get('limit')).toBe('7');
      const second = (await call(sandbox, new URL(page.next).pathname + new URL(page.next).search)).body;
      expect(second.results[0].id).toBe(8);
      expect(new URL(second.previous).searchParams.get('limit')).toBe('7');
      expect((await call(sandbox, '/v1/custom-products')).body.results).toHaveLength(5);
      expect((await call(sandbox, '/v1/supplier-products')).body.results).toHaveLength(7);
    });
  });

  it('pageLimitMax: a limit above N is a 400 on limit, N itself is served', async () => {
    await withSandbox({ pageLimitMax: 10 }, async (sandbox) => {
      for (const path of ['/v1/supplier-products?limit=11', '/v1/orders?limit=50', '/v1/core/webhooks/?limit=11']) {
        const refused = await call(sandbox, path);
        expect([refused.status, refused.body], path).toEqual([400, { limit: ['Ensure this value is less than or equal to 10.'] }]);
      }
      const page = await call(sandbox, '/v1/supplier-products?limit=10');
      expect([page.status, page.body.results.length]).toEqual([200, 10]);
    });
  });

  it("pageCount page: count is the page's items; next still leads on", async () => {
    await withSandbox({ pageCount: 'page' }, async (sandbox) => {
      const page = (await call(sandbox, '/v1/supplier-products?limit=6&offset=15')).body;
      expect([page.count, page.results.length, page.next]).toEqual([5, 5, null]);
      const first = (await call(sandbox, '/v1/supplier-products?limit=6')).body;
      expect([first.count, new URL(first.next).searchParams.get('offset')]).toEqual([6, '6']);
    });
  });
});

describe('idsAsStrings (--ids-as-strings)', () => {
  it('answers every integer id and order or product reference as a numeric string; path ids work as before', async () => {
    await withSandbox({ idsAsStrings: true }, async (sandbox) => {
      const products = (await call(sandbox, '/v1/custom-products')).body.results;
      expect(products[0].id).toMatch(/^\d+$/);
      expect(products[0].category.id).toMatch(/^\d+$/);
      const request = { ...(await validOrder(sandbox)), external_id: 'strings' };
      // The request's ids must be integers: the service's own validation is unchanged.
      request.line_items = request.line_items.map((item: any) => ({ ...item, product: Number(item.product) }));
      const created = await call(sandbox, '/v1/orders/', { body: request });
      expect(created.status).toBe(201);
      const order = (await call(sandbox, `/v1/orders/${created.body.id}`)).body;
      expect(order.id).toBe(created.body.id);
      const shipping = order.shipping_orders[0];
      const strings = [order.id, order.status.id, order.line_items[0].id, order.line_items[0].part.id, order.line_items[0].part.product_id, shipping.id, shipping.order, shipping.recipient.id, shipping.line_items[0].id];
      for (const value of strings) expect(value).toMatch(/^\d+$/);
      expect(order.total.amount).toEqual(expect.any(Number));
      expect((await call(sandbox, '/v1/orders')).body.count).toEqual(1);
      const hook = await call(sandbox, '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/' } });
      expect(hook.body.id).toMatch(/^\d+$/);
    });
  });

  it('names the existing order as a string in the 409 form', async () => {
    await withSandbox({ idsAsStrings: true, duplicateOrder: '409' }, async (sandbox) => {
      const first = await createOrder(sandbox, 'again', (request) => {
        request.line_items = request.line_items.map((item: any) => ({ ...item, product: Number(item.product) }));
      });
      const again = await createOrder(sandbox, 'again', (request) => {
        request.line_items = request.line_items.map((item: any) => ({ ...item, product: Number(item.product) }));
      });
      expect([again.status, again.body.order_id]).toEqual([409, first.body.id]);
      expect(again.body.order_id).toMatch(/^\d+$/);
    });
  });
});

describe('money (--money)', () => {
  it('whole, without display, or a decimal string amount, in orders and in custom products\' prices', async () => {
    expect(MONEY_FORMS).toEqual(['whole', 'no-display', 'decimal-amount']);
    const answers: Record<string, { total: any; price: any }> = {};
    for (const form of MONEY_FORMS) {
      await withSandbox({ money: form }, async (sandbox) => {
        const created = await createOrder(sandbox, 'money');
        const order = (await call(sandbox, `/v1/orders/${created.body.id}`)).body;
        expect(created.body.total, form).toEqual(order.total);
        const product = (await call(sandbox, `/v1/custom-products/${(await call(sandbox, '/v1/custom-products')).body.results[0].id}`)).body;
        answers[form] = { total: order.total, price: product.prices.price };
        expect(order.line_items[0].subtotal, form).toEqual(
          form === 'whole' ? expect.objectContaining({ display: expect.any(String) }) : expect.not.objectContaining({ display: expect.anything() }),
        );
      });
    }
    const whole = answers.whole!;
    expect(answers['no-display']).toEqual({ total: { currency: 'USD', amount: whole.total.amount }, price: { amount: whole.price.amount } });
    expect(answers['decimal-amount']).toEqual({ total: { currency: 'USD', amount: whole.total.display }, price: { amount: whole.price.display } });
    expect(whole.total.display).toMatch(/^\d+\.\d\d$/);
  });
});

describe('orderFilters (--order-filters)', () => {
  it('ignored: the orders list ignores external_id, status and created_at__gte and returns every order', async () => {
    await withSandbox({ orderFilters: 'ignored' }, async (sandbox) => {
      await createOrder(sandbox, 'one');
      await createOrder(sandbox, 'two');
      for (const query of ['external_id=one', 'status=delivered', 'created_at__gte=2999-01-01', 'created_at__gte=bogus']) {
        const page = await call(sandbox, `/v1/orders?${query}`);
        expect([page.status, page.body.count], query).toEqual([200, 2]);
      }
      const ordered = (await call(sandbox, '/v1/orders?ordering=id')).body.results.map((order: any) => order.external_id);
      expect(ordered).toEqual(['one', 'two']);
    });
  });
});

describe('attributeExtras (--attribute-extras)', () => {
  it("custom products' available_attributes also carry members that are not lists", async () => {
    await withSandbox({ attributeExtras: true }, async (sandbox) => {
      const listedProduct = (await call(sandbox, '/v1/custom-products')).body.results[0];
      const product = (await call(sandbox, `/v1/custom-products/${listedProduct.id}`)).body;
      for (const attributes of [listedProduct.available_attributes, product.available_attributes]) {
        expect(attributes).toMatchObject({ colors: expect.any(Array), sizes: expect.any(Array), has_sizes: true, notes: expect.any(String) });
      }
      // Orders are still judged against the lists (an order made from them is accepted).
      expect((await createOrder(sandbox, 'extras')).status).toBe(201);
    });
  });
});

describe('the status_500_after fault (--fault-kinds status_500_after)', () => {
  it("commits a POST, then answers Django's 500 page; a GET is not faulted", async () => {
    await withSandbox({ faults: 1, faultKinds: ['status_500_after'] }, async (sandbox) => {
      const answer = await createOrder(sandbox, 'committed');
      expect([answer.status, answer.headers.get('content-type'), answer.body]).toEqual([500, 'text/html', DJANGO_SERVER_ERROR_PAGE]);
      const list = (await call(sandbox, '/v1/orders?external_id=committed')).body;
      expect(list.count).toBe(1);
      expect(sandbox.requests.filter((request) => request.status === 500).map((request) => request.method)).toEqual(['POST']);
    });
  });

  it('is not among the kinds --faults picks from unless named', async () => {
    await withSandbox({ faults: 1, seed: 7 }, async (sandbox) => {
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        const answer = await fetch(`${sandbox.url}/v1/core/webhooks/`, {
          method: 'POST',
          headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'order.changed', target: 'http://127.0.0.1:9/' }),
        }).then((response) => response.status, () => 0);
        statuses.push(answer);
      }
      expect(statuses.filter((status) => status === 500)).toEqual([]);
      expect(new Set(statuses).size).toBeGreaterThan(1);
    });
  });
});

describe('the sandbox\'s own behaviour under the switches', () => {
  it('moves orders on, delivers webhook payloads unchanged and answers the test controls', async () => {
    const listener = await startListener();
    try {
      await withSandbox(
        { orderRecords: ['no-external-id', 'interface-parts', 'slim-list'], idsAsStrings: true, money: 'decimal-amount', attributeExtras: true, eventDelayMs: 20 },
        async (sandbox) => {
          await call(sandbox, '/v1/core/webhooks/', { body: { event: 'order.changed', target: `${listener.url}/changed` } });
          const created = await createOrder(sandbox, 'lives', (request) => {
            request.line_items = request.line_items.map((item: any) => ({ ...item, product: Number(item.product) }));
          });
          expect(created.status).toBe(201);
          await waitFor(async () => (await call(sandbox, `/v1/orders/${created.body.id}`)).body.status.name === 'In Production', 'the order paid and in production');
          const advanced = await call(sandbox, `/_sandbox/orders/${created.body.id}/advance`, { method: 'POST' });
          expect(advanced.body.status.name).toBe('Shipped');
          await waitFor(() => listener.received.length >= 2, 'order.changed deliveries');
          const data = listener.received[0]!.body.data;
          expect(data).toMatchObject({ id: Number(created.body.id), external_id: 'lives', total: { display: expect.any(String) } });
          expect(data.shipping_orders[0].line_items[0].part.product_id).toEqual(expect.any(Number));
        },
      );
    } finally {
      await listener.close();
    }
  });
});
