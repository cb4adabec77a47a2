import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { fieldErrorsOf } from '../../src/api/field-errors.js';
import { formatPath } from '../../src/contract/field-path.js';
import { BuildError } from '../../src/orders/create/builder.js';
import { OrderInvalid } from '../../src/orders/create/errors.js';
import { serviceAccount } from '../../src/commands/orders/service-ports.js';
import { AccountLookups, prepareOrder } from '../../src/orders/create/prepare.js';
import { TOKEN } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';

// The CLI and the sandbox judge order bodies alike: fast-check generates order requests,
// valid and broken in every way the rules name (and in the ways the interface leaves open),
// every field also given a value of another type. Each is judged by the CLI as
// `orders create --file` judges it (prepareOrder: the builder, the account's default payment
// method when the body names none, the account's data as the CLI fetches it, the rules) and
// by the sandbox over HTTP (given the same default: the body's own `payment_method_id`, of
// whatever type, is never replaced). They must agree on accept or refuse, and on the field
// paths named. Both sides call src/contract/order-rules.ts; what this holds them to is the
// adapters around it (issue 19.6h: a `payment_method_id` of 42 was replaced by the default).

const RUNS = 2_000;
const sandbox = useSandbox();

interface Product {
  id: number;
  available_attributes: { colors: { name: string }[]; sizes: { name: string }[] };
}

let products: Product[];
let paymentMethodIds: string[];
let defaultPaymentMethod: string;
let otherAccountsProduct: number;
let otherAccountsPaymentMethod: string;
let client: ApiClient;
let lookups: AccountLookups;

beforeAll(async () => {
  products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results;
  const methods = (await sandboxApi(sandbox(), '/v1/payment-methods/')).body;
  paymentMethodIds = [...methods.card, ...methods.us_bank_account].map((m: { id: string }) => m.id);
  defaultPaymentMethod = [...methods.card, ...methods.us_bank_account].find((m: { is_default?: boolean }) => m.is_default).id;
  client = new ApiClient({ baseUrl: sandbox().url, token: TOKEN, timeoutMs: 10_000, retries: 0, insecure: false });
  lookups = new AccountLookups(serviceAccount(client));
  otherAccountsProduct = (await sandboxApi(sandbox(), '/v1/custom-products/', { token: 'sandbox-token-2' })).body.results[0].id;
  otherAccountsPaymentMethod = (await sandboxApi(sandbox(), '/v1/payment-methods/', { token: 'sandbox-token-2' })).body.card[0].id;
});

type Body = Record<string, any>;
type Mutation = (body: Body, pick: (n: number) => number) => void;

