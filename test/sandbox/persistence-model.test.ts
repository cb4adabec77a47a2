import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../src/contract/order-request.js';
import { Catalog } from '../../src/sandbox/catalog.js';
import type { Compaction } from '../../src/sandbox/compaction.js';
import { moveOrderStatus, type OrderMove } from '../../src/sandbox/order-moves.js';
import { buildOrderRecord } from '../../src/sandbox/order-record.js';
import { resolveOrder } from '../../src/sandbox/order-resolution.js';
import { seedState } from '../../src/sandbox/seed.js';
import type { State } from '../../src/sandbox/state.js';
import { Store } from '../../src/sandbox/store.js';
import { FULL, replayHint, seedOf } from '../reliability/helpers.js';
import { tempDir } from '../support/temp-dir.js';
import { recipient } from './order-fixtures.js';

// `--data` as a property (src/sandbox/persistence.ts): fast-check generates what changes the
// sandbox's orders (an order created; paid; a lifecycle stage; moved on whole by a test
// control; the state reset), with or without a turn of the event loop between changes (so
// that they share a journal batch, or land in the next one, or while a snapshot is written),
// and clean restarts, crashes, and crashes between a snapshot and the journal's cut. The
// store runs in-process on a small seed, with compaction rules from "after every batch" to the
// sandbox's own at a small scale, so snapshots come often. After every step that waits for
// the journal: the files as a SIGKILL would leave them at that moment, opened by another
// store, hold exactly the live orders (JSON-equal: statuses, times, order of the lists).

const SEQUENCES = FULL ? 1_000 : 60;
const MAX_STEPS = FULL ? 40 : 25;

const catalog = new Catalog(1, 20);
/** The seed with one custom product per account: a small state, so compactions come often. */
function seed(): State {
  const state = seedState(1, catalog);
  state.custom_products = state.accounts.map((account) => state.custom_products.find((owned) => owned.account === account.id)!);
  return state;
}

interface Real {
  store: Store;
  file: string;
  dir: string;
  compaction: Compaction;
  /** Each step's time: moves and test controls stamp the order with it. */
  clock: number;
}

type Model = object;

const open = (real: Real, file: string) => new Store(seed, file, () => undefined, real.compaction);
const now = (real: Real) => new Date(Date.UTC(2026, 0, 1) + ++real.clock * 1000).toISOString();
const ordersJson = (store: Store) => JSON.stringify(store.allOrders());
const pick = (store: Store, index: number) => {
  const orders = store.allOrders();
  return orders.length === 0 ? undefined : orders[index % orders.length]!;
};

/**
 * FILE and its journal as a SIGKILL now would leave them (no change being written), copied
 * into a new directory: the journal first, then the snapshot (a compaction renames the
 * snapshot before it cuts the journal, so a pair read in this order is one a crash could leave).
 */
