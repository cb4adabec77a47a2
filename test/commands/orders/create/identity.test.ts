import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { merch, type Result } from '../../../support/run-merch.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../src/sandbox/index.js';
import { requestsDuring, sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp-dir.js';

// Issue 40: what makes two `orders create` invocations the same order (docs/orders.md, "What
// makes two orders the same"), tested by its relations. An invocation is generated; an
// identity-keeping transformation of it (another way to compose it, another sign-in, another
// payment method, another machine, another cut) must find the order and send nothing; an
// identity-changing one (another recipient, quantity or item) must make a new order.

// The catalog and the payment methods are read from a sandbox of the defaults; each sample's
// service is drawn from the register's switches (issue 40.8) and started for it.
const defaults = useSandbox();
let sandbox: () => Sandbox = defaults;
const FULL = process.env.RELIABILITY_FULL === '1';

interface Shirt {
  id: number;
  color: string;
  sizes: string[];
}
let shirt: Shirt;
let methods: string[];

beforeAll(async () => {
  const products = (await sandboxApi(defaults(), '/v1/custom-products/?limit=100')).body.results as { id: number; available_attributes: { colors: { name: string }[]; sizes: { name: string }[] } }[];
  const p = products.find((x) => x.available_attributes.sizes.length > 1 && x.available_attributes.colors.length > 1)!;
  shirt = { id: p.id, color: p.available_attributes.colors[0]!.name, sizes: p.available_attributes.sizes.map((s) => s.name) };
  const byType = (await sandboxApi(defaults(), '/v1/payment-methods/')).body as Record<string, { id: string }[]>;
  methods = Object.values(byType).flat().map((m) => m.id);
  expect(methods.length).toBeGreaterThan(1);
});

interface Recipient {
  first_name: string;
  last_name: string;
  line_1: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  size: number;
  quantity: number;
}

/** How an order is composed: flags (one recipient), `--item` (one recipient), a JSON file, a recipients list (as one order, or in batches). */
type Form = { kind: 'flags' } | { kind: 'item' } | { kind: 'file' } | { kind: 'list'; batchSize?: number };

/** How the run signs in: the sandbox's token, or a token of its own for the same account (a CI job's). */
type SignIn = 'sandbox-token' | 'fresh-token';

interface Invocation {
  recipients: Recipient[];
  form: Form;
  signIn: SignIn;
  /** `--payment-method` given as this index of the account's methods; undefined: the account's default. */
  payment?: number;
  /** Cosmetic choices that must not matter: flag order, column order, spacing and case of cells, row order. */
  seed: number;
}

const FIELDS = ['first_name', 'last_name', 'line_1', 'city', 'state', 'postal_code', 'country'] as const;

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Spacing and letter case a spreadsheet may give a cell (names and addresses are compared as a service stores them). */
function respelled(value: string, seed: number): string {
  const cased = seed % 3 === 0 ? value.toUpperCase() : seed % 3 === 1 ? value.toLowerCase() : value;
  return seed % 2 === 0 ? `  ${cased} ` : cased;
}

function recipientFlag(r: Recipient, seed: number): string {
  return shuffled(FIELDS, seed)
    .map((f) => `${seed % 2 === 0 ? ' ' : ''}${f}=${JSON.stringify(r[f])}`)
    .join(',');
}

/** The arguments of an invocation; files are written to `dir`. */
function argsOf(inv: Invocation, dir: string): string[] {
  const size = (r: Recipient) => shirt.sizes[r.size % shirt.sizes.length]!;
  const payment = inv.payment === undefined ? [] : ['--payment-method', methods[inv.payment % methods.length]!];
  const [only] = inv.recipients;
  switch (inv.form.kind) {
    case 'flags': {
      const pieces = [['--product', String(shirt.id)], ['--attr', `color=${shirt.color}`], ['--attr', `size=${size(only!)}`], ['--quantity', String(only!.quantity)], ['--recipient', recipientFlag(only!, inv.seed)], payment];
      return ['orders', 'create', ...shuffled(pieces, inv.seed).flat(), '--yes'];
    }
    case 'item': {
      const item = shuffled([`product=${shirt.id}`, `quantity=${only!.quantity}`, `size=${size(only!)}`, `color=${shirt.color}`], inv.seed).join(',');
      return ['orders', 'create', '--item', item, '--recipient', recipientFlag(only!, inv.seed + 1), ...payment, '--yes'];
    }
    case 'file': {
      // One line item per recipient, in the order the seed gives: how line items are grouped is not the order.
      const order = shuffled(inv.recipients, inv.seed);
      const body = {
        ...(inv.payment === undefined ? {} : { payment_method_id: methods[inv.payment % methods.length] }),
        line_items: order.map((r, i) => ({ id: i + 1, product: shirt.id, quantity: r.quantity, attributes: { color: shirt.color, size: size(r) } })),
        shipping_orders: order.map((r, i) => ({ recipient: Object.fromEntries(FIELDS.map((f) => [f, r[f]])), line_items: [{ id: i + 1, quantity: r.quantity }] })),
      };
      const file = join(dir, `order-${inv.seed}.json`);
      writeFileSync(file, JSON.stringify(body));
      return ['orders', 'create', '--file', file, '--yes'];
    }
    case 'list': {
      const columns = shuffled([...FIELDS, 'size', 'quantity'] as const, inv.seed);
      const cell = (r: Recipient, c: (typeof columns)[number], i: number) => {
        const value = c === 'size' ? size(r) : c === 'quantity' ? String(r.quantity) : r[c];
        return `"${respelled(value, inv.seed + i)}"`;
      };
      const rows = shuffled(inv.recipients, inv.seed + 7).map((r, i) => columns.map((c) => cell(r, c, i)).join(','));
      const header = columns.map((c) => (inv.seed % 2 === 0 ? c.toUpperCase().replace('_', ' ') : c)).join(',');
      const file = join(dir, `list-${inv.seed}-${inv.form.batchSize ?? 0}.csv`);
      writeFileSync(file, `${header}\r\n${rows.join('\r\n')}\r\n`);
      const batch = inv.form.batchSize === undefined ? [] : ['--batch-size', String(inv.form.batchSize)];
      return ['orders', 'create', '--product', String(shirt.id), '--attr', `color=${shirt.color}`, '--recipients', file, ...batch, ...payment, '--yes'];
    }
  }
}

/** A token of its own for acme, as a CI job gets (the password grant of the sandbox's private app). */
async function freshToken(): Promise<string> {
  const response = await fetch(`${sandbox().url}/o/token/`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('sandbox-private-app:sandbox-private-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=password&username=buyer%40example.com&password=sandbox-password',
  });
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

async function run(inv: Invocation, machine: string): Promise<{ result: Result; posts: number }> {
  const token = inv.signIn === 'fresh-token' ? await freshToken() : 'sandbox-token';
  const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), argsOf(inv, tempDir()), { env: { MERCH_CONFIG_DIR: machine, MERCH_TOKEN: token } }));
  return { result, posts: requests.filter((r) => r.method === 'POST' && /^\/v1\/orders\/?$/.test(r.path)).length };
}