const recipient = (i: number) => ({ first_name: `R${i}`, last_name: 'Lee', line_1: `${i} Main St`, city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' });

/** Every way the rules name to break an order, and what the interface leaves open. */
const mutations: Record<string, Mutation> = {
  'body not an object': (b) => {
    for (const key of Object.keys(b)) delete b[key];
    b.__replace = ['an', 'array'];
  },
  'no payment method': (b) => void delete b.payment_method_id,
  'payment method not a string': (b) => void (b.payment_method_id = 7),
  'blank payment method': (b) => void (b.payment_method_id = '  '),
  'unknown payment method': (b) => void (b.payment_method_id = 'pm_does_not_exist'),
  "another account's payment method": (b) => void (b.payment_method_id = otherAccountsPaymentMethod),
  'blank external id': (b) => void (b.external_id = ''),
  'external id not a string': (b) => void (b.external_id = 42),
  'no line items': (b) => void delete b.line_items,
  'empty line items': (b) => void (b.line_items = []),
  'line items not a list': (b) => void (b.line_items = { id: 1 }),
  'no shipping orders': (b) => void delete b.shipping_orders,
  'empty shipping orders': (b) => void (b.shipping_orders = []),
  'line item not an object': (b, pick) => void (b.line_items[pick(b.line_items.length)] = 'shirt'),
  'line item id not an integer': (b, pick) => void (b.line_items[pick(b.line_items.length)].id = 1.5),
  'duplicate line item id': (b) => {
    if (b.line_items.length > 1) b.line_items[1].id = b.line_items[0].id;
    else b.line_items.push({ ...b.line_items[0] });
  },
  'zero quantity': (b, pick) => void (b.line_items[pick(b.line_items.length)].quantity = 0),
  'negative quantity': (b, pick) => void (b.line_items[pick(b.line_items.length)].quantity = -2),
  'fractional quantity': (b, pick) => void (b.line_items[pick(b.line_items.length)].quantity = 2.5),
  'quantity as a string': (b, pick) => void (b.line_items[pick(b.line_items.length)].quantity = '2'),
  'product not an integer': (b, pick) => void (b.line_items[pick(b.line_items.length)].product = 'shirt'),
  'unknown product': (b, pick) => void (b.line_items[pick(b.line_items.length)].product = 987_654),
  "another account's product": (b, pick) => void (b.line_items[pick(b.line_items.length)].product = otherAccountsProduct),
  'attributes not an object': (b, pick) => void (b.line_items[pick(b.line_items.length)].attributes = 'M'),
  'attribute value not a string': (b, pick) => void (b.line_items[pick(b.line_items.length)].attributes.size = 3),
  'size not offered': (b, pick) => void (b.line_items[pick(b.line_items.length)].attributes.size = 'XXXXL'),
  'unknown attribute': (b, pick) => void (b.line_items[pick(b.line_items.length)].attributes.fabric = 'silk'),
  'attribute given twice (singular and plural)': (b, pick) => {
    const item = b.line_items[pick(b.line_items.length)];
    item.attributes.sizes = item.attributes.size;
  },
  'required attribute missing': (b, pick) => void delete b.line_items[pick(b.line_items.length)].attributes.color,
  'attribute in another case': (b, pick) => {
    const item = b.line_items[pick(b.line_items.length)];
    item.attributes.Size = String(item.attributes.size).toLowerCase();
    delete item.attributes.size;
  },
  'shipping order not an object': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)] = null),
  'shipping order without recipient': (b, pick) => void delete b.shipping_orders[pick(b.shipping_orders.length)].recipient,
  'recipient not an object': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].recipient = 'Ann'),
  'shipping order without line items': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].line_items = []),
  'shipping line item refers to no line item': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].line_items[0].id = 99),
  'shipping quantity not an integer': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].line_items[0].quantity = 0.5),
  'units not all shipped': (b, pick) => void (b.line_items[pick(b.line_items.length)].quantity += 1),
  'units shipped twice': (b, pick) => {
    const so = b.shipping_orders[pick(b.shipping_orders.length)];
    so.line_items[0].quantity += 1;
  },
  'line item listed twice in a shipping order (open: warned)': (b, pick) => {
    const so = b.shipping_orders[pick(b.shipping_orders.length)];
    const first = so.line_items[0];
    if (first.quantity > 1) {
      first.quantity -= 1;
      so.line_items.push({ id: first.id, quantity: 1 });
    }
  },
  'recipient without postal code (open)': (b, pick) => void delete b.shipping_orders[pick(b.shipping_orders.length)].recipient.postal_code,
  'recipient with a blank name (open)': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].recipient.last_name = ' '),
  'recipient field not a string': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].recipient.email = 5),
  'recipient key the interface does not have (open)': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].recipient.zip = '78701'),
  'unknown top-level key (open)': (b) => void (b.coupon = 'FREE'),
  'billing address without names (open)': (b) => void (b.billing_address = { line_1: '1 Main St', city: 'Austin', country: 'US' }),
  'billing address not an object': (b) => void (b.billing_address = 'same as shipping'),
  // Every field given a value of another type (issue 19.6h).
  'external_id of another type': (b, pick) => void (b.external_id = otherType(b.external_id ?? 'x', pick)),
  'payment_method_id of another type': (b, pick) => void (b.payment_method_id = otherType(b.payment_method_id, pick)),
  'billing_address of another type': (b, pick) => void (b.billing_address = otherType({}, pick)),
  'a billing field of another type': (b, pick) => void ((b.billing_address ??= { line_1: '1 Main St' }).city = otherType('Austin', pick)),
  'line_items of another type': (b, pick) => void (b.line_items = otherType(b.line_items, pick)),
  'a line item of another type': (b, pick) => void (b.line_items[pick(b.line_items.length)] = otherType({}, pick)),
  'line item id of another type': (b, pick) => void (b.line_items[pick(b.line_items.length)].id = otherType(1, pick)),
  'product of another type': (b, pick) => void (b.line_items[pick(b.line_items.length)].product = otherType(1, pick)),
  'quantity of another type': (b, pick) => void (b.line_items[pick(b.line_items.length)].quantity = otherType(1, pick)),
  'attributes of another type': (b, pick) => void (b.line_items[pick(b.line_items.length)].attributes = otherType({}, pick)),
  'an attribute value of another type': (b, pick) => void (b.line_items[pick(b.line_items.length)].attributes.color = otherType('x', pick)),
  'shipping_orders of another type': (b, pick) => void (b.shipping_orders = otherType(b.shipping_orders, pick)),
  'a shipping order of another type': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)] = otherType({}, pick)),
  'recipient of another type': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].recipient = otherType({}, pick)),
  'a recipient field of another type': (b, pick) => {
    const recipient = b.shipping_orders[pick(b.shipping_orders.length)].recipient;
    const fields = Object.keys(recipient);
    recipient[fields[pick(fields.length)]!] = otherType('x', pick);
  },
  'shipping line items of another type': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].line_items = otherType([], pick)),
  'a shipping line item of another type': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].line_items[0] = otherType({}, pick)),
  'shipping line item id of another type': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].line_items[0].id = otherType(1, pick)),
  'shipping quantity of another type': (b, pick) => void (b.shipping_orders[pick(b.shipping_orders.length)].line_items[0].quantity = otherType(1, pick)),
};

/** JSON's types: a value of one of them other than `like`'s, picked by `pick`. */
const TYPED_VALUES: unknown[] = [42, 2.5, '42', true, null, [], {}, [1]];
function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
}
function otherType(like: unknown, pick: (n: number) => number): unknown {
  const others = TYPED_VALUES.filter((value) => typeOf(value) !== typeOf(like));
  return structuredClone(others[pick(others.length)]);
}

