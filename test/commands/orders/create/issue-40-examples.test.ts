import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { merch } from '../../../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { scriptedPrompter } from '../../../support/scripted-prompter.js';
import { tempDir } from '../../../support/temp-dir.js';

// Issue 40's examples 3, 5 and 6 as a user meets them, against the sandbox (examples 1, 2
// and 4 are cases of the metamorphic test, identity.test.ts; 7: big-ids.test.ts; 8:
// test/auth/not-authenticated.test.ts; 9: test/failures/kept-connections.test.ts).

const README_ORDER = ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', 'examples/staff.csv'];
const creates = (requests: { method: string; path: string }[]) => requests.filter((r) => r.method === 'POST' && /^\/v1\/orders\/?$/.test(r.path)).length;

describe('example 3: the wizard places the README\'s order; the same from flags finds it', () => {
  const sandbox = useSandbox();

  it('with the default payment method, or the same method named: existing, nothing sent, on this machine or another', async () => {
    const machine = tempDir('merch-machine-');
    // The wizard: the list is given, the rest is asked (product, colour, payment method: the default).
    const wizard = scriptedPrompter(['100003', 'Black', '', true]);
    const placed = await merch(sandbox(), ['orders', 'create', '--recipients', 'examples/staff.csv'], { prompter: wizard, tty: true, env: { MERCH_CONFIG_DIR: machine } });
    expect(wizard.asked).toEqual(['Custom product (a name to search for, or its id)', 'Color', 'Payment method', 'Place this order?']);
    expect(placed.code, placed.stderr).toBe(0);
    expect(placed.stderr).toContain('1 created (3 recipients)');
    const methods = (await sandboxApi(sandbox(), '/v1/payment-methods/')).body as Record<string, { id: string; is_default?: boolean }[]>;
    const fallback = Object.values(methods).flat().find((m) => m.is_default)!.id;
    for (const [extra, dir] of [[['--payment-method', fallback], machine], [[], machine], [['--payment-method', fallback], tempDir('merch-machine-')]] as const) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), [...README_ORDER, ...extra, '--yes'], { env: { MERCH_CONFIG_DIR: dir } }));
      expect(result.code, result.stderr).toBe(0);
      expect(creates(requests)).toBe(0);
      expect(result.stderr).toContain('0 created, 1 existing (3 recipients), 0 refused');
      expect(result.stderr).not.toContain('has changed since');
    }
  });
});

describe('example 5: a create answered 2xx with an order that is not the one sent (--duplicate-order existing)', () => {
  const sandbox = useSandbox({ duplicateOrder: 'existing', orderFilters: 'ignored' });

  it('is not reported created: exit 5 naming the difference and the order; the user\'s order was not placed', async () => {
    const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results as { id: number; available_attributes: { colors: { name: string }[]; sizes: { name: string }[] } }[];
    const [first, second] = products.filter((p) => p.available_attributes.sizes.length > 0 && p.available_attributes.colors.length > 0);
    const args = (p: typeof first) => ['orders', 'create', '--product', String(p!.id), '--quantity', '1', '--attr', `color=${p!.available_attributes.colors[0]!.name}`, '--attr', `size=${p!.available_attributes.sizes[0]!.name}`, '--recipient', 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US', '--external-id', 'reused-5', '--yes'];
    const earlier = await merch(sandbox(), args(first));
    expect(earlier.code, earlier.stderr).toBe(0);
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), args(second)));
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(new RegExp(`is already order \\d+|answered the create of external id reused-5 with order \\d+, which is not what was sent \\(product ${second!.id}`));
    expect(result.stdout).toBe('');
    expect(creates(requests)).toBeLessThanOrEqual(1);
    const stored = ((await sandboxApi(sandbox(), '/_sandbox/orders')).body as { external_id: string; line_items: { part: { product_id: number } }[] }[]).filter((o) => o.external_id === 'reused-5');
    expect(stored.map((o) => o.line_items[0]!.part.product_id)).toEqual([first!.id]);
  });
});

describe('example 6: records that show no content yet (line_items: [], shipping_orders: []), the create answer included', () => {
  const sandbox = useSandbox({ orderRecords: ['no-shipping-orders', 'no-line-items'] });

  it('a list\'s rerun on the same machine finds its rows by the journal and sends nothing; a single order\'s rerun is existing, not "differs"', async () => {
    const machine = tempDir('merch-machine-');
    const dir = tempDir();
    const list = join(dir, 'guests.csv');
    writeFileSync(list, 'first_name,last_name,line_1,city,state,postal_code,country,size\nAnn,Lee,1 Main St,Austin,TX,78701,US,2 in\nBo,Ek,2 High St,Boston,MA,02101,US,3 in\nCy,Ng,3 Low St,Denver,CO,80201,US,2 in\n');
    const order = ['orders', 'create', '--product', '100003', '--attr', 'color=Black', '--recipients', list, '--yes'];
    const sent = await merch(sandbox(), order, { env: { MERCH_CONFIG_DIR: machine } });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('1 created (3 recipients)');
    for (let rerun = 0; rerun < 2; rerun++) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), order, { env: { MERCH_CONFIG_DIR: machine } }));
      expect(result.code, result.stderr).toBe(0);
      expect(creates(requests)).toBe(0);
      expect(result.stderr).toContain('3 rows of 3 already in 1 earlier order');
    }
    // Another machine cannot tell which rows the order holds: it stops and sends nothing.
    const { result: fresh, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), order));
    expect(fresh.code).toBe(5);
    expect(creates(requests)).toBe(0);
    expect(fresh.stderr).toContain('its record cannot show which rows it holds');

    const single = ['orders', 'create', '--product', '100003', '--quantity', '1', '--attr', 'color=Black', '--attr', 'size=2 in', '--recipient', 'first_name=Di,last_name=Oh,line_1=4 Elm St,city=Austin,state=TX,postal_code=78701,country=US', '--yes'];
    expect((await merch(sandbox(), single, { env: { MERCH_CONFIG_DIR: machine } })).code).toBe(0);
    const again = await merch(sandbox(), single, { env: { MERCH_CONFIG_DIR: machine } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already created');
    expect(again.stderr).not.toContain('differs');
  });
});

describe('the cost of identity: one account read per token, no other request more', () => {
  const sandbox = useSandbox();

  it('a first single order asks GET /v1/users/me once, then its usual requests; the next order of the same token does not ask again', async () => {
    const machine = tempDir('merch-machine-');
    const order = (name: string) => ['orders', 'create', '--product', '100003', '--quantity', '1', '--attr', 'color=Black', '--attr', 'size=2 in', '--recipient', `first_name=${name},last_name=Lee,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US`, '--yes'];
    const paths = (requests: { method: string; path: string }[]) => requests.map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`);
    const first = await requestsDuring(sandbox(), () => merch(sandbox(), order('Costone'), { env: { MERCH_CONFIG_DIR: machine } }));
    expect(first.result.code, first.result.stderr).toBe(0);
    expect(paths(first.requests).sort()).toEqual(['GET /v1/custom-products/100003', 'GET /v1/orders', 'GET /v1/payment-methods', 'GET /v1/users/me', 'POST /v1/orders'].sort());
    const second = await requestsDuring(sandbox(), () => merch(sandbox(), order('Costtwo'), { env: { MERCH_CONFIG_DIR: machine } }));
    expect(second.result.code, second.result.stderr).toBe(0);
    expect(paths(second.requests)).not.toContain('GET /v1/users/me');
    expect(second.requests).toHaveLength(4);
  });
});
