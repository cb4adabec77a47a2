import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnsweredWithAnotherOrder, ExternalIdTaken, RecordIncomparable, RunInDoubt } from '../../../src/orders/create/errors.js';
import type { ListResult } from '../../../src/orders/create/plan-batches.js';
import { useMemoryService } from '../../support/memory-service.js';
import { journalStates, listRun, machine, oneOrder, placeList, placeOne, recipientsList, shirtOf, tally, truth, type Placing, type Shirt } from '../../support/memory-orders.js';

// Issue 28's examples, each against the sandbox variant that makes the service answer that
// way ("The service we cannot see"), as use cases over the in-memory service: nothing is
// ordered twice and nothing untrue reported, and where it cannot tell, the run stops and
// says what it could not tell. Each machine is a journal of its own; the truth is the
// sandbox's store, whatever its answers show. What only the CLI shows (the hint, exit codes,
// --all's paging, money) stays in test/commands/orders/create/service-variants.test.ts.

const services = {
  noShippingOrders: useMemoryService({ orderRecords: ['no-shipping-orders'] }),
  shippingOrdersAbsent: useMemoryService({ orderRecords: ['shipping-orders-absent'] }),
  standardised: useMemoryService({ orderRecords: ['standardised-addresses'] }),
  noExternalId: useMemoryService({ orderRecords: ['no-external-id'] }),
  accepted: useMemoryService({ duplicateOrder: 'accepted', faults: 1, faultKinds: ['drop_after'] }),
  acceptedQuiet: useMemoryService({ duplicateOrder: 'accepted' }),
  empty202: useMemoryService({ createAnswer: 'accepted-empty' }),
  truncated: useMemoryService({ createAnswer: 'truncated' }),
  error500After: useMemoryService({ faults: 1, faultKinds: ['status_500_after'] }),
  duplicate500: useMemoryService({ duplicateOrder: '500' }),
  interfaceParts: useMemoryService({ orderRecords: ['interface-parts'], idsAsStrings: true }),
  pageLimit: useMemoryService({ pageLimitMax: 50 }),
  pageCap: useMemoryService({ pageCap: 7, pageCount: 'page' }),
  existing: useMemoryService({ duplicateOrder: 'existing' }),
};

let shirt: Shirt;
beforeAll(async () => {
  shirt = await shirtOf(services.standardised());
});

/** The result of a run that must have placed: its outcomes by status. */
function placed(run: Placing<ListResult, unknown>): ListResult {
  expect(run.error).toBeUndefined();
  return run.placed!;
}

/** The rows of the list the run found in earlier orders, and how many orders hold them. */
function earlier(result: ListResult): { rows: number; orders: number } {
  return { rows: result.plan.earlier.reduce((n, o) => n + o.rows.length, 0), orders: result.plan.earlier.length };
}

/** Why the run stopped before sending: a RunInDoubt. */
function doubt(run: Placing<unknown, unknown>): RunInDoubt {
  expect(run.error).toBeInstanceOf(RunInDoubt);
  return run.error as RunInDoubt;
}

describe('1. order records without shipping orders', () => {
  for (const [name, service] of [['shipping_orders: []', services.noShippingOrders], ['no shipping_orders key', services.shippingOrdersAbsent]] as const) {
    it(`${name}: the machine that sent the list knows its rows (nothing sent); another machine stops, sends nothing`, async () => {
      const tag = `Ns${name.length}`;
      const csv = recipientsList(shirt, tag, 3);
      const home = await machine();
      expect(tally(placed(await placeList(service(), home, listRun(shirt, csv))))).toEqual({ created: 1, existing: 0, refused: 0 });
      const rerun = placed(await placeList(service(), home, listRun(shirt, csv)));
      expect(earlier(rerun)).toEqual({ rows: 3, orders: 1 });
      expect(tally(rerun)).toEqual({ created: 0, existing: 1, refused: 0 });
      const orderId = (await truth(service(), tag)).orders[0].id;
      const other = doubt(await placeList(service(), await machine(), listRun(shirt, csv)));
      expect(other.reason).toBe('order');
      expect(other.orderId).toBe(orderId);
      expect(other.message).toContain(`order ${orderId} (external id `);
      expect(other.message).toContain('its record cannot show which rows it holds (it lacks shipping');
      expect(other.message).toContain('nothing was sent');
      const after = await truth(service(), tag);
      expect(after.orders).toHaveLength(1);
      expect(after.twice).toEqual([]);
    });
  }

  it('a single order placed again on another machine "cannot be compared", never "differs"; on its own machine it is the same order', async () => {
    const service = services.noShippingOrders();
    const home = await machine();
    expect((await placeOne(service, home, oneOrder(shirt, 'Single'))).placed?.status).toBe('created');
    const again = await placeOne(service, home, oneOrder(shirt, 'Single'));
    expect(again.placed?.status).toBe('existing');
    expect(again.events).toMatchObject([{ kind: 'found', via: 'journal' }]);
    const other = await placeOne(service, await machine(), oneOrder(shirt, 'Single'));
    expect(other.error).toBeInstanceOf(RecordIncomparable);
    expect((other.error as Error).message).toContain("and the service's record of it has no shipping orders for its 1 line item, so it cannot be compared");
    expect((other.error as Error).message).not.toContain('differs');
    expect((await truth(service, 'Single')).orders).toHaveLength(1);
  });
});

