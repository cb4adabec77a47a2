import { spawn } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, collect, merchTty, ROOT } from '../support/process.js';
import { cliEnv } from '../support/run-merch.js';
import { sandboxApi } from '../support/sandbox.js';
import { freePort } from '../support/servers.js';

// A wizard user whose order could not be sent has no command to "run again" (issue 30.5):
// the hint is the command line that places the very order the wizard built.

const enter = '\r';
const RECIPIENT = "first_name=Ann,last_name=O'Lee,line_1=\"1 Main St, Apt 2\",city=Boston,state=MA,postal_code=02101,country=US";

describe('the wizard, when the service is gone at "Place this order?"', () => {
  it('prints the command that places the order; run once the service is back, it does', async () => {
    const port = await freePort();
    const first = await startSandbox({ port, seed: 1, quiet: true });
    const url = `http://127.0.0.1:${port}`;
    // The product left out: the wizard asks it, its color, the quantity, then the payment method.
    const run = merchTty({ url }, ['orders', 'create', '--recipient', RECIPIENT, '--retries', '0']);
    await run.waitFor(/Custom product/);
    run.type('100001' + enter);
    await run.waitFor(/\? Color/);
    run.type('\u001b[B' + enter); // Navy, the second
    await run.waitFor(/Quantity/);
    run.type(enter);
    await run.waitFor(/\? Payment method/);
    run.type(enter);
    await run.waitFor(/Place this order\?/);
    await first.close();
    run.type('y' + enter);
    const result = await run.done;
    expect(result.code).toBe(1);
    const screen = run.screen();
    expect(screen).toContain('error: POST /v1/orders/ failed: connection refused');
    const hint = /hint: (.*); then to place this order without the wizard:\n {2}(merch orders create .*)\n/.exec(screen);
    expect(hint, screen).not.toBeNull();
    const line = hint![2]!;
    expect(line).toMatch(/^merch orders create --product 100001 --quantity 1 --attr color=Navy --recipient '.*' --payment-method pm_\w+ --external-id [0-9a-f-]{36}$/);

    const second = await startSandbox({ port, seed: 1, quiet: true });
    onTestFinished(() => second.close());
    const rerun = spawn('sh', ['-c', `${line.replace(/^merch /, `"${process.execPath}" "${BIN}" `)} --yes`], { cwd: ROOT, env: cliEnv(url), stdio: ['ignore', 'pipe', 'pipe'] });
    const placed = await collect(rerun);
    expect(placed.code, placed.stderr).toBe(0);
    const externalId = /--external-id (\S+)/.exec(line)![1]!;
    const orders = (await sandboxApi(second, `/v1/orders?external_id=${externalId}`)).body.results;
    expect(orders).toHaveLength(1);
    expect(orders[0].shipping_orders[0].recipient.last_name).toBe("O'Lee");
    expect(JSON.stringify(orders[0].shipping_orders[0].recipient)).toContain('"1 Main St, Apt 2"');
  }, 60_000);
});

describe('the command line of an order with several recipients', () => {
  it('is its body on standard input, which the shell gives back exactly', async () => {
    const { commandLineOf } = await import('../../src/commands/orders/create/command-line.js');
    const recipient = (name: string) => ({ first_name: name, last_name: "O'Lee", line_1: '1 Main St', city: 'Boston', postal_code: '02101', country: 'US' });
    const body = {
      external_id: 'x-1',
      payment_method_id: 'pm_1',
      line_items: [{ id: 1, product: 100001, quantity: 2, attributes: { color: 'Navy' } }],
      shipping_orders: [
        { recipient: recipient('Ann'), line_items: [{ id: 1, quantity: 1 }] },
        { recipient: recipient('Bo'), line_items: [{ id: 1, quantity: 1 }] },
      ],
    };
    const line = commandLineOf(body);
    expect(line).toMatch(/^echo '.*' \| merch orders create --file - --yes$/);
    const echoed = await collect(spawn('sh', ['-c', line.replace(/ \| merch orders create --file - --yes$/, '')], { stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(JSON.parse(echoed.stdout)).toEqual(body);
  });
});
