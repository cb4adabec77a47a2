import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExternalIdTaken, OutcomeUnknown, RecordIncomparable, RunInDoubt } from '../../../src/orders/create/errors.js';
import { OrderJournal } from '../../../src/orders/create/order-journal.js';
import { memoryService, useMemoryService, type MemoryService } from '../../support/memory-service.js';
import { ORDER_SERVICES, randomService, type ListModel as Model, type OrderService } from '../../support/order-services.js';
import { listRun, oneOrder, placeList, placeOne, shirtOf, type Machine, type Shirt } from '../../support/memory-orders.js';
import { useTempDirs } from '../../support/temp-dir.js';
import { FULL, replayHint, seedOf } from '../../reliability/helpers.js';

// Exactly once as a property, over the use cases and the in-memory service: the cheap twin of
// test/reliability/orders-model.test.ts (which runs the CLI over HTTP), so many more
// sequences run. fast-check generates what users do to a recipients list and its run (run it,
// on this machine or a fresh one, in batches or not; add rows; remove rows; an answer lost
// after the order was stored; another order under a used external id; a single order placed
// twice) against every service of test/support/order-services.ts (the sandbox's variants). After every step, read from the
// sandbox's own store: each row is in at most one order, and no external id is in two orders
// (an order is created once or not at all); a run that places is whole (every row in exactly
// one order, "created" meaning made by that step); a run that stops in doubt sent nothing.

// Each step is a use case over the in-memory service (milliseconds): longer sequences than the CLI model's.
const SEQUENCES = FULL ? 2_000 : 60;
const MAX_STEPS = FULL ? 12 : 6;
const RANDOM_SEQUENCES = FULL ? 500 : 40;

const services = ORDER_SERVICES.map((service) => useMemoryService({ ...service.options, recordRequests: false }));

const newRoot = useTempDirs('merch-memory-model-');
let root: string;
let shirt: Shirt;
beforeAll(async () => {
  root = newRoot();
  shirt = await shirtOf(services[0]!());
});

interface Real {
  service: MemoryService;
  about: OrderService;
  runId: string;
  dir: string;
  csv: string;
  /** The machine that keeps its journal. */
  home: Machine;
  steps: string[];
}

/** The service answers a create without an id merch can read (202 empty, JSON cut short): only a look-up can tell. */
const answerHidesId = (about: OrderService) => about.options.createAnswer === 'accepted-empty' || about.options.createAnswer === 'truncated';

const guestName = (real: Real, guest: number) => `G${guest}x${real.runId}`;

/** A machine of the sequence: its home, or a fresh one (closed after its step). */
async function onMachine<T>(real: Real, fresh: boolean, work: (machine: Machine) => Promise<T>): Promise<T> {
  if (!fresh) return work(real.home);
  const dir = mkdtempSync(join(real.dir, 'fresh-'));
  const journal = await OrderJournal.open(dir);
  try {
    return await work({ journal, dir });
  } finally {
    await journal.close();
  }
}

/** The store's orders: the run's, and every order's external id. */
async function stored(real: Real): Promise<{ run: any[]; all: any[] }> {
  const all = await real.service.stored();
  const ofRun = new RegExp(`^${real.runId}(-\\d+)?$`);
  return { all, run: all.filter((o) => ofRun.test(o.external_id ?? '')) };
}

/** The invariant after every step; `placed`: the step's run placed the list (every row must be in exactly one order). */
async function checkInvariant(m: Model, r: Real, placed = false): Promise<void> {
  const where = `${r.about.name}, ${r.runId}: ${r.steps.join('; ')}`;
  const { run, all } = await stored(r);
  const holders = new Map<string, number>();
  for (const order of run) for (const so of order.shipping_orders) holders.set(so.first_name.toLowerCase(), (holders.get(so.first_name.toLowerCase()) ?? 0) + 1);
  for (const [guest, n] of holders) expect(n, `${where}: ${guest} is in ${n} orders`).toBe(1);
  const ids = new Map<string, number>();
  for (const order of all) if (order.external_id) ids.set(order.external_id, (ids.get(order.external_id) ?? 0) + 1);
  for (const [id, n] of ids) expect(n, `${where}: external id ${id} is ${n} orders`).toBe(1);
  if (placed) for (const g of m.rows) expect(holders.get(guestName(r, g).toLowerCase()), `${where}: row of ${guestName(r, g)}`).toBe(1);
}

function writeList(m: Model, r: Real): void {
  const lines = m.rows.map((g) => `${guestName(r, g)},Model,${g} Main St,Austin,TX,78701,US,${shirt.sizes[g % shirt.sizes.length]}`);
  writeFileSync(r.csv, `first_name,last_name,line_1,city,state,postal_code,country,size\n${lines.join('\n')}\n`);
}

type Command = fc.AsyncCommand<Model, Real>;

/**
 * A run of the list (`lose`: the answer of its first create lost once the order is stored);
 * what it may end in, by the service and the model; its outcomes checked against the store.
 */
