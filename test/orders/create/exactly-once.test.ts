import { beforeAll, describe, expect, it } from 'vitest';
import { CreatedOrderMissing, ExternalIdTaken, OutcomeUnknown, RecordIncomparable } from '../../../src/orders/create/errors.js';
import { useMemoryService, type MemoryService } from '../../support/memory-service.js';
import { journalStates, machine, oneOrder, placeOne, shirtOf, type Shirt } from '../../support/memory-orders.js';
import { plan as planSend } from '../../../src/orders/create/exactly-once.js';
import { bodyHashOf, legacyKey, withoutExternalId } from '../../../src/orders/create/order-journal.js';
import { identityOfBody, identityScope, uuidOfHash } from '../../../src/orders/create/order-identity.js';
import { offeringsOf, placeOrder } from '../../../src/orders/create/place-order.js';
import { prepareOrder } from '../../../src/orders/create/prepare.js';

// Exactly once whatever form the service's duplicate answer takes (issue 11), placeOrder over
// the in-memory service (test/support/memory-service.ts): the first create is stored and its
// answer lost, so the use case looks the external id up and meets the service's answer to a
// repeat: Django REST Framework's `400 {"non_field_errors": [...unique set]}` (the sandbox's
// default) or a 409 naming the order. What only the CLI shows (the lines, exit codes) is
// test/commands/orders/create/exactly-once.test.ts's.

const drf = useMemoryService();
const conflict409 = useMemoryService({ duplicateOrder: '409' });
const ignoresFilter = useMemoryService({ orderFilters: 'ignored' });
const FORMS = [
  ['DRF 400 non_field_errors', drf],
  ['409 naming the order', conflict409],
] as const;

let shirt: Shirt;
beforeAll(async () => {
  shirt = await shirtOf(drf());
});

/** The order creates the service answered, by status. */
const creates = (service: MemoryService, from = 0) => service.requests.slice(from).filter((r) => r.method === 'POST' && /^\/v1\/orders\/?$/.test(r.path)).map((r) => r.status);

async function withExternalId(service: MemoryService, externalId: string): Promise<any[]> {
  return (await service.stored()).filter((o) => o.external_id === externalId);
}

/** The recipient of issue 18's example: `first_name=NAME,last_name=Lee,line_1=1 Main St,city=Austin,...`. */
const shortStreet = { street: { line_1: '1 Main St' } };

describe('placeOrder after a lost answer: a look-up finds the order before any resend', () => {
  for (const [form, service] of FORMS) {
    for (const lost of ['dropped', 504] as const) {
      it(`${form}, answer ${lost === 'dropped' ? 'lost with the connection' : 'a 504 page'}: the order the first attempt created, created, sent once; a rerun sends nothing`, async () => {
        const here = await machine();
        const before = service().requests.length;
        service().loseCreateAnswers(1, lost);
        const first = await placeOne(service(), here, oneOrder(shirt, `Lost${form.slice(0, 3)}${lost}`));
        expect(first.error).toBeUndefined();
        expect(creates(service(), before)).toEqual([201]);
        const made = await withExternalId(service(), first.externalId);
        expect(made).toHaveLength(1);
        // this run's own attempt made it: created, not existing
        expect(first.events.at(-1)).toEqual({ kind: 'found', externalId: first.externalId, orderId: made[0].id, via: 'lost answer' });
        expect(first.placed).toMatchObject({ status: 'created', orderId: made[0].id, externalId: first.externalId });
        expect(journalStates(here)).toEqual(['pending', 'created']);

        const again = await placeOne(service(), here, oneOrder(shirt, `Lost${form.slice(0, 3)}${lost}`));
        expect(again.placed).toMatchObject({ status: 'existing', orderId: made[0].id });
        expect(creates(service(), before)).toEqual([201]);
        expect(await withExternalId(service(), first.externalId)).toHaveLength(1);
      });
    }
  }

  it('a service that ignores ?external_id= is read newest first for the order', async () => {
    const service = ignoresFilter();
    service.loseCreateAnswers(1, 504);
    const first = await placeOne(service, await machine(), oneOrder(shirt, 'Unfiltered'));
    expect(first.error).toBeUndefined();
    const made = await withExternalId(service, first.externalId);
    expect(made).toHaveLength(1);
    expect(first.placed).toMatchObject({ status: 'created', orderId: made[0].id });
  });

  it('an order that cannot be found: the outcome unknown, nothing resent after the look-up, and the rerun uses the same external id', async () => {
    const service = drf();
    // A gateway whose orders list is always empty.
    service.gateway = { answer: (method, url) => (method === 'GET' && /^\/v1\/orders\/?$/.test(url.pathname) ? { status: 200, body: { count: 0, next: null, previous: null, results: [] } } : undefined) };
    try {
      const here = await machine();
      const before = service.requests.length;
      service.loseCreateAnswers(1, 504);
      const first = await placeOne(service, here, oneOrder(shirt, 'Hidden'));
      expect(first.error).toBeInstanceOf(OutcomeUnknown);
      expect((first.error as Error).message).toContain('the order may have been created; not resent');
      expect((first.error as Error).message).not.toContain('[object Object]');
      expect(journalStates(here)).toEqual(['pending']);

      const rerun = await placeOne(service, here, oneOrder(shirt, 'Hidden'));
      expect(rerun.error).toBeInstanceOf(OutcomeUnknown);
      expect(rerun.events[0]).toEqual({ kind: 'sending', externalId: first.externalId, origin: 'journal', resumed: true });
      // The first attempt stored it; the resend after the (conclusive, empty) look-up and the rerun's are refused as repeats.
      expect(creates(service, before)).toEqual([201, 400, 400]);
      expect(await withExternalId(service, first.externalId)).toHaveLength(1);
    } finally {
      service.gateway = undefined;
    }
  });
});

