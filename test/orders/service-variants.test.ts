import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { merch, type Result } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { tsv } from '../support/output.js';

// Issue 28's examples, each against the sandbox switch that makes the service answer that
// way ("The service we cannot see"): merch orders nothing twice and reports nothing untrue,
// and where it cannot tell, it stops and says what it could not tell. Each "machine" is a
// config directory of its own (its own journal). The truth is read from the sandbox's store
// (/_sandbox/orders), whatever its answers show.

const services = {
  noShippingOrders: useSandbox({ orderRecords: ['no-shipping-orders'] }),
  shippingOrdersAbsent: useSandbox({ orderRecords: ['shipping-orders-absent'] }),
  standardised: useSandbox({ orderRecords: ['standardised-addresses'] }),
  noExternalId: useSandbox({ orderRecords: ['no-external-id'] }),
  accepted: useSandbox({ duplicateOrder: 'accepted', faults: 1, faultKinds: ['drop_after'] } satisfies SandboxOptions),
  acceptedQuiet: useSandbox({ duplicateOrder: 'accepted' }),
  empty202: useSandbox({ createAnswer: 'accepted-empty' }),
  truncated: useSandbox({ createAnswer: 'truncated' }),
  error500After: useSandbox({ faults: 1, faultKinds: ['status_500_after'] }),
  duplicate500: useSandbox({ duplicateOrder: '500' }),
  interfaceParts: useSandbox({ orderRecords: ['interface-parts'], idsAsStrings: true }),
  pageLimit: useSandbox({ pageLimitMax: 50 }),
  pageCap: useSandbox({ pageCap: 7, pageCount: 'page' }),
  money: useSandbox({ money: 'no-display', attributeExtras: true }),
  decimalMoney: useSandbox({ money: 'decimal-amount' }),
};

let shirt: { id: number; color: string; sizes: string[] };
beforeAll(async () => {
  const products = (await sandboxApi(services.standardised(), '/v1/custom-products/?limit=100')).body.results;
  const p = products.find((x: any) => x.available_attributes.sizes.length > 1);
  shirt = { id: p.id, color: p.available_attributes.colors[0].name, sizes: p.available_attributes.sizes.map((s: { name: string }) => s.name) };
});

const HEADER = 'first_name,last_name,line_1,city,state,postal_code,country,size';
function list(tag: string, n: number, street = 'Main Street, Apt 2'): string {
  const file = join(tempDir(), 'guests.csv');
  const rows = Array.from({ length: n }, (_, i) => `${tag}${i + 1},Guest,"${i + 1} ${street}",Austin,TX,78701,United States,${shirt.sizes[i % shirt.sizes.length]}`);
  writeFileSync(file, `${HEADER}\n${rows.join('\n')}\n`);
  return file;
}
const listArgs = (csv: string, ...extra: string[]) => ['orders', 'create', '--product', String(shirt.id), '--attr', `color=${shirt.color}`, '--recipients', csv, '--yes', ...extra];
const singleArgs = (name: string, ...extra: string[]) => [
  'orders', 'create', '--product', String(shirt.id), '--quantity', '2', '--attr', `color=${shirt.color}`, '--attr', `size=${shirt.sizes[0]}`,
  '--recipient', `first_name=${name},last_name=Lee,line_1=1 Main Street,line_2=Apartment 2,city=Austin,state=TX,postal_code=78701,country=US`, '--yes', ...extra,
];

/** A run on a machine: `dir` is its config directory (its journal). */
function on(sandbox: Sandbox, dir: string, argv: string[]): Promise<Result> {
  return merch(sandbox, argv, { env: { MERCH_CONFIG_DIR: dir } });
}

/** The orders the sandbox holds whose recipients' first names start with `tag` (case aside), and the guests in more than one. */
async function truth(sandbox: Sandbox, tag: string): Promise<{ orders: any[]; twice: string[] }> {
  const all: any[] = (await sandboxApi(sandbox, '/_sandbox/orders')).body;
  const orders = all.filter((o) => o.shipping_orders.some((so: any) => so.first_name.toLowerCase().startsWith(tag.toLowerCase())));
  const seen = new Map<string, number>();
  for (const o of orders) for (const so of o.shipping_orders) seen.set(so.first_name.toLowerCase(), (seen.get(so.first_name.toLowerCase()) ?? 0) + 1);
  return { orders, twice: [...seen].filter(([, n]) => n > 1).map(([name]) => name) };
}

