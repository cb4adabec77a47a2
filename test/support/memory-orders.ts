import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { plan as planSend } from '../../src/orders/create/exactly-once.js';
import type { OrderPieces } from '../../src/orders/create/builder.js';
import { OrderJournal, withoutExternalId } from '../../src/orders/create/order-journal.js';
import { placeBatches } from '../../src/orders/create/place-batches.js';
import { offeringsOf, placeOrder, type PlacedOrder, type PlaceOrderEvent } from '../../src/orders/create/place-order.js';
import { identityOfBody, identityScope, shipmentDigests } from '../../src/orders/create/order-identity.js';
import type { ListEvent, ListResult, ListRun } from '../../src/orders/create/plan-batches.js';
import { prepareOrder } from '../../src/orders/create/prepare.js';
import type { MemoryService } from './memory-service.js';
import { tempDir } from './temp-dir.js';

/**
 * The create use cases as `orders create` runs them (src/orders/create/engine.ts, its one
 * entry), over the in-memory service: what a test of exactly-once gives and gets, without
 * flags, output or exit codes. A "machine" is a journal of its own.
 */

/** Where the orders go, as part of a derived external id (the command's is its base URL's origin and the account). */
const SCOPE = identityScope('http://memory.invalid', 'memory-account');

/** A machine: its journal, in a directory of its own (closed when the test ends). */
export interface Machine {
  journal: OrderJournal;
  dir: string;
}

export async function machine(): Promise<Machine> {
  const dir = tempDir('merch-machine-');
  const journal = await OrderJournal.open(dir);
  onTestFinished(() => journal.close());
  return { journal, dir };
}

/** The states of the machine's journal entries, as written, in order. */
export function journalStates({ dir }: Machine): string[] {
  return readFileSync(join(dir, 'orders-journal.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line).state);
}

/** A product with several sizes and colours, and its first colour and every size. */
export interface Shirt {
  id: number;
  color: string;
  sizes: string[];
}

export async function shirtOf(service: MemoryService): Promise<Shirt> {
  const products = (await service.call('/v1/custom-products/?limit=100')).body.results;
  const p = products.find((x: any) => x.available_attributes.sizes.length > 1 && x.available_attributes.colors.length > 1);
  return { id: Number(p.id), color: p.available_attributes.colors[0].name, sizes: p.available_attributes.sizes.map((s: { name: string }) => s.name) };
}

/** `--product ID --quantity Q --attr color=C --attr size=S --recipient first_name=NAME,last_name=Lee,...` (in Austin, at `street`) and `--external-id`, if given. */
export function oneOrder(shirt: Shirt, name: string, options: { quantity?: number; externalId?: string; street?: { line_1: string; line_2?: string } } = {}): OrderPieces {
  const street = options.street ?? { line_1: '1 Main Street', line_2: 'Apartment 2' };
  return {
    items: [{ product: shirt.id, quantity: options.quantity ?? 2, attributes: { color: shirt.color, size: shirt.sizes[0]! } }],
    recipient: { first_name: name, last_name: 'Lee', ...street, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    ...(options.externalId === undefined ? {} : { externalId: options.externalId }),
  };
}

export interface Placing<T, Event> {
  /** What the use case returned; undefined when it threw. */
  placed?: T;
  error?: unknown;
  events: Event[];
}

/** One order, as `orders create --yes` places it: prepared, planned against the journal, placed. */
export async function placeOne(service: MemoryService, { journal }: Machine, pieces: OrderPieces): Promise<Placing<PlacedOrder, PlaceOrderEvent> & { externalId: string }> {
  const prepared = await prepareOrder(pieces, service.lookups());
  if (!prepared.complete) throw new Error(`incomplete order: ${JSON.stringify(prepared.missing)}`);
  const { order } = prepared;
  const body = withoutExternalId(order.body);
  const offerings = offeringsOf(order.products);
  const p = planSend(journal, body, identityOfBody(SCOPE, body, offerings), order.body.external_id);
  const events: PlaceOrderEvent[] = [];
  try {
    const placed = await placeOrder({ body, products: order.products, journalled: { shipment_digests: shipmentDigests(body, offerings).hexAll() } }, p, { api: service.orders, journal, notify: (event) => events.push(event) });
    return { placed, events, externalId: p.externalId };
  } catch (error) {
    return { error, events, externalId: p.externalId };
  }
}

/** A recipients list of `n` rows (first names `<tag>1`, `<tag>2`, ...), the sizes in turn, written to a file of the test. */
export function recipientsList(shirt: Shirt, tag: string, n: number): string {
  const file = join(tempDir(), 'guests.csv');
  const rows = Array.from({ length: n }, (_, i) => `${tag}${i + 1},Guest,"${i + 1} Main Street, Apt 2",Austin,TX,78701,United States,${shirt.sizes[i % shirt.sizes.length]}`);
  writeFileSync(file, `first_name,last_name,line_1,city,state,postal_code,country,size\n${rows.join('\n')}\n`);
  return file;
}

/** `--product ID --attr color=C --recipients FILE`, with `--batch-size` and `--assume-unsent` as given. */
export function listRun(shirt: Shirt, file: string, options: { batchSize?: number; assumeUnsent?: boolean } = {}): ListRun {
  return { pieces: { items: [{ product: shirt.id, attributes: { color: shirt.color } }] }, path: file, file, scope: SCOPE, ...options };
}

/** A recipients list, as `orders create --recipients FILE --yes` places it. */
export async function placeList(service: MemoryService, { journal }: Machine, run: ListRun): Promise<Placing<ListResult, ListEvent>> {
  const events: ListEvent[] = [];
  try {
    const placed = await placeBatches(run, { api: service.orders, journal, lookups: service.lookups(), notify: (event) => events.push(event) });
    return { placed, events };
  } catch (error) {
    return { error, events };
  }
}

/** How many of a result's outcomes have each status. */
export function tally(result: ListResult): Record<'created' | 'existing' | 'refused', number> {
  const counts = { created: 0, existing: 0, refused: 0 };
  for (const o of result.outcomes) counts[o.status]++;
  return counts;
}

/** The orders the store holds whose recipients' first names start with `tag` (case aside), and the names in more than one. */
export async function truth(service: MemoryService, tag: string): Promise<{ orders: any[]; twice: string[] }> {
  const orders = (await service.stored()).filter((o) => o.shipping_orders.some((so: any) => so.first_name.toLowerCase().startsWith(tag.toLowerCase())));
  const seen = new Map<string, number>();
  for (const o of orders) for (const so of o.shipping_orders) seen.set(so.first_name.toLowerCase(), (seen.get(so.first_name.toLowerCase()) ?? 0) + 1);
  return { orders, twice: [...seen].filter(([, n]) => n > 1).map(([name]) => name) };
}