describe('placeOrder with an --external-id reused where no journal knows it', () => {
  for (const [form, service] of FORMS) {
    it(`${form}: the existing order, found by the service, no second order`, async () => {
      const externalId = `reused-${form.replace(/\W/g, '')}`;
      const first = await placeOne(service(), await machine(), oneOrder(shirt, 'Reused', { externalId }));
      expect(first.placed?.status).toBe('created');
      // another machine: a fresh journal
      const second = await placeOne(service(), await machine(), oneOrder(shirt, 'Reused', { externalId }));
      expect(second.placed).toMatchObject({ status: 'existing', orderId: first.placed!.orderId });
      expect(second.events).toEqual([{ kind: 'found', externalId, orderId: first.placed!.orderId, via: 'service' }]);
      expect(await withExternalId(service(), externalId)).toHaveLength(1);
    });
  }
});

describe('a proxy that sends the POST twice on its own (adversarial pass F4)', () => {
  it('the duplicate answer it passes back is to the order of this very run: created, not existing; one order', async () => {
    const service = drf();
    const twice: MemoryService = Object.create(service);
    Object.defineProperty(twice, 'orders', { value: { ...service.orders, create: async (body: Parameters<typeof service.orders.create>[0]) => (await service.orders.create(body), service.orders.create(body)) } });
    const placed = await placeOne(twice, await machine(), oneOrder(shirt, 'Twiceposted'));
    expect(placed.placed?.status, String(placed.error)).toBe('created');
    expect(placed.events).toContainEqual(expect.objectContaining({ kind: 'found', via: 'lost answer' }));
    expect(await withExternalId(service, placed.externalId)).toHaveLength(1);
  });
});

describe('placeOrder after the service lost the order the journal says it made', () => {
  const forgetful = useMemoryService();

  it('doubt: a 404 for the order the journal says it made stops the run, and nothing is placed again on that ground alone', async () => {
    const here = await machine();
    const first = await placeOne(forgetful(), here, oneOrder(shirt, 'Lost'));
    expect(first.placed?.status).toBe('created');
    expect((await forgetful().call('/_sandbox/reset', { method: 'POST' })).status).toBeLessThan(300);
    const rerun = await placeOne(forgetful(), here, oneOrder(shirt, 'Lost'));
    expect(rerun.error).toBeInstanceOf(CreatedOrderMissing);
    expect((rerun.error as CreatedOrderMissing).orderId).toBe(first.placed!.orderId);
    expect(rerun.events).toEqual([]);
    expect(await withExternalId(forgetful(), first.externalId)).toHaveLength(0);
    // A person who has checked asks for it by name: a new external id places it.
    const named = await placeOne(forgetful(), here, oneOrder(shirt, 'Lost', { externalId: 'lost-again' }));
    expect(named.placed?.status).toBe('created');
  });
});

