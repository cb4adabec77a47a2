import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cliEnv, merch, startMerch, type Result } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { tsv } from '../support/output.js';
import { useTempDirs } from '../support/temp-dir.js';
import { ORDER_SERVICES, type ListModel as Model, type OrderService } from '../support/order-services.js';
import { crashSigns, FULL, lossyProxy, recordFigures, replayHint, SEED, seedOf } from './helpers.js';

// Exactly once as a property (issues 18.6 and 28.8): fast-check generates sequences of what
// users do to a recipients list and its run (create; rerun; rerun on a fresh machine; another
// batch size or none; rows added; rows removed; a different order under a used external id;
// an answer lost after the order was made; a run stopped between batches; the orders gone
// from the service) and plays them against the sandbox, under every answer the interface
// leaves open to a service (test/support/order-services.ts: the duplicate answers, the order records, the create
// answers, ids as strings). After every step: every row of the list is in at most one order
// (read from the sandbox's own store, whatever its answers show); a run that stops (exit 5)
// sent nothing; on exit 0 every row is in exactly one order, and every report (stdout, the
// summary, the results file) matches the store. Each step is an in-process CLI run against
// an in-process sandbox, so hundreds of sequences stay cheap.

const SEQUENCES = FULL ? 1_000 : 200;
const MAX_STEPS = FULL ? 10 : 2;

const sandboxes = ORDER_SERVICES.map((service) => useSandbox({ ...service.options, recordRequests: false }));

const newRoot = useTempDirs('merch-model-');
let root: string;
let product: { id: number; color: string; sizes: string[] };
beforeAll(async () => {
  root = newRoot();
  const products = (await sandboxApi(sandboxes[0]!(), '/v1/custom-products/?limit=100')).body.results;
  const p = products.find((x: any) => x.available_attributes.sizes.length > 1);
  product = { id: p.id, color: p.available_attributes.colors[0].name, sizes: p.available_attributes.sizes.map((s: { name: string }) => s.name) };
});

interface Real {
  sandbox: Sandbox;
  service: OrderService;
  /** The sandbox itself (the run's external id is given, so the target's URL is no part of its identity). */
  url: string;
  /** The sandbox behind a proxy that can lose the answer of the next order POST, after the order was made. */
  lossyUrl: string;
  loseNextPost: boolean;
  dir: string;
  /** The machine that keeps its journal; a fresh machine is a new config directory each time. */
  machine: string;
  runId: string;
  csv: string;
  results: string;
  steps: number;
}

const guestName = (real: Real, guest: number) => `G${guest}x${real.runId}`;

function writeList(model: Model, real: Real): void {
  const lines = model.rows.map((g) => `${guestName(real, g)},Model,${g} Main St,Austin,TX,78701,US,${product.sizes[g % product.sizes.length]}`);
  writeFileSync(real.csv, `first_name,last_name,line_1,city,state,postal_code,country,size\n${lines.join('\n')}\n`);
}

function listArgs(real: Real, extra: string[]): string[] {
  return ['orders', 'create', '--product', String(product.id), '--attr', `color=${product.color}`, '--recipients', real.csv, '--external-id', real.runId, '--results', real.results, '--force', '--yes', ...extra];
}

/** The run's orders as the sandbox stores them (its test control: the service switches do not change it). */
async function runOrders(real: Real): Promise<any[]> {
  const all: any[] = (await sandboxApi(real.sandbox, '/_sandbox/orders')).body;
  return all.filter((o) => o.external_id === real.runId || new RegExp(`^${real.runId}-\\d+$`).test(o.external_id));
}

/** The service's state of the run: its orders, and which order and shipping order hold each guest. */
async function serviceState(real: Real) {
  const orders = await runOrders(real);
  const holders = new Map<string, { order: number; shipping: number }[]>();
  for (const order of orders) {
    // A service that standardises addresses stores names in capitals.
    for (const so of order.shipping_orders) {
      const guest = so.first_name.toLowerCase();
      holders.set(guest, [...(holders.get(guest) ?? []), { order: order.id, shipping: so.id }]);
    }
  }
  return { orders, holders };
}

/**
 * The invariant, after every step: no guest in two shipping orders of the run; on exit 0
 * every row of the list in exactly one; and what the run reported (stdout, the summary, the
 * results file) is what the service holds, created meaning "made by this step".
 */
