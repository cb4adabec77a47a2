import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { merchTty } from '../support/process.js';
import { rewritingProxy } from '../support/proxy.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

// The order wizard through real prompts on a terminal (issue 19.6d, 19.6j; issue 21.2):
// a recipients list without --product starts the wizard, which skips the recipients; a
// country is shown as it is stored; the default payment method is the one rule of
// orders/payment-method.ts.

const sandbox = useSandbox();
const enter = '\r';

interface Product {
  id: number;
  name: string;
  available_attributes: { colors: { name: string }[]; sizes: { name: string }[] };
}

let shirt: Product;

beforeAll(async () => {
  const products = (await sandboxApi<{ results: Product[] }>(sandbox(), '/v1/custom-products/?limit=100')).body.results;
  shirt = products.find((p) => p.available_attributes.sizes.length > 1 && p.available_attributes.colors.length > 1)!;
  expect(shirt).toBeDefined();
});

describe('the wizard', () => {
  it('--recipients FILE without --product on a terminal: the wizard asks for the rest, not for recipients, and the list is placed', async () => {
    const list = join(tempDir('merch-wizard-answers-'), 'staff.csv');
    writeFileSync(list, `first_name,last_name,line_1,city,state,postal_code,country,size\nAl,One,1 A St,Salem,OR,97301,US,${shirt.available_attributes.sizes[0]!.name}\nBe,Two,2 B St,Bend,OR,97701,US,${shirt.available_attributes.sizes[1]!.name}\n`);
    const run = merchTty(sandbox(), ['orders', 'create', '--recipients', list]);
    await run.waitFor(/Custom product \(a name to search for, or its id\)/);
    run.type(String(shirt.id) + enter);
    await run.waitFor(/\? Color/);
    run.type(enter);
    await run.waitFor(/Quantity for each recipient/);
    run.type(enter);
    await run.waitFor(/\? Payment method/);
    run.type(enter);
    await run.waitFor(/Place this order\?/);
    expect(run.screen()).not.toMatch(/\? Recipients|\? Size/); // the list gives them
    run.type('y' + enter);
    const result = await run.done;
    expect(result.code, run.screen()).toBe(0);
    const id = /order (\d+)/i.exec(run.screen())![1]!;
    const order = (await sandboxApi(sandbox(), `/v1/orders/${id}`)).body;
    expect(order.shipping_orders.map((s: { first_name: string }) => s.first_name)).toEqual(['Al', 'Be']);
  }, 60_000);

  it('shows a country as it stores it: `ie` typed is IE', async () => {
    const run = merchTty(sandbox(), ['orders', 'create', '--product', String(shirt.id), '--quantity', '1', '--attr', `size=${shirt.available_attributes.sizes[0]!.name}`, '--attr', `color=${shirt.available_attributes.colors[0]!.name}`]);
    await run.waitFor(/\? Recipients/);
    run.type(enter); // type the addresses
    for (const [prompt, value] of [
      [/First name/, 'Ian'],
      [/Last name/, 'Doyle'],
      [/Email/, ''],
      [/Phone/, ''],
      [/Company/, ''],
      [/Line 1/, '1 Quay St'],
      [/Line 2/, ''],
      [/City/, 'Dublin'],
      [/State/, ''],
      [/Postal code/, 'D02'],
      [/Country/, 'ie'],
    ] as const) {
      await run.waitFor(prompt);
      run.type(value + enter);
    }
    await run.waitFor(/Add another recipient\?/);
    expect(run.screen()).toMatch(/Country IE\n/);
    expect(run.screen()).not.toMatch(/Country ie/);
    run.type('\u0003');
    expect((await run.done).code).toBe(130);
  }, 60_000);

  it('with several payment methods and none the default, none is called the default', async () => {
    // The sandbox always has a default: a proxy plays an account whose methods mark none.
    const proxy = await rewritingProxy(sandbox().url, (method, path, body) => {
      if (method !== 'GET' || path !== '/v1/payment-methods/') return body;
      for (const kind of ['card', 'us_bank_account']) for (const m of body[kind] ?? []) m.is_default = false;
      return body;
    });
    try {
      // The product left out: the wizard asks it, its attributes and the quantity, then the payment method.
      const run = merchTty(proxy, ['orders', 'create', '--recipient', 'first_name=A,last_name=B,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US']);
      await run.waitFor(/Custom product/);
      run.type(String(shirt.id) + enter);
      for (const question of [/\? Color/, /\? Size/, /Quantity/]) {
        await run.waitFor(question);
        run.type(enter);
      }
      await run.waitFor(/\? Payment method \(the account has no default: choose one\)/);
      expect(run.screen()).not.toContain('(default)');
      run.type('\u0003');
      expect((await run.done).code).toBe(130);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
