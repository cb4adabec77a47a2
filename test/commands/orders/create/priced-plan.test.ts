import { beforeAll, describe, expect, it } from 'vitest';
import { merch } from '../../../support/run-merch.js';
import { requestsDuring, sandboxApi, useSandbox } from '../../../support/sandbox.js';

// The price before paying (issue 14.1) and the dry run that shows it (issue 13.8, 13.9).

const sandbox = useSandbox();

interface Product {
  id: number;
  name: string;
  minimum: number;
  available_attributes: { colors: { name: string }[]; sizes: { name: string }[] };
}
let products: Product[];

beforeAll(async () => {
  products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results;
});

const recipient = 'first_name=Ann,last_name=Lee,line_1=1 Main St,city=Austin,state=TX,postal_code=78701,country=US';

function itemFlag(p: Product, quantity: number, k: number): string {
  return `product=${p.id},quantity=${quantity},size=${p.available_attributes.sizes[k % p.available_attributes.sizes.length]!.name},color=${p.available_attributes.colors[0]!.name}`;
}

describe('orders create --dry-run --json: {request, plan}', () => {
  it('the plan prices each line item as the sandbox then does, and its subtotal is the order\'s', async () => {
    const [a, b] = products.filter((p) => p.minimum <= 2);
    const args = ['orders', 'create', '--item', itemFlag(a!, 2, 0), '--item', itemFlag(b!, 1, 1), '--recipient', recipient];
    const dry = await merch(sandbox(), [...args, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const { request, plan } = JSON.parse(dry.stdout);
    expect(request.line_items).toHaveLength(2);
    expect(plan.shipments).toBe(1);
    expect(plan.line_items.map((l: any) => [l.id, l.product, l.name, l.quantity])).toEqual([
      [1, a!.id, a!.name, 2],
      [2, b!.id, b!.name, 1],
    ]);

    const real = await merch(sandbox(), [...args, '--json', '--yes']);
    expect(real.code, real.stderr).toBe(0);
    const order = JSON.parse(real.stdout);
    expect(order.external_id).toBe(request.external_id);
    plan.line_items.forEach((line: any, i: number) => {
      expect(line.unit_price).toEqual(order.line_items[i].price);
      expect(line.subtotal).toEqual(order.line_items[i].subtotal);
    });
    expect(plan.subtotal).toEqual(order.subtotal);
  });

  it('warns, and does not refuse, when a product is ordered below its minimum (all its line items together)', async () => {
    const p = products.find((candidate) => candidate.minimum > 2)!;
    const under = await merch(sandbox(), ['orders', 'create', '--item', itemFlag(p, 1, 0), '--item', itemFlag(p, 1, 1), '--recipient', recipient, '--dry-run', '--json']);
    expect(under.code, under.stderr).toBe(0);
    const warning = `${p.name} (${p.id}): 2 ordered, below its minimum of ${p.minimum}`;
    expect(JSON.parse(under.stdout).plan.warnings).toEqual([warning]);
    expect(under.stderr).toContain(`warning: ${warning}`);
    const enough = await merch(sandbox(), ['orders', 'create', '--item', itemFlag(p, p.minimum - 1, 0), '--item', itemFlag(p, 1, 1), '--recipient', recipient, '--dry-run', '--json']);
    expect(JSON.parse(enough.stdout).plan.warnings).toEqual([]);
  });

  it('applies --query to {request, plan}', async () => {
    const p = products[0]!;
    const run = await merch(sandbox(), ['orders', 'create', '--item', itemFlag(p, p.minimum, 0), '--recipient', recipient, '--dry-run', '--query', 'plan.shipments']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe('1');
  });

  it('piped without --json, prints the exact body as before', async () => {
    const p = products[0]!;
    const run = await merch(sandbox(), ['orders', 'create', '--item', itemFlag(p, p.minimum, 0), '--recipient', recipient, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(Object.keys(body).sort()).toEqual(['external_id', 'line_items', 'payment_method_id', 'shipping_orders']);
  });

  it('checks that --payment-method exists, as the real run would (exit 2, nothing sent)', async () => {
    const p = products[0]!;
    const { result, requests } = await requestsDuring(sandbox(), () =>
      merch(sandbox(), ['orders', 'create', '--item', itemFlag(p, p.minimum, 0), '--recipient', recipient, '--payment-method', 'pm_nope', '--dry-run']),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('payment_method_id: payment method pm_nope does not exist in this account');
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
