import { randomUUID } from 'node:crypto';
import stringWidth from 'string-width';
import { beforeAll, describe, expect, it } from 'vitest';
import { plain } from '../support/output.js';
import { merchOnTerminal } from '../support/run-merch.js';
import { createOrder, sandboxApi, useSandbox } from '../support/sandbox.js';

// At 80 columns the columns people read (names, statuses, types) stay whole (issue 30.7):
// the others are shortened, then left out (src/output/table.ts: priority, min).

const sandbox = useSandbox();
async function at80(args: string[]) {
  const result = await merchOnTerminal(sandbox(), args, { columns: 80 });
  return { ...result, stdout: plain(result.stdout) };
}

function lines(screen: string): string[] {
  return screen.trimEnd().split('\n');
}

function expectWithin80(screen: string): void {
  for (const line of lines(screen)) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
}

describe('tables at 80 columns', () => {
  beforeAll(async () => {
    const stages = [1, 4, 0];
    for (const advances of stages) {
      const order = await createOrder(sandbox(), randomUUID());
      for (let i = 0; i < advances; i++) await sandboxApi(sandbox(), `/_sandbox/orders/${order.id}/advance`, { method: 'POST' });
    }
  });

  it('orders list: every status whole, the external id shortened, the counts left out', async () => {
    const { code, stdout } = await at80(['orders', 'list']);
    expect(code).toBe(0);
    expectWithin80(stdout);
    expect(lines(stdout)[0]).toMatch(/^ID +External ID +Status +Payment +Total +Created$/);
    expect(stdout).toMatch(/ In Production /);
    expect(stdout).toMatch(/ Delivered /);
    expect(stdout).not.toMatch(/In Prod…|Deliver…|Externa…/);
  });

  it('custom-products list: every name whole, the tags shortened first', async () => {
    const { stdout } = await at80(['custom-products', 'list', '--limit', '5']);
    expectWithin80(stdout);
    const names = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=5')).body.results.map((p: { name: string }) => p.name);
    for (const name of names) expect(stdout).toContain(`  ${name}  `);
  });

  it('payment-methods list: the type whole (us_bank_account)', async () => {
    const { stdout } = await at80(['payment-methods', 'list']);
    expectWithin80(stdout);
    expect(stdout).toMatch(/ us_bank_account /);
    expect(stdout).not.toContain('…');
  });

  it('parts list --expand: colors, statuses and what --expand asked for whole; the code and the sku stay (issue 42.3), the product name and the expansions go first, named', async () => {
    const result = await at80(['parts', 'list', '2', '--expand', 'media_contents,imprint_areas']);
    const { stdout } = result;
    expectWithin80(stdout);
    expect(lines(stdout)[0]).toMatch(/^ID +Code +Color +Size +Design status +Design tool SKU +Media$/);
    // What tells the parts apart goes last (issue 42.3): the name and what --expand asked for give way, named under it.
    expect(stdout.replace(/\s+/g, ' ')).toContain('not shown at this width: Product, Imprint areas');
    expect(stdout).toMatch(/ Heather Grey /);
    expect(stdout).toMatch(/ Approved /);
  });
});