describe('2. a service that standardises addresses', () => {
  it('the list placed again on another machine matches every row (nothing sent); a single order placed again is the same order', async () => {
    const service = services.standardised();
    const csv = recipientsList(shirt, 'Std', 4);
    placed(await placeList(service, await machine(), listRun(shirt, csv, { batchSize: 2 })));
    const stored = (await truth(service, 'Std')).orders[0].shipping_orders[0];
    expect(stored.address.line_1).toBe('1 MAIN ST APT 2');
    expect(stored.address.postal_code).toBe('78701-0001');
    expect(stored.address.country).toBe('US');
    const rerun = placed(await placeList(service, await machine(), listRun(shirt, csv)));
    expect(earlier(rerun)).toEqual({ rows: 4, orders: 2 });
    expect(tally(rerun).created).toBe(0);
    expect((await truth(service, 'Std')).orders).toHaveLength(2);

    expect((await placeOne(service, await machine(), oneOrder(shirt, 'Stdsingle'))).placed?.status).toBe('created');
    const again = await placeOne(service, await machine(), oneOrder(shirt, 'Stdsingle'));
    expect(again.placed?.status).toBe('existing');
    expect(again.events).toMatchObject([{ kind: 'found', via: 'service' }]);
    expect((await truth(service, 'Stdsingle')).orders).toHaveLength(1);
  });
});

describe('3. records without external_id', () => {
  it('a derived run finds its rows by content on any machine; a run named by --external-id on a fresh machine stops, nothing sent; with --assume-unsent sent', async () => {
    const service = services.noExternalId();
    // The account holds another order already: its records show no external id.
    expect((await placeOne(service, await machine(), oneOrder(shirt, 'Noidother'))).placed?.status).toBe('created');
    const ofList = async () => (await truth(service, 'Noid')).orders.filter((o) => o.shipping_orders[0].first_name !== 'Noidother');
    const csv = recipientsList(shirt, 'Noid', 5);
    const home = await machine();
    expect(tally(placed(await placeList(service, home, listRun(shirt, csv, { batchSize: 2 }))))).toEqual({ created: 3, existing: 0, refused: 0 });
    expect(await ofList()).toHaveLength(3);
    // Another machine, another cut: every row is found by its content.
    const fresh = placed(await placeList(service, await machine(), listRun(shirt, csv)));
    expect(earlier(fresh)).toEqual({ rows: 5, orders: 3 });
    expect(tally(fresh).created).toBe(0);
    // Named by the user, the run counts its own orders only, and they cannot be found.
    const named = { ...listRun(shirt, recipientsList(shirt, 'Noidnamed', 2), { batchSize: 2 }), runId: 'named-run' };
    const refused = doubt(await placeList(service, await machine(), named));
    expect(refused.reason).toBe('unfindable');
    expect(refused.message).toContain('cannot find which of the account');
    expect((await truth(service, 'Noidnamed')).orders).toHaveLength(0);
    expect(tally(placed(await placeList(service, await machine(), { ...named, assumeUnsent: true })))).toEqual({ created: 1, existing: 0, refused: 0 });
    expect((await truth(service, 'Noid')).twice).toEqual([]);
    expect(await ofList()).toHaveLength(4);
  });
});

describe('4. a lost answer, and a service that accepts a repeated external id', () => {
  it('the connection drops after every order create: one order, created, found by a look-up', async () => {
    const service = services.accepted();
    const first = await placeOne(service, await machine(), oneOrder(shirt, 'Lostacc'));
    const made = await truth(service, 'Lostacc');
    expect(made.orders).toHaveLength(1);
    expect(first.placed).toMatchObject({ status: 'created', orderId: made.orders[0].id });
    expect(first.events.at(-1)).toMatchObject({ kind: 'found', orderId: made.orders[0].id, via: 'lost answer' });
  });

  it('placed again on a fresh machine, the external id is looked up before sending: no second order', async () => {
    const service = services.acceptedQuiet();
    expect((await placeOne(service, await machine(), oneOrder(shirt, 'Repeat'))).placed?.status).toBe('created');
    const again = await placeOne(service, await machine(), oneOrder(shirt, 'Repeat'));
    expect(again.placed?.status).toBe('existing');
    expect(again.events).toMatchObject([{ kind: 'found', via: 'service' }]);
    const csv = recipientsList(shirt, 'Acclist', 3);
    placed(await placeList(service, await machine(), listRun(shirt, csv, { batchSize: 1 })));
    placed(await placeList(service, await machine(), listRun(shirt, csv)));
    expect((await truth(service, 'Repeat')).orders).toHaveLength(1);
    const listed = await truth(service, 'Acclist');
    expect(listed.orders).toHaveLength(3);
    expect(listed.twice).toEqual([]);
  });
});