async function runList(m: Model, r: Real, options: { batchSize?: number; fresh: boolean; lose?: boolean }): Promise<void> {
  writeList(m, r);
  const before = new Set((await stored(r)).run.map((o) => String(o.id)));
  if (options.lose) r.service.loseCreateAnswers(1);
  const run = await onMachine(r, options.fresh, (machine) => placeList(r.service, machine, { ...listRun(shirt, r.csv, { batchSize: options.batchSize }), runId: r.runId }));
  // A run with every row in earlier orders sends nothing: no answer is left to lose.
  r.service.loseCreateAnswers(0);
  const where = `${r.about.name}, ${r.runId}: ${r.steps.join('; ')}`;
  if (run.error instanceof OutcomeUnknown) {
    // Only a service whose records show no external id leaves a lost answer unknown; nothing more was sent.
    // So does a create answer without a readable id (202 empty, cut short), where the look-up cannot tell.
    expect((options.lose || answerHidesId(r.about)) && r.about.blind === 'ids', `${where}: ${run.error.message}`).toBe(true);
    m.sent = true;
    await checkInvariant(m, r);
    return;
  }
  if (run.error !== undefined) {
    // Doubt never sends; it is allowed only where the model says merch cannot tell.
    expect(run.error, `${where}: ${String(run.error)}`).toBeInstanceOf(RunInDoubt);
    const doubt = run.error as RunInDoubt;
    expect(doubt.reason === 'shipment' ? m.removed : r.about.blind !== undefined || (m.gone === true && !options.fresh), `${where}: ${doubt.message}`).toBe(true);
    expect((await stored(r)).run.filter((o) => !before.has(String(o.id))), `${where}: stopped, yet sent`).toEqual([]);
    await checkInvariant(m, r);
    return;
  }
  const result = run.placed!;
  const { run: orders } = await stored(r);
  for (const outcome of result.outcomes) {
    expect(outcome.status, `${where}: batch ${outcome.batch}`).not.toBe('refused');
    expect(outcome.status, `${where}: order ${String(outcome.order_id)}`).toBe(before.has(String(outcome.order_id)) ? 'existing' : 'created');
  }
  expect(result.outcomes.filter((o) => o.status === 'created').length, `${where}: created`).toBe(orders.filter((o) => !before.has(String(o.id))).length);
  m.sent = true;
  await checkInvariant(m, r, true);
}

class RunList implements Command {
  constructor(
    readonly batchSize: number | undefined,
    readonly fresh: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.rows.length > 0;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    await runList(m, r, this);
  }
  toString = () => `run the list${this.batchSize === undefined ? '' : ` in batches of ${this.batchSize}`}${this.fresh ? ' on a fresh machine' : ''}`;
}

class AddRows implements Command {
  constructor(readonly n: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    for (let i = 0; i < this.n; i++) m.rows.push(m.nextGuest++);
    await checkInvariant(m, r);
  }
  toString = () => `add ${this.n} rows`;
}

class RemoveRows implements Command {
  constructor(readonly picks: number[]) {}
  check = (m: Readonly<Model>) => m.rows.length > 1;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    for (const pick of this.picks) if (m.rows.length > 1) m.rows.splice(pick % m.rows.length, 1);
    m.removed ||= m.sent;
    await checkInvariant(m, r);
  }
  toString = () => `remove ${this.picks.length} rows`;
}

/** The answer of the run's first create is lost once the order is stored: a look-up finds it, or, where none can, the outcome is unknown and nothing more is sent. */
class LostAnswer implements Command {
  constructor(readonly batchSize: number | undefined) {}
  check = (m: Readonly<Model>) => m.rows.length > 0;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    await runList(m, r, { batchSize: this.batchSize, fresh: false, lose: true });
  }
  toString = () => `run the list, an answer lost${this.batchSize === undefined ? '' : `, in batches of ${this.batchSize}`}`;
}

/** The service lost its orders (a sandbox restarted without --data); the machine's journal still names them. */
class ServiceLoss implements Command {
  check = (m: Readonly<Model>) => m.sent;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    expect((await r.service.call('/_sandbox/reset', { method: 'POST' })).status).toBe(200);
    m.gone = true;
    await checkInvariant(m, r);
  }
  toString = () => 'the orders gone from the service';
}

/** Another order (a stranger, another quantity) under an external id the run uses, on a fresh machine: refused, nothing placed. */
class DifferentOrder implements Command {
  check = (m: Readonly<Model>) => m.sent;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const { run: orders, all } = await stored(r);
    if (orders.length === 0) return;
    const used = orders[0].external_id as string;
    const placing = await onMachine(r, true, (machine) => placeOne(r.service, machine, oneOrder(shirt, `Stranger${r.runId}`, { quantity: 3, externalId: used })));
    const where = `${r.about.name}, ${r.runId}: ${r.steps.join('; ')}`;
    expect(placing.placed, where).toBeUndefined();
    const expected = r.about.blind === 'ids' ? [RunInDoubt, OutcomeUnknown, ExternalIdTaken] : r.about.blind === 'records' ? [RecordIncomparable] : [ExternalIdTaken];
    expect(expected.some((kind) => placing.error instanceof kind), `${where}: ${String(placing.error)}`).toBe(true);
    expect((await stored(r)).all.length, where).toBe(all.length);
    await checkInvariant(m, r);
  }
  toString = () => 'a different order under a used external id';
}