async function checkInvariant(model: Model, real: Real, step: string, run?: { result: Result; before: Set<number>; batched: boolean }): Promise<void> {
  const where = `sequence ${real.runId}, step ${real.steps} (${step})`;
  const { orders, holders } = await serviceState(real);
  for (const [guest, held] of holders) expect(held.length, `${where}: ${guest} is in ${held.length} orders`).toBeLessThanOrEqual(1);
  if (!run) return;
  const { result, before, batched } = run;
  expect(crashSigns(result.stderr), `${where}: ${result.stderr}`).toEqual([]);
  const isNew = (orderId: number | string) => !before.has(Number(orderId));
  const held = (g: number) => holders.get(guestName(real, g).toLowerCase());
  if (result.code === 5 && /nothing was sent/.test(result.stderr)) {
    // A run that stops for doubt names the cause and sends nothing.
    expect(orders.filter((o) => isNew(o.id)), `${where}: stopped, yet sent\n${result.stderr}`).toEqual([]);
    expect(result.stderr, where).toMatch(/--assume-unsent/);
  }
  if (result.code === 0) {
    for (const g of model.rows) expect(held(g)?.length, `${where}: row of ${guestName(real, g)} after exit 0\n${result.stderr}`).toBe(1);
    // the summary counts the run's orders: created = made by this step, existing = there before
    const summary = /(\d+) created(?: \(\d+ recipients?\))?, (\d+) existing(?: \(\d+ recipients?\))?, (\d+) refused/.exec(result.stderr);
    expect(summary, `${where}: ${result.stderr}`).not.toBeNull();
    expect(Number(summary![1]), `${where}: created\n${result.stderr}`).toBe(orders.filter((o) => isNew(o.id)).length);
    expect(Number(summary![2]), `${where}: existing\n${result.stderr}`).toBe(orders.filter((o) => !isNew(o.id)).length);
    expect(summary![3]).toBe('0');
  }
  // stdout: each order with its status
  const printed = batched
    ? tsv(result.stdout).slice(1).map((r) => ({ order: r[2]!, status: r[3]! }))
    : tsv(result.stdout).filter((r) => r[0] === 'order').map((r) => ({ order: r[1]!, status: r[5]! }));
  for (const { order, status } of printed) {
    expect(orders.some((o) => String(o.id) === order), `${where}: printed order ${order} is the run's`).toBe(true);
    expect(status, `${where}: order ${order}`).toBe(isNew(order) ? 'created' : 'existing');
  }
  // the results file: each line's order and shipping order hold that row's guest; created = new
  let lines: Record<string, string>[] = [];
  try {
    lines = parse(readFileSync(real.results), { columns: true });
  } catch {
    lines = [];
  }
  if (result.code === 0) expect(lines.map((l) => Number(l.row)).sort((a, b) => a - b), `${where}: results rows`).toEqual(model.rows.map((_, i) => i + 2));
  for (const line of lines) {
    if (line.status === 'refused') continue;
    const guest = guestName(real, model.rows[Number(line.row) - 2]!);
    const holder = holders.get(guest.toLowerCase())?.[0];
    expect(holder, `${where}: results row ${line.row} (${guest})`).toBeDefined();
    // A service that lists no shipping orders cannot say which one holds the row: the order is still known.
    const shipping = real.service.blind === 'records' && line.shipping_order_id === '' ? '' : String(holder!.shipping);
    expect([String(holder!.order), shipping], `${where}: results row ${line.row}`).toEqual([line.order_id, line.shipping_order_id]);
    expect(line.status, `${where}: results row ${line.row}`).toBe(isNew(line.order_id!) ? 'created' : 'existing');
  }
}

/** A run of the list on a machine, as the user would type it; its reports checked against the service. */
async function runList(model: Model, real: Real, step: string, options: { batchSize?: number; fresh: boolean; extra?: string[]; lossy?: boolean }): Promise<Result> {
  writeList(model, real);
  rmSync(real.results, { force: true });
  const before = new Set((await runOrders(real)).map((o) => o.id as number));
  const dir = options.fresh ? mkdtempSync(join(real.dir, 'fresh-')) : real.machine;
  const extra = [...(options.batchSize === undefined ? [] : ['--batch-size', String(options.batchSize)]), ...(options.extra ?? [])];
  cliRuns++;
  const result = await merch({ url: options.lossy ? real.lossyUrl : real.url }, listArgs(real, extra), { env: { MERCH_CONFIG_DIR: dir } });
  await checkInvariant(model, real, step, { result, before, batched: options.batchSize !== undefined });
  return result;
}