describe('issue 18 example 1: an --external-id reused for a different order, on a machine without the journal', () => {
  for (const [form, service] of FORMS) {
    it(`${form}: refused, naming the order and the first difference; nothing is placed`, async () => {
      const externalId = `example1-${form.replace(/\W/g, '')}`;
      const first = await placeOne(service(), await machine(), oneOrder(shirt, 'Same', { externalId, quantity: 1, ...shortStreet }));
      const id = first.placed!.orderId;
      const before = (await service().stored()).length;
      const second = await placeOne(service(), await machine(), oneOrder(shirt, 'Same', { externalId, quantity: 2, ...shortStreet }));
      expect(second.error).toBeInstanceOf(ExternalIdTaken);
      expect((second.error as Error).message).toBe(`external id ${externalId} is already order ${id}, which differs from this order (product 100003 (color Black, size 2 in): quantity 2 here, 1 in that order)`);
      expect(second.placed).toBeUndefined();
      expect((await service().stored()).length).toBe(before);
      // a different recipient is a difference too
      const elsewhere = await placeOne(service(), await machine(), oneOrder(shirt, 'Other', { externalId, quantity: 1, ...shortStreet }));
      expect(elsewhere.error).toBeInstanceOf(ExternalIdTaken);
      expect((elsewhere.error as Error).message).toContain('shipping order 1: recipient "Other Lee, 1 Main St, 78701, US" here, "Same Lee, 1 Main St, 78701, US" in that order');
      expect((await service().stored()).length).toBe(before);
    });
  }

  it('a service record without what the comparison needs: said, nothing placed', async () => {
    const service = drf();
    const externalId = 'example1-partial';
    const first = await placeOne(service, await machine(), oneOrder(shirt, 'Part', { externalId, quantity: 1, ...shortStreet }));
    const before = (await service.stored()).length;
    // a gateway whose order records carry no parts (a service that lists less than the sandbox)
    const strip = (order: any) => {
      for (const li of order?.line_items ?? []) delete li.part;
      for (const so of order?.shipping_orders ?? []) for (const li of so.line_items ?? []) delete li.part;
    };
    service.gateway = { reshape: (_method, url, body) => /^\/v1\/orders/.test(url.pathname) && (Array.isArray(body.results) ? body.results.forEach(strip) : strip(body)) };
    try {
      const again = await placeOne(service, await machine(), oneOrder(shirt, 'Part', { externalId, quantity: 1, ...shortStreet }));
      expect(again.error).toBeInstanceOf(RecordIncomparable);
      expect((again.error as Error).message).toBe(`external id ${externalId} is already order ${first.placed!.orderId}, and the service's record of it has no line_items[0].part, so it cannot be compared with this order`);
      expect((await service.stored()).length).toBe(before);
    } finally {
      service.gateway = undefined;
    }
  });
});

describe('an order merch 0.1 placed from this machine (its journal keyed by the body with its payment method, scoped by a hash of the token)', () => {
  it('is found by this version through the journal: existing, nothing sent', async () => {
    const service = drf();
    const home = await machine();
    const prepared = await prepareOrder(oneOrder(shirt, 'Oldversion'), service.lookups());
    if (!prepared.complete) throw new Error('incomplete');
    const body = withoutExternalId(prepared.order.body);
    const target = { baseUrl: 'http://127.0.0.1:4010', token: 'sandbox-token' };
    const oldKey = legacyKey(body, target);
    const oldId = uuidOfHash(oldKey);
    // What 0.1 did: journalled the attempt under its key, sent it, journalled the order made.
    await home.journal.recordAttempt({ key: oldKey, external_id: oldId, body_hash: bodyHashOf(body)(oldId) });
    const made = await service.orders.create({ ...body, external_id: oldId });
    await home.journal.recordCreated(oldId, (made.body as { id: number }).id);
    const identity = identityOfBody(identityScope('http://127.0.0.1:4010', 'acme'), body, offeringsOf(prepared.order.products));
    expect(identity.externalId).not.toBe(oldId);
    const p = planSend(home.journal, body, { ...identity, legacyKey: oldKey });
    expect(p).toMatchObject({ externalId: oldId, origin: 'journal' });
    const placed = await placeOrder({ body, products: prepared.order.products }, p, { api: service.orders, journal: home.journal });
    expect(placed).toMatchObject({ status: 'existing', externalId: oldId });
    expect(await withExternalId(service, oldId)).toHaveLength(1);
    expect(await withExternalId(service, identity.externalId)).toHaveLength(0);
  });
});