/** How many of the account's orders hold each recipient (by first name), for the recipients whose names start with `tag`: the sandbox's own store, whatever its answers show. */
async function ordersHolding(tag: string): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  for (const order of (await sandboxApi(sandbox(), '/_sandbox/orders')).body as { shipping_orders: { first_name: string }[] }[]) {
    for (const so of order.shipping_orders) if (so.first_name.toLowerCase().startsWith(tag.toLowerCase())) held.set(so.first_name.toLowerCase(), (held.get(so.first_name.toLowerCase()) ?? 0) + 1);
  }
  return held;
}

let samples = 0;

const recipientsArb = (tag: string, max: number) =>
  fc.array(
    fc.record({
      last_name: fc.constantFrom('Lee', 'Ek', "O'Neil", 'Ng'),
      line_1: fc.constantFrom('1 Main Street', '2 High St', '3 Low Avenue, Apt 4'),
      city: fc.constantFrom('Austin', 'Boston'),
      state: fc.constantFrom('TX', 'MA'),
      postal_code: fc.constantFrom('78701', '02101'),
      size: fc.nat(5),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: max },
  ).map((rows) => rows.map((r, i): Recipient => ({ ...r, first_name: `${tag}${String.fromCharCode(97 + i)}`, country: 'US' })));

/** Forms a recipient set can take; a single-recipient set can be flags too. */
const formArb = (n: number): fc.Arbitrary<Form> =>
  fc.oneof(
    ...(n === 1 ? [fc.constant<Form>({ kind: 'flags' }), fc.constant<Form>({ kind: 'item' })] : []),
    fc.constant<Form>({ kind: 'file' }),
    fc.constant<Form>({ kind: 'list' }),
    fc.integer({ min: 1, max: 2 }).map((batchSize): Form => ({ kind: 'list', batchSize })),
  );

/** Whether B finds A's order by B's own look-up: a list looks through the account; a single order looks its external id up, which is A's when A went as one order. */
function findable(a: Form, b: Form): boolean {
  return b.kind === 'list' || !(a.kind === 'list' && a.batchSize !== undefined);
}

/** A service drawn from the register's switches that keep what identity reads (docs/service-assumptions.md). */
const serviceArb: fc.Arbitrary<SandboxOptions> = fc.record({
  duplicateOrder: fc.constantFrom('drf', '409', 'field', '500', 'existing', 'accepted'),
  createAnswer: fc.constantFrom('record', 'id', 'accepted-empty'),
  orderRecords: fc.subarray(['slim-list', 'standardised-addresses', 'interface-parts']),
  idsAsStrings: fc.boolean(),
  pageCap: fc.constantFrom(100, 7),
  pagination: fc.constantFrom('limit-offset', 'page-number'),
}) as fc.Arbitrary<SandboxOptions>;

/** Runs `work` against a sandbox of these options, started for it and closed after. */
async function onService<T>(options: SandboxOptions, work: () => Promise<T>): Promise<T> {
  const started = await startSandbox({ port: 0, seed: 1, catalog: 200, quiet: true, eventDelayMs: 3_600_000, ...options });
  sandbox = () => started;
  try {
    return await work();
  } finally {
    sandbox = defaults;
    await started.close();
  }
}

const invocationPair = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.nat(1_000_000), fc.nat(1_000_000))
  .chain(([n, seedA, seedB]) => {
    const tag = `Idn${samples++}x`;
    return fc.record({
      tag: fc.constant(tag),
      recipients: recipientsArb(tag, n),
      seeds: fc.constant([seedA, seedB] as const),
    });
  })
  .chain(({ tag, recipients, seeds }) =>
    fc.record({
      tag: fc.constant(tag),
      recipients: fc.constant(recipients),
      formA: formArb(recipients.length),
      formB: formArb(recipients.length),
      signInB: fc.constantFrom<SignIn>('sandbox-token', 'fresh-token'),
      paymentA: fc.option(fc.nat(5), { nil: undefined }),
      paymentB: fc.option(fc.nat(5), { nil: undefined }),
      newDefault: fc.option(fc.nat(5), { nil: undefined }),
      freshMachine: fc.boolean(),
      service: serviceArb,
      seeds: fc.constant(seeds),
    }),
  )
  .filter((p) => findable(p.formA, p.formB));