type Command = fc.AsyncCommand<Model, Real>;

/**
 * A run stopped for a shipping order no row matches (exit 5), while rows are left to send:
 * allowed only once rows were removed from a sent list (their shipping orders match nothing).
 */
function stoppedForRemovedRows(m: Model, r: Real, result: Result): boolean {
  if (result.code !== 5 || !/matches no row of/.test(result.stderr)) return false;
  expect(m.removed, `${r.runId}: stopped for a shipping order no row matches, yet no row was removed\n${result.stderr}`).toBe(true);
  return true;
}

/** A run on the machine whose journal names orders the service lost stops in doubt (exit 5), never places them again on that ground alone (issue 40.4). */
function stoppedForGoneOrders(m: Model, r: Real, result: Result, fresh: boolean): boolean {
  if (result.code !== 5 || !/journal says .* was created, but the service does not show/.test(result.stderr)) return false;
  expect(m.gone === true && !fresh, `${r.runId}: stopped for an order the service does not show, yet it lost none\n${result.stderr}`).toBe(true);
  return true;
}

/** CLI runs made, for the figures (each costs ~35 ms of CPU on the quiet machine). */
let cliRuns = 0;

class RunList implements Command {
  constructor(
    readonly batchSize: number | undefined,
    readonly fresh: boolean,
    readonly assumeUnsent = false,
  ) {}
  check = (m: Readonly<Model>) => m.rows.length > 0;
  async run(m: Model, r: Real) {
    r.steps++;
    const earlier = (await runOrders(r)).length;
    const result = await runList(m, r, this.toString(), { batchSize: this.batchSize, fresh: this.fresh, extra: this.assumeUnsent ? ['--assume-unsent'] : [] });
    // A shipping order of a removed row, while rows are left to send, may be one of them stored otherwise: the run stops.
    if (stoppedForRemovedRows(m, r, result) || stoppedForGoneOrders(m, r, result, this.fresh)) return;
    // A blind service may leave merch unable to prove rows unsent: it stops (exit 5) rather than guess.
    if (r.service.blind) expect([0, 5], `${r.runId} (${r.service.name}): ${this.toString()}: ${result.stderr}`).toContain(result.code);
    else expect(result.code, `${r.runId} (${r.service.name}): ${this.toString()}: ${result.stderr}`).toBe(0);
    if (r.service.blind && this.fresh && earlier > 0) expect(result.code, `${r.runId} (${r.service.name}): a fresh machine cannot read the run's orders\n${result.stderr}`).toBe(5);
    m.sent = true;
  }
  toString = () => `run the list${this.batchSize === undefined ? '' : ` --batch-size ${this.batchSize}`}${this.fresh ? ' on a fresh machine' : ''}`;
}

class AddRows implements Command {
  constructor(readonly n: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.steps++;
    for (let i = 0; i < this.n; i++) m.rows.push(m.nextGuest++);
    await checkInvariant(m, r, this.toString());
  }
  toString = () => `add ${this.n} rows`;
}

class RemoveRows implements Command {
  constructor(readonly picks: number[]) {}
  check = (m: Readonly<Model>) => m.rows.length > 1;
  async run(m: Model, r: Real) {
    r.steps++;
    for (const pick of this.picks) if (m.rows.length > 1) m.rows.splice(pick % m.rows.length, 1);
    m.removed ||= m.sent;
    await checkInvariant(m, r, this.toString());
  }
  toString = () => `remove ${this.picks.length} rows`;
}