describe('5. other answers to a create', () => {
  for (const [name, service] of [
    ['202 with an empty body', services.empty202],
    ['a body that does not parse', services.truncated],
    ['500 after the order was committed', services.error500After],
  ] as const) {
    it(`${name}: a look-up finds the order, created; a batched run goes past its first batch`, async () => {
      const tag = `Ans${name.length}`;
      const single = await placeOne(service(), await machine(), oneOrder(shirt, `${tag}one`));
      expect(single.placed?.status).toBe('created');
      const csv = recipientsList(shirt, tag, 3);
      const batched = placed(await placeList(service(), await machine(), listRun(shirt, csv, { batchSize: 1 })));
      expect(tally(batched)).toEqual({ created: 3, existing: 0, refused: 0 });
      expect(batched.outcomes.reduce((n, o) => n + o.rows.length, 0)).toBe(3);
      const rerun = placed(await placeList(service(), await machine(), listRun(shirt, csv)));
      expect(tally(rerun)).toEqual({ created: 0, existing: 3, refused: 0 });
      expect((await truth(service(), tag)).twice).toEqual([]);
      expect((await truth(service(), `${tag}one`)).orders).toHaveLength(1);
    });
  }

  it('500 for a repeated external id (an IntegrityError): placed again, the order is found', async () => {
    const service = services.duplicate500();
    placed(await placeList(service, await machine(), listRun(shirt, recipientsList(shirt, 'Dup500', 2), { batchSize: 1 })));
    expect((await placeOne(service, await machine(), oneOrder(shirt, 'Dup500one'))).placed?.status).toBe('created');
    const again = await placeOne(service, await machine(), oneOrder(shirt, 'Dup500one'));
    expect(again.placed?.status).toBe('existing');
    expect(again.events).toMatchObject([{ kind: 'found', via: 'service' }]);
    expect((await truth(service, 'Dup500')).twice).toEqual([]);
  });
});

describe('6. never stricter than the service', () => {
  it('shipping-order parts in the 2.3 shape and ids as numeric strings: the list placed again matches every row', async () => {
    const service = services.interfaceParts();
    const csv = recipientsList(shirt, 'Parts', 3);
    placed(await placeList(service, await machine(), listRun(shirt, csv, { batchSize: 2 })));
    const rerun = placed(await placeList(service, await machine(), listRun(shirt, csv)));
    expect(earlier(rerun)).toEqual({ rows: 3, orders: 2 });
    expect((await placeOne(service, await machine(), oneOrder(shirt, 'Partsone'))).placed?.status).toBe('created');
    const again = await placeOne(service, await machine(), oneOrder(shirt, 'Partsone'));
    expect(again.placed?.status).toBe('existing');
    expect(again.events).toMatchObject([{ kind: 'found', via: 'service' }]);
  });

  it('a page cap of 50 that refuses limit=100: the list placed again finds its order', async () => {
    const service = services.pageLimit();
    const csv = recipientsList(shirt, 'Cap50', 2);
    const home = await machine();
    placed(await placeList(service, home, listRun(shirt, csv)));
    expect(earlier(placed(await placeList(service, home, listRun(shirt, csv))))).toEqual({ rows: 2, orders: 1 });
  });

  it('a silent cap of 7 with count counting the page: the list placed again finds orders past the first page', async () => {
    const service = services.pageCap();
    // More than a page of other orders first, so the run's orders are past the first page.
    for (let i = 0; i < 9; i++) expect((await placeOne(service, await machine(), oneOrder(shirt, `Capfill${i}`))).placed?.status).toBe('created');
    const csv = recipientsList(shirt, 'Cap7', 3);
    placed(await placeList(service, await machine(), listRun(shirt, csv, { batchSize: 1 })));
    expect(earlier(placed(await placeList(service, await machine(), listRun(shirt, csv))))).toEqual({ rows: 3, orders: 3 });
    expect((await truth(service, 'Cap7')).orders).toHaveLength(3);
  });
});