/** A single order of the run's own (`<run id>-single`) placed, perhaps after a lost answer, then placed again here or elsewhere: one order. */
class SingleTwice implements Command {
  constructor(
    readonly lost: boolean,
    readonly fresh: boolean,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.steps.push(this.toString());
    const externalId = `${r.runId}-single-${r.steps.length}`;
    const pieces = oneOrder(shirt, `Single${r.runId}x${r.steps.length}`, { externalId });
    if (this.lost) r.service.loseCreateAnswers(1);
    const first = await placeOne(r.service, r.home, pieces);
    const where = `${r.about.name}, ${r.runId}: ${r.steps.join('; ')}`;
    // Where the service hides external ids, a first send is doubt once the account has orders (nothing sent), and a lost answer is unknown.
    if (first.error !== undefined) expect(r.about.blind === 'ids' && (first.error instanceof RunInDoubt || (first.error instanceof OutcomeUnknown && (this.lost || answerHidesId(r.about)))), `${where}: ${String(first.error)}`).toBe(true);
    else expect(first.placed!.status, where).toBe('created');
    const again = await onMachine(r, this.fresh, (machine) => placeOne(r.service, machine, pieces));
    if (again.placed) expect(again.placed.status, where).toBe('existing');
    else expect(r.about.blind, `${where}: ${String(again.error)}`).toBeDefined();
    expect((await r.service.stored()).filter((o) => o.external_id === externalId).length, where).toBeLessThanOrEqual(1);
    await checkInvariant(m, r);
  }
  toString = () => `a single order${this.lost ? ', its answer lost,' : ''} placed twice${this.fresh ? ' on two machines' : ''}`;
}

const batchSize = fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined });
const commands = [
  fc.tuple(batchSize, fc.boolean()).map(([b, fresh]) => new RunList(b, fresh)),
  fc.tuple(batchSize, fc.boolean()).map(([b, fresh]) => new RunList(b, fresh)),
  fc.integer({ min: 1, max: 3 }).map((n) => new AddRows(n)),
  fc.array(fc.nat(), { minLength: 1, maxLength: 2 }).map((picks) => new RemoveRows(picks)),
  batchSize.map((b) => new LostAnswer(b)),
  fc.constant(new DifferentOrder()),
  fc.tuple(fc.boolean(), fc.boolean()).map(([lost, fresh]) => new SingleTwice(lost, fresh)),
  fc.constant(new ServiceLoss()),
];

describe('exactly once, in memory: sequences of runs against the service variants', () => {
  it(`each row in at most one order, each order created once or not at all, after every step (${SEQUENCES} sequences)`, async () => {
    replayHint('exactly once in memory');
    let sequence = 0;
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: ORDER_SERVICES.length - 1 }), fc.integer({ min: 1, max: 4 }), fc.commands(commands, { maxCommands: MAX_STEPS }), async (which, rows, steps) => {
        const dir = join(root, `s${++sequence}`);
        const homeDir = join(dir, 'home');
        const home = await OrderJournal.open(homeDir);
        const real: Real = { service: services[which]!(), about: ORDER_SERVICES[which]!, runId: `Mem${sequence}`, dir, csv: join(dir, 'guests.csv'), home: { journal: home, dir: homeDir }, steps: [] };
        const model: Model = { rows: Array.from({ length: rows }, (_, i) => i + 1), nextGuest: rows + 1, sent: false, removed: false };
        try {
          await fc.asyncModelRun(() => ({ model, real }), steps);
        } finally {
          await home.close();
          // Each sequence's journals and lists go with it: thousands of them left for the end would outlast afterAll's deadline.
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: SEQUENCES, seed: seedOf('exactly once in memory') },
    );
  }, 300_000);

  // Issue 40.8: the service drawn at random from the register's switches (docs/service-assumptions.md), several at once.
  it(`the same, against random services: several of the sandbox's switches at once (${RANDOM_SEQUENCES} sequences)`, async () => {
    let sequence = 0;
    await fc.assert(
      fc.asyncProperty(randomService, fc.integer({ min: 1, max: 4 }), fc.commands(commands, { maxCommands: MAX_STEPS }), async (about, rows, steps) => {
        const dir = join(root, `r${++sequence}`);
        const homeDir = join(dir, 'home');
        const home = await OrderJournal.open(homeDir);
        const service = memoryService({ ...about.options, recordRequests: false });
        const real: Real = { service, about, runId: `Rnd${sequence}`, dir, csv: join(dir, 'guests.csv'), home: { journal: home, dir: homeDir }, steps: [] };
        const model: Model = { rows: Array.from({ length: rows }, (_, i) => i + 1), nextGuest: rows + 1, sent: false, removed: false };
        try {
          await fc.asyncModelRun(() => ({ model, real }), steps);
        } finally {
          await home.close();
          await service.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: RANDOM_SEQUENCES, seed: seedOf('exactly once against random services') },
    );
  }, 300_000);
});