describe('1. order records without shipping orders', () => {
  for (const [name, service] of [['shipping_orders: []', services.noShippingOrders], ['no shipping_orders key', services.shippingOrdersAbsent]] as const) {
    it(`${name}: the machine that sent the list knows its rows (exit 0, nothing sent); another machine stops, exit 5, sends nothing`, async () => {
      const csv = list(`Ns${name.length}`, 3);
      const machine = tempDir();
      const first = await on(service(), machine, listArgs(csv));
      expect(first.code, first.stderr).toBe(0);
      const rerun = await on(service(), machine, listArgs(csv));
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stderr).toContain('3 rows of 3 already in 1 earlier order of the run');
      expect(rerun.stderr).toContain('0 created, 1 existing (3 recipients)');
      const other = await on(service(), tempDir(), listArgs(csv));
      expect(other.code, other.stderr).toBe(5);
      const orderId = (await truth(service(), `Ns${name.length}`)).orders[0].id;
      expect(other.stderr).toContain(`error: order ${orderId} (external id `);
      expect(other.stderr).toContain('its record cannot show which rows it holds (it lacks shipping');
      expect(other.stderr).toContain('nothing was sent');
      expect(other.stderr).toContain(`hint: check that order (merch orders get ${orderId}); once you know the rows it could not place were not sent, run again with --assume-unsent`);
      const after = await truth(service(), `Ns${name.length}`);
      expect(after.orders).toHaveLength(1);
      expect(after.twice).toEqual([]);
    });
  }

  it('a single order rerun on another machine is "cannot be compared", never "differs"; on its own machine it is the same order', async () => {
    const service = services.noShippingOrders();
    const machine = tempDir();
    const first = await on(service, machine, singleArgs('Single'));
    expect(first.code, first.stderr).toBe(0);
    const again = await on(service, machine, singleArgs('Single'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already created: order');
    const other = await on(service, tempDir(), singleArgs('Single'));
    expect(other.code, other.stderr).toBe(5);
    expect(other.stderr).toContain("and the service's record of it has no shipping orders for its 1 line item, so it cannot be compared");
    expect(other.stderr).not.toContain('differs');
    expect((await truth(service, 'Single')).orders).toHaveLength(1);
  });
});

describe('2. a service that standardises addresses', () => {
  it('a rerun of the list on another machine matches every row (nothing sent); a single order rerun is the same order', async () => {
    const service = services.standardised();
    const csv = list('Std', 4);
    const first = await on(service, tempDir(), listArgs(csv, '--batch-size', '2'));
    expect(first.code, first.stderr).toBe(0);
    const stored = (await truth(service, 'Std')).orders[0].shipping_orders[0];
    expect(stored.address.line_1).toBe('1 MAIN ST APT 2');
    expect(stored.address.postal_code).toBe('78701-0001');
    expect(stored.address.country).toBe('US');
    const rerun = await on(service, tempDir(), listArgs(csv));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('4 rows of 4 already in 2 earlier orders of the run');
    expect((await truth(service, 'Std')).orders).toHaveLength(2);

    const single = await on(service, tempDir(), singleArgs('Stdsingle'));
    expect(single.code, single.stderr).toBe(0);
    const again = await on(service, tempDir(), singleArgs('Stdsingle'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('the same order, not placed again');
    expect((await truth(service, 'Stdsingle')).orders).toHaveLength(1);
  });
});

describe('3. records without external_id', () => {
  it('a list sent in batches, rerun on a fresh machine without --batch-size: exit 5, nothing sent; on its own machine: nothing to send, exit 0', async () => {
    const service = services.noExternalId();
    // The account holds another order already: its records show no external id.
    expect((await on(service, tempDir(), singleArgs('Noidother'))).code).toBe(0);
    const csv = list('Noid', 5);
    const machine = tempDir();
    const refused = await on(service, machine, listArgs(csv, '--batch-size', '2'));
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toContain("the service's order records carry no external_id");
    expect((await truth(service, 'Noid')).orders.filter((o) => o.shipping_orders[0].first_name !== 'Noidother')).toHaveLength(0);
    const sent = await on(service, machine, listArgs(csv, '--batch-size', '2', '--assume-unsent'));
    expect(sent.code, sent.stderr).toBe(0);
    expect((await truth(service, 'Noid')).orders.filter((o) => o.shipping_orders[0].first_name !== 'Noidother')).toHaveLength(3);
    const fresh = await on(service, tempDir(), listArgs(csv));
    expect(fresh.code, fresh.stderr).toBe(5);
    expect(fresh.stderr).toContain('cannot find which of the account');
    const home = await on(service, machine, listArgs(csv));
    expect(home.code, home.stderr).toBe(0);
    expect(home.stderr).toContain('5 rows of 5 already in 3 earlier orders of the run');
    const after = await truth(service, 'Noid');
    expect(after.twice).toEqual([]);
    expect(after.orders.filter((o) => o.shipping_orders[0].first_name !== 'Noidother')).toHaveLength(3);
  });
});

describe('4. a lost answer, and a service that accepts a repeated external id', () => {
  it('the connection drops after every order POST: one order, reported as created; a rerun elsewhere finds it', async () => {
    const first = await on(services.accepted(), tempDir(), singleArgs('Lostacc'));
    expect(first.code, first.stderr).toBe(0);
    const made = await truth(services.accepted(), 'Lostacc');
    expect(made.orders).toHaveLength(1);
    expect(first.stderr).toContain(`created: order ${made.orders[0].id}`);
    expect(first.stderr).toContain('the answer was lost, and a look-up found the order it made');
    expect(tsv(first.stdout).find((r) => r[0] === 'order')?.[1]).toBe(String(made.orders[0].id));
  });

  it('a rerun on a fresh machine looks the external id up before sending: no second order', async () => {
    const service = services.acceptedQuiet();
    expect((await on(service, tempDir(), singleArgs('Repeat'))).code).toBe(0);
    const again = await on(service, tempDir(), singleArgs('Repeat'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('the same order, not placed again');
    const csv = list('Acclist', 3);
    expect((await on(service, tempDir(), listArgs(csv, '--batch-size', '1'))).code).toBe(0);
    expect((await on(service, tempDir(), listArgs(csv))).code).toBe(0);
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
    it(`${name}: a look-up finds the order, reported created; a batched run goes past its first batch`, async () => {
      const tag = `Ans${name.length}`;
      const single = await on(service(), tempDir(), singleArgs(`${tag}one`));
      expect(single.code, single.stderr).toBe(0);
      expect(single.stderr).toMatch(/created: order \d+/);
      const csv = list(tag, 3);
      const batched = await on(service(), tempDir(), listArgs(csv, '--batch-size', '1'));
      expect(batched.code, batched.stderr).toBe(0);
      expect(batched.stderr).toContain('3 created (3 recipients), 0 existing, 0 refused');
      const rerun = await on(service(), tempDir(), listArgs(csv));
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.stderr).toContain('0 created, 3 existing');
      expect((await truth(service(), tag)).twice).toEqual([]);
      expect((await truth(service(), `${tag}one`)).orders).toHaveLength(1);
    });
  }

  it('500 for a repeated external id (an IntegrityError): a rerun finds the order, exit 0', async () => {
    const service = services.duplicate500();
    const csv = list('Dup500', 2);
    expect((await on(service, tempDir(), listArgs(csv, '--batch-size', '1'))).code).toBe(0);
    const single = await on(service, tempDir(), singleArgs('Dup500one'));
    expect(single.code).toBe(0);
    const again = await on(service, tempDir(), singleArgs('Dup500one'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('the same order, not placed again');
    expect((await truth(service, 'Dup500')).twice).toEqual([]);
  });
});

describe('6. never stricter than the service', () => {
  it('shipping-order parts in the 2.3 shape and ids as numeric strings: a rerun matches every row', async () => {
    const service = services.interfaceParts();
    const csv = list('Parts', 3);
    const first = await on(service, tempDir(), listArgs(csv, '--batch-size', '2'));
    expect(first.code, first.stderr).toBe(0);
    const rerun = await on(service, tempDir(), listArgs(csv));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('3 rows of 3 already in 2 earlier orders');
    const single = singleArgs('Partsone');
    expect((await on(service, tempDir(), single)).code).toBe(0);
    const again = await on(service, tempDir(), single);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('the same order, not placed again');
  });

  it('a page cap of 50 that refuses limit=100: --all and a recipients list work, each limit refused once', async () => {
    const service = services.pageLimit();
    const listed = await merch(service, ['products', 'list', '--all', '--query', 'length(@)']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(Number(listed.stdout)).toBe(200);
    const refusals = service.requests.filter((r) => r.status === 400 && r.path === '/v1/supplier-products');
    expect(refusals).toHaveLength(1);
    const csv = list('Cap50', 2);
    const machine = tempDir();
    expect((await on(service, machine, listArgs(csv))).code).toBe(0);
    const rerun = await on(service, machine, listArgs(csv));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('2 rows of 2 already in 1 earlier order');
  });

  it('a silent cap of 7 with count counting the page: --all prints every record; a rerun finds orders past the first page', async () => {
    const service = services.pageCap();
    const all = await merch(service, ['products', 'list', '--all', '--query', 'length(@)']);
    expect(all.code, all.stderr).toBe(0);
    expect(Number(all.stdout)).toBe(200);
    let walked = 0;
    for (let path: string | null = '/v1/custom-products/?limit=100'; path !== null; ) {
      const page: any = (await sandboxApi(service, path)).body;
      walked += page.results.length;
      path = page.next === null ? null : new URL(page.next).pathname + new URL(page.next).search;
    }
    const custom = await merch(service, ['custom-products', 'list', '--all', '--query', 'length(@)']);
    expect(Number(custom.stdout)).toBe(walked);
    // More than a page of other orders first, so the run's orders are past the first page.
    for (let i = 0; i < 9; i++) expect((await on(service, tempDir(), singleArgs(`Capfill${i}`))).code).toBe(0);
    const csv = list('Cap7', 3);
    expect((await on(service, tempDir(), listArgs(csv, '--batch-size', '1'))).code).toBe(0);
    const rerun = await on(service, tempDir(), listArgs(csv));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toContain('3 rows of 3 already in 3 earlier orders');
    expect((await truth(service, 'Cap7')).orders).toHaveLength(3);
  });

  it('money without display shows its amount in the currency\'s minor unit; amount as a decimal string is shown as given; has_sizes is ignored', async () => {
    const plain = await merch(services.money(), ['custom-products', 'list', '--limit', '3', '--format', 'csv']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/\d+\.\d{2} USD/);
    expect(plain.stdout).not.toMatch(/,\d{3,} USD/);
    const priced = await on(services.money(), tempDir(), singleArgs('Money', '--dry-run'));
    expect(priced.code, priced.stderr).toBe(0);
    expect(priced.stdout + priced.stderr).not.toContain('unknown');
    const decimal = await merch(services.decimalMoney(), ['custom-products', 'get', String(shirt.id)]);
    expect(decimal.code, decimal.stderr).toBe(0);
    const raw = (await sandboxApi(services.decimalMoney(), `/v1/custom-products/${shirt.id}`)).body.prices.price.amount;
    expect(typeof raw).toBe('string');
    expect(decimal.stdout).toContain(`${raw} USD`);
  });
});

describe('the journal keeps what each batch sent', () => {
  it('each batch entry lists its shipping orders by content', async () => {
    const machine = tempDir();
    const csv = list('Jrn', 3);
    expect((await on(services.standardised(), machine, listArgs(csv, '--batch-size', '2'))).code).toBe(0);
    const entries = readFileSync(join(machine, 'orders-journal.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const created = entries.filter((e) => e.state === 'created');
    expect(created.map((e) => e.shipments.length)).toEqual([2, 1]);
    for (const e of created) for (const digest of e.shipments) expect(digest).toMatch(/^[0-9a-f]{16}$/);
  });
});