/** Another order (a stranger, another quantity) under an external id the run uses: refused, nothing placed. */
class DifferentOrder implements Command {
  check = (m: Readonly<Model>) => m.sent;
  async run(m: Model, r: Real) {
    r.steps++;
    const orders = await runOrders(r);
    if (orders.length === 0) return;
    const used = orders[0].external_id as string;
    const stranger = `first_name=Stranger,last_name=${r.runId},line_1=9 Elm St,city=Austin,state=TX,postal_code=78701,country=US`;
    const args = ['orders', 'create', '--product', String(product.id), '--quantity', '3', '--attr', `color=${product.color}`, '--attr', `size=${product.sizes[0]}`, '--recipient', stranger, '--external-id', used, '--yes'];
    cliRuns++;
    const result = await merch({ url: r.url }, args, { env: { MERCH_CONFIG_DIR: mkdtempSync(join(r.dir, 'other-')) } });
    if (r.service.blind === 'ids') {
      // Its order cannot be found by external id: after the duplicate answer the outcome is unknown, and nothing is resent.
      expect([1, 5], `${r.runId} (${r.service.name}): ${result.stderr}`).toContain(result.code);
    } else if (r.service.blind === 'records') {
      expect(result.code, `${r.runId} (${r.service.name}): ${result.stderr}`).toBe(5);
      expect(result.stderr).toContain(`error: external id ${used} is already order ${orders[0].id}, and the service's record of it has no shipping`);
    } else {
      expect(result.code, `${r.runId} (${r.service.name}): ${result.stderr}`).toBe(5);
      expect(result.stderr).toContain(`error: external id ${used} is already order ${orders[0].id}, which differs from this order (`);
    }
    expect(result.stdout).toBe('');
    expect((await runOrders(r)).length).toBe(orders.length);
    await checkInvariant(m, r, this.toString());
  }
  toString = () => 'a different order under a used external id';
}

/** The answer to the next order POST is lost after the order was made; with retries the run finishes, without it stops (exit 1). */
class LostAnswer implements Command {
  constructor(
    readonly retries: number,
    readonly batchSize: number | undefined,
  ) {}
  check = (m: Readonly<Model>) => m.rows.length > 0;
  async run(m: Model, r: Real) {
    r.steps++;
    r.loseNextPost = true;
    const result = await runList(m, r, this.toString(), { batchSize: this.batchSize, fresh: false, extra: ['--retries', String(this.retries)], lossy: true });
    r.loseNextPost = false;
    // A look-up finds the order the lost answer made, whatever --retries says; a service that
    // shows no external id cannot be asked, so the outcome is unknown (exit 1) and nothing is resent.
    if (stoppedForRemovedRows(m, r, result) || stoppedForGoneOrders(m, r, result, false)) return;
    if (r.service.blind) expect([0, 1, 5], `${r.runId} (${r.service.name}): ${this.toString()}: ${result.stderr}`).toContain(result.code);
    else expect(result.code, `${r.runId} (${r.service.name}): ${this.toString()}: ${result.stderr}`).toBe(0);
    if (result.code === 1) expect(result.stderr).toContain('nothing more was sent');
    m.sent = true;
  }
  toString = () => `an answer lost after the order was made (--retries ${this.retries}${this.batchSize === undefined ? '' : `, --batch-size ${this.batchSize}`})`;
}

/** The run stopped between batches (the in-process stand-in for a kill between batches: Ctrl-C after k batches). */
class StopBetweenBatches implements Command {
  constructor(readonly after: number) {}
  check = (m: Readonly<Model>) => m.rows.length > 0;
  async run(m: Model, r: Real) {
    r.steps++;
    writeList(m, r);
    rmSync(r.results, { force: true });
    const before = new Set((await runOrders(r)).map((o) => o.id as number));
    cliRuns++;
    const running = startMerch(listArgs(r, ['--batch-size', '1']), { env: cliEnv(r.url, { MERCH_CONFIG_DIR: r.machine }) });
    const batches = (err: string) => (err.match(/^batch \d+ \(.*\): /gm) ?? []).length;
    await Promise.race([running.io.written((_out, err) => batches(err) >= this.after), running.done]);
    running.interrupt();
    const result = await running.done;
    // A blind service, or rows removed from a sent list, may stop the run before it sends (exit 5).
    expect(r.service.blind || m.removed || m.gone ? [0, 5, 130] : [0, 130], `${r.runId} (${r.service.name}): ${result.stderr}`).toContain(result.code);
    await checkInvariant(m, r, this.toString(), { result, before, batched: true });
    m.sent = true;
  }
  toString = () => `stopped after ${this.after} batches`;
}

/** The service lost its orders (a sandbox restarted without --data); the machine's journal still names them. */
class ServiceLoss implements Command {
  check = (m: Readonly<Model>) => m.sent;
  async run(m: Model, r: Real) {
    r.steps++;
    expect((await sandboxApi(r.sandbox, '/_sandbox/reset', { method: 'POST' })).status).toBe(200);
    m.gone = true;
    await checkInvariant(m, r, this.toString());
  }
  toString = () => 'the orders gone from the service';
}