describe('orders create: what makes two orders the same (issue 40)', () => {
  it('an identity-keeping transformation finds the order and sends nothing, on this machine and a fresh one', async () => {
    await fc.assert(
      fc.asyncProperty(invocationPair, (p) => onService(p.service, async () => {
        const machine = tempDir('merch-machine-');
        const a: Invocation = { recipients: p.recipients, form: p.formA, signIn: 'sandbox-token', payment: p.paymentA, seed: p.seeds[0] };
        const first = await run(a, machine);
        expect(first.result.code, first.result.stderr).toBe(0);
        expect(first.posts).toBeGreaterThan(0);
        // `payment-methods set-default` between the runs (example 1).
        if (p.newDefault !== undefined) {
          const id = methods[p.newDefault % methods.length]!;
          expect((await sandboxApi(sandbox(), `/v1/payment-methods/${id}`, { method: 'PATCH', body: { is_default: true } })).status).toBeLessThan(300);
        }
        const b: Invocation = { recipients: p.recipients, form: p.formB, signIn: p.signInB, payment: p.paymentB, seed: p.seeds[1] };
        const second = await run(b, p.freshMachine ? tempDir('merch-machine-') : machine);
        expect(second.result.code, second.result.stderr).toBe(0);
        expect(second.posts, second.result.stderr).toBe(0);
        expect(second.result.stderr).toMatch(/already created|not sent again|already in/);
        // No recipient row is in two orders.
        const held = await ordersHolding(p.tag);
        expect([...held.values()].every((n) => n === 1), JSON.stringify([...held])).toBe(true);
        expect(held.size).toBe(p.recipients.length);
      })),
      { numRuns: FULL ? 60 : 12, seed: 4040, endOnFailure: true },
    );
  });

  it('an identity-changing transformation (another recipient, quantity or size) makes a new order', async () => {
    const change = fc.constantFrom('recipient', 'quantity', 'size');
    await fc.assert(
      fc.asyncProperty(invocationPair, change, (p, what) => onService(p.service, async () => {
        const machine = tempDir('merch-machine-');
        const a: Invocation = { recipients: p.recipients, form: p.formA, signIn: 'sandbox-token', seed: p.seeds[0] };
        expect((await run(a, machine)).result.code).toBe(0);
        const changed = p.recipients.map((r, i) =>
          i > 0 ? r : what === 'recipient' ? { ...r, first_name: `${r.first_name}z` } : what === 'quantity' ? { ...r, quantity: r.quantity + 1 } : { ...r, size: r.size + 1 },
        );
        // A size that is the same after wrapping is not a change.
        fc.pre(what !== 'size' || shirt.sizes[p.recipients[0]!.size % shirt.sizes.length] !== shirt.sizes[changed[0]!.size % shirt.sizes.length]);
        const b: Invocation = { recipients: changed, form: p.formB, signIn: p.signInB, seed: p.seeds[1] };
        const second = await run(b, p.freshMachine ? tempDir('merch-machine-') : machine);
        expect(second.result.code, second.result.stderr).toBe(0);
        expect(second.posts, second.result.stderr).toBeGreaterThan(0);
      })),
      { numRuns: FULL ? 40 : 8, seed: 4041, endOnFailure: true },
    );
  });
});