describe('the journal keeps what each batch sent', () => {
  it('each batch entry lists its shipping orders by content', async () => {
    const here = await machine();
    placed(await placeList(services.standardised(), here, listRun(shirt, recipientsList(shirt, 'Jrn', 3), { batchSize: 2 })));
    const entries = readFileSync(join(here.dir, 'orders-journal.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const attempts = entries.filter((e) => e.state === 'pending');
    expect(attempts.map((e) => e.shipment_digests)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), expect.stringMatching(/^[0-9a-f]{16}$/)]);
    // once: the outcome's line has them from its attempt's
    expect(entries.filter((e) => e.state === 'created').map((e) => e.shipment_digests)).toEqual([undefined, undefined]);
  });
});

describe('issue 40 example 5: a create answered 2xx with an order that is not the one sent', () => {
  it('is not created: AnsweredWithAnotherOrder naming the difference and the order; nothing else placed, and the journal says failed', async () => {
    const service = services.existing();
    const earlier = await placeOne(service, await machine(), oneOrder(shirt, 'Ansone', { externalId: 'answered-5' }));
    expect(earlier.placed?.status).toBe('created');
    // A look-up that does not see the earlier order yet (a replica behind): only the create's answer can tell.
    service.gateway = { reshape: (method, url, body) => void (method === 'GET' && url.pathname.replace(/\/$/, '') === '/v1/orders' && (body.results = [], body.count = 0, body.next = null)) };
    try {
      const home = await machine();
      const other = await placeOne(service, home, oneOrder(shirt, 'Anstwo', { quantity: 3, externalId: 'answered-5' }));
      expect(other.error).toBeInstanceOf(AnsweredWithAnotherOrder);
      expect((other.error as AnsweredWithAnotherOrder).orderId).toBe(earlier.placed!.orderId);
      expect((other.error as Error).message).toContain('which is not what was sent (');
      expect(other.placed).toBeUndefined();
      expect(journalStates(home)).toEqual(['pending', 'failed']);
    } finally {
      service.gateway = undefined;
    }
    expect((await truth(service, 'Anstwo')).orders).toHaveLength(0);
    expect((await truth(service, 'Ansone')).orders).toHaveLength(1);
  });
});

describe('issue 40, the adversarial pass: a service that stores the order otherwise (one shipping order per unit, names cut short)', () => {
  it('answered 201: created, with the difference said; a rerun finds it and sends nothing', async () => {
    const service = services.standardised();
    // The service cuts first names to 3 characters in what it answers and lists.
    service.gateway = { reshape: (_method, url, body) => void (url.pathname.startsWith('/v1/orders') && cutNames(body)) };
    try {
      const home = await machine();
      const first = await placeOne(service, home, oneOrder(shirt, 'Cutname'));
      expect(first.placed?.status, String(first.error)).toBe('created');
      expect(first.events).toContainEqual(expect.objectContaining({ kind: 'stored otherwise', orderId: first.placed!.orderId }));
      const again = await placeOne(service, home, oneOrder(shirt, 'Cutname'));
      // This machine's journal sent it and recorded it made as that order: existing, though its record differs.
      expect(again.placed?.status, String(again.error)).toBe('existing');
      // Another machine cannot vouch for it: "differs", nothing placed.
      expect((await placeOne(service, await machine(), oneOrder(shirt, 'Cutname'))).error).toBeInstanceOf(ExternalIdTaken);
      expect((await truth(service, 'Cutname')).orders).toHaveLength(1);
    } finally {
      service.gateway = undefined;
    }
  });
});

/** Every first name cut to 3 characters, at any depth of an answer. */
function cutNames(value: unknown): void {
  if (Array.isArray(value)) value.forEach(cutNames);
  else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.first_name === 'string' && record.first_name.length > 3) record.first_name = record.first_name.slice(0, 3);
    Object.values(record).forEach(cutNames);
  }
}

describe('issue 40, the adversarial pass F1: the orders list reshuffles while it is read (an ordering the service ignores)', () => {
  it('an order shown twice hides another: the run stops, nothing sent', async () => {
    const service = services.existing();
    const csv = recipientsList(shirt, 'Shuf', 4);
    expect(tally(placed(await placeList(service, await machine(), listRun(shirt, csv, { batchSize: 1 }))))).toEqual({ created: 4, existing: 0, refused: 0 });
    // Every page after the first shows the first page's order in place of its own first one.
    let first: unknown;
    service.gateway = {
      reshape: (method, url, body) => {
        if (method !== 'GET' || url.pathname.replace(/\/$/, '') !== '/v1/orders' || !Array.isArray(body?.results) || body.results.length === 0) return;
        if (Number(url.searchParams.get('offset') ?? 0) === 0) first = body.results[0];
        else if (first !== undefined) body.results[0] = first;
      },
    };
    try {
      const stopped = doubt(await placeList(service, await machine(), listRun(shirt, csv)));
      expect(stopped.message).toMatch(/counted \d+ orders but showed \d+ different ones/);
      expect((await truth(service, 'Shuf')).twice).toEqual([]);
    } finally {
      service.gateway = undefined;
    }
  });
});