function crashCopy(real: Real): string {
  const copy = join(mkdtempSync(join(real.dir, 'crash-')), 'state.json');
  for (const suffix of ['.journal', '']) {
    try {
      copyFileSync(`${real.file}${suffix}`, `${copy}${suffix}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return copy;
}

/** Every change so far fsync'd; then the files a crash would leave replay to the live orders. */
async function checkCrash(real: Real): Promise<void> {
  await real.store.saved(0);
  const live = ordersJson(real.store);
  const reopened = open(real, crashCopy(real));
  try {
    expect(ordersJson(reopened)).toBe(live);
  } finally {
    await reopened.close();
  }
}

/**
 * What comes after a change: the next change in the same turn (the same journal batch), after
 * a turn (the next batch, while this one is written), after a few milliseconds (while a write,
 * an fsync or a snapshot is under way: a wait that lets things happen, never one that assumes
 * they are done), or the check (every change on disk, then the crash copy compared).
 */
type Then = 'same turn' | 'next turn' | 'a few ms' | 'check';

/** A step that may come at any point of a sequence. */
abstract class Step implements fc.AsyncCommand<Model, Real> {
  check(): boolean {
    return true;
  }
  abstract run(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
}

abstract class Change extends Step {
  constructor(readonly then: Then) {
    super();
  }
  abstract change(real: Real): void;
  abstract name(): string;
  async run(_model: Model, real: Real): Promise<void> {
    this.change(real);
    if (this.then === 'next turn') await new Promise((resolve) => setImmediate(resolve));
    if (this.then === 'a few ms') await new Promise((resolve) => setTimeout(resolve, 3));
    if (this.then === 'check') await checkCrash(real);
  }
  toString(): string {
    return `${this.name()} (${this.then})`;
  }
}

class CreateOrder extends Change {
  constructor(
    private readonly account: 'acme' | 'globex',
    private readonly shipments: number,
    then: Then,
  ) {
    super(then);
  }
  change({ store }: Real): void {
    const account = store.account(this.account);
    const product = store.customProducts(this.account)[0]!;
    const request = {
      payment_method_id: account.payment_methods[0]!.id,
      line_items: [
        {
          id: 1,
          product: product.id,
          quantity: this.shipments,
          attributes: { color: product.available_attributes.colors[0]!.name, size: product.available_attributes.sizes[0]!.name },
        },
      ],
      shipping_orders: Array.from({ length: this.shipments }, (_, index) => ({ recipient: recipient(`Row${index}`), line_items: [{ id: 1, quantity: 1 }] })),
    } as OrderRequest;
    store.addOrder(account.id, buildOrderRecord(store, account, request, resolveOrder(request, account, [product])));
  }
  name(): string {
    return `create an order of ${this.shipments} for ${this.account}`;
  }
}

/** A lifecycle move (paid, or a stage), recorded as the move. */
class MoveOrder extends Change {
  constructor(
    private readonly index: number,
    private readonly move: { move: 'paid' } | { move: 'stage'; stage: number },
    then: Then,
  ) {
    super(then);
  }
  change(real: Real): void {
    const owned = pick(real.store, this.index);
    if (owned) real.store.moveOrder(owned.account, owned.record.id, { ...this.move, at: now(real) } as OrderMove);
  }
  name(): string {
    return `move order #${this.index}: ${JSON.stringify(this.move)}`;
  }
}

/** A test control's move (`/_sandbox/orders/ID/advance`): the order written whole. */
class AdvanceOrder extends Change {
  constructor(
    private readonly index: number,
    then: Then,
  ) {
    super(then);
  }
  change(real: Real): void {
    const owned = pick(real.store, this.index);
    if (!owned || owned.record.status.id >= 4) return;
    real.store.updateOrder(owned.account, owned.record.id, (order) => {
      moveOrderStatus(order);
      order.modified_on = now(real);
    });
  }
  name(): string {
    return `advance order #${this.index}`;
  }
}

class Reset extends Change {
  change({ store }: Real): void {
    store.reset();
  }
  name(): string {
    return 'reset';
  }
}

/** A clean stop and start on the same files. */
class Restart extends Step {
  async run(_model: Model, real: Real): Promise<void> {
    const live = ordersJson(real.store);
    await real.store.close();
    real.store = open(real, real.file);
    expect(ordersJson(real.store)).toBe(live);
  }
  toString(): string {
    return 'restart';
  }
}

/** A SIGKILL: the sandbox goes on from the files it left (the old store is closed on its own files, unseen). */
class Crash extends Step {
  async run(_model: Model, real: Real): Promise<void> {
    await real.store.saved(0);
    const live = ordersJson(real.store);
    const copy = crashCopy(real);
    await real.store.close();
    real.file = copy;
    real.store = open(real, copy);
    expect(ordersJson(real.store)).toBe(live);
  }
  toString(): string {
    return 'crash';
  }
}

/** From a snapshot after every batch (0 and 0) to the sandbox's own rule at a small scale. */
const compaction: fc.Arbitrary<Compaction> = fc.record({ atBytes: fc.constantFrom(0, 512, 4_096), ofLive: fc.constantFrom(0, 1) });
/**
 * A stop cut short: the journal as it was, beside the snapshot the stop wrote (a crash
 * between the snapshot's rename and the journal's cut), so every line of it replays on a
 * snapshot that already holds it.
 */
class CrashBeforeCut extends Step {
  async run(_model: Model, real: Real): Promise<void> {
    await real.store.saved(0);
    const live = ordersJson(real.store);
    const journal = `${real.file}.journal`;
    const lines = existsSync(journal) ? readFileSync(journal) : undefined;
    // A small state: written as one snapshot, and the journal removed.
    await real.store.close();
    if (lines) writeFileSync(journal, lines);
    real.store = open(real, real.file);
    expect(ordersJson(real.store)).toBe(live);
  }
  toString(): string {
    return 'crash before the cut';
  }
}

const then = fc.constantFrom<Then>('same turn', 'next turn', 'a few ms', 'check');
const index = fc.nat({ max: 20 });
// Orders created and moved more often than the rest: the moves are the subject.
const create = fc.tuple(fc.constantFrom<'acme' | 'globex'>('acme', 'globex'), fc.integer({ min: 1, max: 3 }), then).map(([account, shipments, t]) => new CreateOrder(account, shipments, t));
const move = fc.oneof(
  fc.tuple(index, then).map(([i, t]) => new MoveOrder(i, { move: 'paid' }, t)),
  fc.tuple(index, fc.integer({ min: 2, max: 4 }), then).map(([i, stage, t]) => new MoveOrder(i, { move: 'stage', stage }, t)),
);
const commands = [
  create,
  create,
  move,
  move,
  move,
  fc.tuple(index, then).map(([i, t]) => new AdvanceOrder(i, t)),
  then.map((t) => new Reset(t)),
  fc.constant(new Restart()),
  fc.constant(new Crash()),
  fc.constant(new CrashBeforeCut()),
];

describe('--data journal, as a property', () => {
  it('keeps the orders made in one batch in their order when one of them is written again (found by the property)', async () => {
    const dir = tempDir('merch-data-model-');
    const real: Real = { store: undefined as unknown as Store, file: join(dir, 'state.json'), dir, compaction: { atBytes: 0, ofLive: 0 }, clock: 0 };
    real.store = open(real, real.file);
    try {
      await new CreateOrder('acme', 1, 'check').run({}, real);
      // One batch: two orders made, the first of them advanced (written whole again).
      new CreateOrder('acme', 1, 'same turn').change(real);
      new CreateOrder('acme', 1, 'same turn').change(real);
      await new AdvanceOrder(1, 'check').run({}, real);
      expect(real.store.allOrders().map(({ record }) => record.status.id)).toEqual([1, 2, 1]);
    } finally {
      await real.store.close();
    }
  });

  it('replays to the live orders after every step, across batches, compactions, restarts and crashes', { timeout: 300_000 }, async () => {
    replayHint('--data journal, as a property');
    const root = tempDir('merch-data-model-');
    await fc.assert(
      fc.asyncProperty(compaction, fc.commands(commands, { maxCommands: MAX_STEPS, size: 'max' }), async (compaction, steps) => {
        const dir = mkdtempSync(join(root, 'run-'));
        const real: Real = { store: undefined as unknown as Store, file: join(dir, 'state.json'), dir, compaction, clock: 0 };
        real.store = open(real, real.file);
        try {
          await fc.asyncModelRun(() => ({ model: {}, real }), steps);
          await checkCrash(real);
          await new Restart().run({}, real);
        } finally {
          await real.store.close();
        }
      }),
      { numRuns: SEQUENCES, seed: seedOf('--data journal model') },
    );
  });
});
