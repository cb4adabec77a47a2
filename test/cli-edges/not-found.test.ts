import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';

// A resource that is not there is named, with a hint (issue 30, low).

const sandbox = useSandbox();

describe('not found', () => {
  it('webhooks trigger --order: names the order, exit 4', async () => {
    expect(await merch(sandbox(), ['webhooks', 'trigger', 'order.changed', '--order', '99999'])).toEqual({
      code: 4,
      stdout: '',
      stderr: 'error: no order 99999 on this account\nhint: see them with merch orders list\n',
    });
  });

  it('orders get: the 404 and a hint naming the list that shows the ids', async () => {
    const { code, stderr } = await merch(sandbox(), ['orders', 'get', '99999']);
    expect(code).toBe(4);
    expect(stderr).toBe('error: GET /v1/orders/99999 failed: 404 Not Found\nhint: check the id (merch orders list shows them), and the account it is looked for in (merch auth status; --account-id)\n');
  });
});
