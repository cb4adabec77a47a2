import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../../../src/sandbox/index.js';
import { merch, type Result } from '../../../support/run-merch.js';
import { sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp-dir.js';
import { tsv } from '../../../support/output.js';

// Issue 28's examples as only the whole CLI shows them, over real HTTP, each against the
// sandbox switch that makes the service answer that way ("The service we cannot see"): the
// lines said, the hint, the exit codes, --all's paging and money. The cases themselves (every
// variant: nothing ordered twice, nothing untrue reported) are the use cases', in memory:
// test/orders/create/service-variants.test.ts. Each "machine" is a config directory of its own
// (its own journal). The truth is read from the sandbox's store (/_sandbox/orders).

const services = {
  noShippingOrders: useSandbox({ orderRecords: ['no-shipping-orders'] }),
  accepted: useSandbox({ duplicateOrder: 'accepted', faults: 1, faultKinds: ['drop_after'] } satisfies SandboxOptions),
  pageLimit: useSandbox({ pageLimitMax: 50 }),
  pageCap: useSandbox({ pageCap: 7, pageCount: 'page' }),
  money: useSandbox({ money: 'no-display', attributeExtras: true }),
  decimalMoney: useSandbox({ money: 'decimal-amount' }),
};

let shirt: { id: number; color: string; sizes: string[] };
beforeAll(async () => {
  const products = (await sandboxApi(services.noShippingOrders(), '/v1/custom-products/?limit=100')).body.results;
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
  it('another machine than the one that sent the list stops: exit 5, the order named, the hint, nothing sent', async () => {
    const service = services.noShippingOrders();
    const csv = list('Nshint', 3);
    const first = await on(service, tempDir(), listArgs(csv));
    expect(first.code, first.stderr).toBe(0);
    const other = await on(service, tempDir(), listArgs(csv));
    expect(other.code, other.stderr).toBe(5);
    const orderId = (await truth(service, 'Nshint')).orders[0].id;
    expect(other.stderr).toContain(`error: order ${orderId} (external id `);
    expect(other.stderr).toContain('its record cannot show which rows it holds (it lacks shipping');
    expect(other.stderr).toContain('nothing was sent');
    expect(other.stderr).toContain(`hint: check that order (merch orders get ${orderId}); once you know the rows it could not place were not sent, run again with --assume-unsent`);
    expect((await truth(service, 'Nshint')).orders).toHaveLength(1);
  });

  it('a single order placed again on another machine: exit 5, "cannot be compared", never "differs"', async () => {
    const service = services.noShippingOrders();
    expect((await on(service, tempDir(), singleArgs('Single'))).code).toBe(0);
    const other = await on(service, tempDir(), singleArgs('Single'));
    expect(other.code, other.stderr).toBe(5);
    expect(other.stderr).toContain("and the service's record of it has no shipping orders for its 1 line item, so it cannot be compared");
    expect(other.stderr).not.toContain('differs');
    expect((await truth(service, 'Single')).orders).toHaveLength(1);
  });
});

describe('4. a lost answer', () => {
  it('the connection drops after every order POST: one order, said to be created, its answer lost and found', async () => {
    const first = await on(services.accepted(), tempDir(), singleArgs('Lostacc'));
    expect(first.code, first.stderr).toBe(0);
    const made = await truth(services.accepted(), 'Lostacc');
    expect(made.orders).toHaveLength(1);
    expect(first.stderr).toContain(`created: order ${made.orders[0].id}`);
    expect(first.stderr).toContain('the answer was lost, and a look-up found the order it made');
    expect(tsv(first.stdout).find((r) => r[0] === 'order')?.[1]).toBe(String(made.orders[0].id));
  });
});

describe('6. never stricter than the service', () => {
  it('a page cap of 50 that refuses limit=100: --all works, the limit refused once', async () => {
    const service = services.pageLimit();
    const listed = await merch(service, ['products', 'list', '--all', '--query', 'length(@)']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(Number(listed.stdout)).toBe(200);
    const refusals = service.requests.filter((r) => r.status === 400 && r.path === '/v1/supplier-products');
    expect(refusals).toHaveLength(1);
  });

  it('a silent cap of 7 with count counting the page: --all prints every record', async () => {
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
