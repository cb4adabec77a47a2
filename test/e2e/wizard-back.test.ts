import { beforeAll, describe, expect, it } from 'vitest';
import { merchTty } from '../support/process.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';

// Issue 42.4 on a real terminal: Esc at a question of the order wizard asks the one before
// it again (@inquirer/prompts' keypresses, src/commands/terminal-prompter.ts); Ctrl-C reads
// as it does at "Place this order?". The answers themselves: test/commands/orders/create/wizard-back.test.ts.

const sandbox = useSandbox();
const enter = '\r';
const RECIPIENT = 'first_name=Bo,last_name=Ek,line_1=2 High St,city=Austin,state=TX,postal_code=78701,country=US';
let productId: number;

beforeAll(async () => {
  const products = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results as { id: number; available_attributes: { colors: unknown[] } }[];
  productId = products.find((p) => p.available_attributes.colors.length > 1)!.id;
});

describe('the wizard on a terminal', () => {
  it('Esc at the color asks the product again; Ctrl-C then cancels: "cancelled: no order was created", exit 130', async () => {
    const run = merchTty(sandbox(), ['orders', 'create', '--recipient', RECIPIENT]);
    await run.waitFor(/Custom product \(a name to search for, or its id\)/);
    run.type(String(productId) + enter);
    await run.waitFor(/\? Color/);
    run.type('\u001b');
    await run.waitFor(/\? Color[\s\S]*\? Custom product \(a name to search for, or its id\)/);
    run.type('\u0003');
    const result = await run.done;
    expect(result.code, run.screen()).toBe(130);
    expect(run.screen()).toContain('error: cancelled: no order was created');
  }, 60_000);
});
