import { beforeAll, describe, expect, it } from 'vitest';
import { createOrders, type CreateEvent, type CreateOrdersPorts, type CreateQuestion, type CreateRequest } from '../../../src/orders/create/engine.js';
import { OrderIncomplete, PlacingStopped } from '../../../src/orders/create/errors.js';
import { identityScope } from '../../../src/orders/create/order-identity.js';
import { useMemoryService } from '../../support/memory-service.js';
import { oneOrder, recipientsList, shirtOf, type Shirt } from '../../support/memory-orders.js';
import { tempDir } from '../../support/temp-dir.js';

// `orders create`'s one entry (src/orders/create/engine.ts) against the in-memory service:
// the events it reports, the questions it asks through its port, and the outcome it returns.
// What the command makes of them (lines, exit codes) is test/commands/orders/create/'s.

const service = useMemoryService();

let shirt: Shirt;
beforeAll(async () => {
  shirt = await shirtOf(service());
});

/** The order creates the service answered since `from`, by status. */
const creates = (from: number) => service().requests.slice(from).filter((r) => r.method === 'POST' && /^\/v1\/orders\/?$/.test(r.path)).map((r) => r.status);

/** A run of the entry: its events, the questions asked (answered `answer`), and its outcome or error. */
async function create(request: Omit<CreateRequest, 'journalDir'> & { journalDir?: string }, answer = true, complete?: CreateOrdersPorts['complete']) {
  const events: CreateEvent[] = [];
  const questions: CreateQuestion['kind'][] = [];
  const ports: CreateOrdersPorts = {
    orders: service().orders,
    account: service().account,
    scope: async () => ({ scope: identityScope('http://memory.invalid', 'memory-account'), legacy: { baseUrl: 'http://memory.invalid' } }),
    confirm: async (question) => {
      questions.push(question.kind);
      return answer;
    },
    ...(complete ? { complete } : {}),
  };
  const before = service().requests.length;
  try {
    const outcome = await createOrders({ journalDir: tempDir('merch-engine-'), ...request }, ports, (event) => events.push(event));
    return { outcome, events, questions, creates: creates(before) };
  } catch (error) {
    return { error, events, questions, creates: creates(before) };
  }
}

const kinds = (events: CreateEvent[]) => events.map((e) => e.kind);

describe('createOrders: one order', () => {
  it('a dry run: priced and planned, the external id known, nothing asked, nothing sent', async () => {
    const run = await create({ pieces: oneOrder(shirt, 'Dry'), dryRun: true });
    expect(run.error).toBeUndefined();
    expect(kinds(run.events)).toEqual(['priced', 'planned']);
    expect(run.outcome).toMatchObject({ kind: 'order planned', request: { external_id: expect.any(String) } });
    expect(run.questions).toEqual([]);
    expect(run.creates).toEqual([]);
  });

  it('placed once after one question; run again on the same machine, found in the journal and not sent again', async () => {
    const journalDir = tempDir('merch-engine-');
    const first = await create({ pieces: oneOrder(shirt, 'Once'), journalDir });
    expect(first.error).toBeUndefined();
    expect(first.questions).toEqual(['order']);
    expect(kinds(first.events)).toEqual(['priced', 'planned', 'sending']);
    expect(first.outcome).toMatchObject({ kind: 'order placed', placed: { status: 'created' } });
    expect(first.creates).toEqual([201]);

    const again = await create({ pieces: oneOrder(shirt, 'Once'), journalDir });
    expect(again.error).toBeUndefined();
    expect(again.creates).toEqual([]);
    expect(again.questions).toEqual([]);
    expect(again.events.at(-1)).toMatchObject({ kind: 'found', via: 'journal' });
    const placed = first.outcome?.kind === 'order placed' ? first.outcome.placed : undefined;
    expect(again.outcome).toMatchObject({ kind: 'order placed', placed: { status: 'existing', orderId: placed?.orderId, externalId: placed?.externalId } });
  });

  it('a confirmation answered no: nothing sent, the run stopped', async () => {
    const run = await create({ pieces: oneOrder(shirt, 'Refused') }, false);
    expect(run.error).toBeInstanceOf(PlacingStopped);
    expect(run.questions).toEqual(['order']);
    expect(kinds(run.events)).not.toContain('sending');
    expect(run.creates).toEqual([]);
  });

  it('pieces that make no order: refused with what is missing, nothing sent; completed through the port (the wizard), placed', async () => {
    const { recipient, ...pieces } = oneOrder(shirt, 'Completed');
    const refused = await create({ pieces });
    expect(refused.error).toBeInstanceOf(OrderIncomplete);
    expect((refused.error as OrderIncomplete).missing).toEqual([{ piece: 'recipients' }]);
    expect(refused.creates).toEqual([]);

    const completed = await create({ pieces }, true, async (given) => ({ ...given, recipient }));
    expect(completed.error).toBeUndefined();
    expect(completed.outcome).toMatchObject({ kind: 'order placed', placed: { status: 'created' } });
    expect(completed.creates).toEqual([201]);
  });
});

describe('createOrders: a recipients list', () => {
  it('placed in batches after one question; run again, every row found in the earlier orders and nothing sent', async () => {
    const file = recipientsList(shirt, 'Engine', 3);
    const request = { pieces: { items: [{ product: shirt.id, attributes: { color: shirt.color } }] }, recipients: { path: file, file }, batchSize: 2 };
    const first = await create(request);
    expect(first.error).toBeUndefined();
    expect(first.questions).toEqual(['list']);
    expect(kinds(first.events)).toEqual(['run', 'batch', 'batch']);
    expect(first.outcome?.kind === 'list placed' && first.outcome.result.outcomes.map((o) => [o.status, o.rows])).toEqual([
      ['created', [2, 3]],
      ['created', [4]],
    ]);
    expect(first.creates).toEqual([201, 201]);

    // Another machine (a journal of its own): the service's orders alone show the rows are placed.
    const again = await create(request);
    expect(again.error).toBeUndefined();
    expect(kinds(again.events)).toEqual(['run']);
    expect(again.outcome?.kind === 'list placed' && again.outcome.result.outcomes.map((o) => [o.status, o.rows])).toEqual([
      ['existing', [2, 3]],
      ['existing', [4]],
    ]);
    expect(again.creates).toEqual([]);
  });
});