// As often one order as batches.
const batchSize = fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined, freq: 2 });
const commands = [
  fc.tuple(batchSize, fc.boolean()).map(([size, fresh]) => new RunList(size, fresh)),
  fc.tuple(batchSize, fc.boolean()).map(([size, fresh]) => new RunList(size, fresh)),
  fc.integer({ min: 1, max: 3 }).map((n) => new AddRows(n)),
  fc.array(fc.nat(), { minLength: 1, maxLength: 2 }).map((picks) => new RemoveRows(picks)),
  fc.constant(new DifferentOrder()),
  fc.tuple(fc.constantFrom(0, 2), batchSize).map(([retries, size]) => new LostAnswer(retries, size)),
  fc.integer({ min: 1, max: 2 }).map((after) => new StopBetweenBatches(after)),
  fc.constant(new ServiceLoss()),
];

describe('orders create --recipients, as a model', () => {
  it(`${SEQUENCES} sequences of up to ${MAX_STEPS} steps keep every row in at most one order and every report true, against ${ORDER_SERVICES.length} services`, async () => {
    replayHint('model: orders create --recipients');
    let sequence = 0;
    const reached = new Map<string, number>();
    const started = Date.now();
    const cpu = process.cpuUsage();
    const proxies = new Map<Sandbox, { url: string; real?: Real; close(): Promise<void> }>();
    for (const sandbox of sandboxes.map((started) => started())) {
      const entry: { url: string; real?: Real; close(): Promise<void> } = { url: '', close: async () => undefined };
      const proxy = await lossyProxy(sandbox.url, (method, path) => {
        const real = entry.real;
        if (!real?.loseNextPost || method !== 'POST' || !path.startsWith('/v1/orders')) return false;
        real.loseNextPost = false;
        return true;
      });
      Object.assign(entry, { url: proxy.url, close: proxy.close });
      proxies.set(sandbox, entry);
    }
    try {
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: ORDER_SERVICES.length - 1 }), fc.integer({ min: 1, max: 4 }), batchSize, fc.commands(commands, { maxCommands: MAX_STEPS }), async (which, rows, firstBatch, steps) => {
          const service = ORDER_SERVICES[which]!;
          const sandbox = sandboxes[which]!();
          const proxy = proxies.get(sandbox)!;
          const dir = join(root, `s${++sequence}`);
          mkdirSync(join(dir, 'machine'), { recursive: true });
          const real: Real = { sandbox, service, url: sandbox.url, lossyUrl: proxy.url, loseNextPost: false, dir, machine: join(dir, 'machine'), runId: `M${sequence}`, csv: join(dir, 'guests.csv'), results: join(dir, 'results.csv'), steps: 0 };
          proxy.real = real;
          const model: Model = { rows: Array.from({ length: rows }, (_, i) => i + 1), nextGuest: rows + 1, sent: false, removed: false };
          try {
            // Every sequence starts from a send of the list; the steps then do what users do next.
            // A service that shows no external id cannot show a first send is one: the user says so.
            await new RunList(firstBatch, false, service.blind === 'ids').run(model, real);
            await fc.asyncModelRun(() => ({ model, real }), steps);
            for (const step of [...steps]) reached.set(step.toString().replace(/\d+/g, 'N'), (reached.get(step.toString().replace(/\d+/g, 'N')) ?? 0) + 1);
            reached.set(`service ${service.name}`, (reached.get(`service ${service.name}`) ?? 0) + 1);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        }),
        { numRuns: SEQUENCES, seed: seedOf('orders-model'), endOnFailure: true },
      );
    } finally {
      for (const { close } of proxies.values()) await close();
    }
    // every action was played, against every service
    const kinds = ['run the list', 'on a fresh machine', '--batch-size', 'add', 'remove', 'a different order', 'lost after', 'stopped after', 'gone from the service', ...ORDER_SERVICES.map((service) => `service ${service.name}`)];
    for (const kind of kinds) expect([...reached.keys()].some((k) => k.includes(kind)), `never played: ${kind}`).toBe(true);
    recordFigures('orders-model', { sequences: SEQUENCES, seed: SEED, cli_runs: cliRuns, steps: Object.fromEntries(reached), duration_ms: Date.now() - started, cpu_ms: Math.round((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000) });
  }, FULL ? 1_800_000 : 240_000);
});