/** A valid order over the account's real products: 1 to 3 line items, shipped to 1 to 3 recipients. */
function validOrder(choice: { items: number[]; recipients: number; sizes: number[]; colors: number[]; quantities: number[]; payment: number; externalId: boolean }, serial: number): Body {
  const lineItems = choice.items.map((p, i) => {
    const product = products[p % products.length]!;
    const { sizes, colors } = product.available_attributes;
    return {
      id: i + 1,
      product: product.id,
      quantity: choice.quantities[i]! * choice.recipients,
      attributes: { size: sizes[choice.sizes[i]! % sizes.length]!.name, color: colors[choice.colors[i]! % colors.length]!.name },
    };
  });
  const shippingOrders = Array.from({ length: choice.recipients }, (_, r) => ({
    recipient: recipient(r),
    line_items: lineItems.map((li, i) => ({ id: li.id, quantity: choice.quantities[i]! })),
  }));
  const body: Body = { payment_method_id: paymentMethodIds[choice.payment % paymentMethodIds.length], line_items: lineItems, shipping_orders: shippingOrders };
  if (choice.externalId) body.external_id = `agreement-${serial}`;
  return body;
}

const orderChoice = fc.record({
  items: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
  recipients: fc.integer({ min: 1, max: 3 }),
  sizes: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
  colors: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
  quantities: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 3, maxLength: 3 }),
  payment: fc.nat(),
  externalId: fc.boolean(),
});

const mutationNames = Object.keys(mutations);
const broken = fc.array(fc.tuple(fc.constantFrom(...mutationNames), fc.nat()), { maxLength: 3 });

/** The CLI's verdict on a `--file` body: prepareOrder, with the account's data as the CLI fetches it. */
async function cliVerdict(body: unknown): Promise<{ ok: boolean; paths: string[] }> {
  try {
    const prepared = await prepareOrder({ file: body, fileName: 'order.json' }, lookups);
    if (prepared.complete) return { ok: true, paths: [] };
    // an order without line items or shipping orders is incomplete: those are the fields named
    return { ok: false, paths: prepared.missing.map((m) => (m.piece === 'recipients' ? 'shipping_orders' : 'line_items')).sort() };
  } catch (err) {
    if (err instanceof OrderInvalid) return { ok: false, paths: [...new Set(err.issues.map((i) => i.path))].sort() };
    if (err instanceof BuildError) return { ok: false, paths: [''] };
    throw err;
  }
}

/** The sandbox's verdict on the body the CLI sends: with the account's default payment method only where the body has no `payment_method_id` at all. */
async function sandboxVerdict(input: unknown): Promise<{ ok: boolean; paths: string[]; status: number }> {
  const body = typeof input === 'object' && input !== null && !Array.isArray(input) && !('payment_method_id' in input) ? { ...input, payment_method_id: defaultPaymentMethod } : input;
  const { status, body: answer } = await sandboxApi(sandbox(), '/v1/orders/', { method: 'POST', body });
  const paths = status === 400 ? [...new Set(fieldErrorsOf(answer).map((e) => formatPath(e.path)))].sort() : [];
  return { ok: status === 201, paths, status };
}

describe('the CLI and the sandbox agree on order requests', () => {
  it(`${RUNS} generated bodies, valid and broken: the same verdict and the same field paths`, async () => {
    let serial = 0;
    const seen = new Map<string, { accepted: number; refused: number }>();
    await fc.assert(
      fc.asyncProperty(orderChoice, broken, async (choice, breaks) => {
        let body: Body | unknown = validOrder(choice, serial++);
        const applied: string[] = [];
        for (const [name, n] of breaks) {
          try {
            mutations[name]!(body as Body, (length) => n % Math.max(1, length));
            applied.push(name);
          } catch {
            continue; // an earlier break removed what this one breaks
          }
          if ((body as Body).__replace) {
            body = (body as Body).__replace;
            break; // nothing is left to break further
          }
        }
        const cli = await cliVerdict(body);
        const service = await sandboxVerdict(body);
        const label = applied.length === 0 ? 'valid' : applied.join(' + ');
        const tally = seen.get(label) ?? { accepted: 0, refused: 0 };
        tally[cli.ok ? 'accepted' : 'refused']++;
        seen.set(label, tally);
        expect({ ok: service.ok, paths: service.paths }, `${label}: ${JSON.stringify(body)} -> sandbox ${service.status}`).toEqual(cli);
      }),
      { numRuns: RUNS, seed: 20_261_123 },
    );
    // The generator reached every rule, and both verdicts.
    const reached = new Set([...seen.keys()].flatMap((label) => label.split(' + ')));
    expect(mutationNames.filter((name) => !reached.has(name))).toEqual([]);
    const totals = [...seen.values()].reduce((sum, t) => ({ accepted: sum.accepted + t.accepted, refused: sum.refused + t.refused }), { accepted: 0, refused: 0 });
    expect(totals.accepted).toBeGreaterThan(RUNS / 10);
    expect(totals.refused).toBeGreaterThan(RUNS / 10);
  }, 120_000);
});
