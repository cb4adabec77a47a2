import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';

// `orders list --status shiped` (a typo) listed nothing, exit 0, without a word (issue 30.10).

const sandbox = useSandbox();

describe('orders list --status', () => {
  it('a name merch does not know: a warning naming the statuses it knows, then the list (sent as given)', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['orders', 'list', '--status', 'shiped']));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: --status shiped: not an order status merch knows (pending, in production, shipped, delivered, cancelled); sent as given\n');
    expect(requests.map((r) => r.query)).toEqual(['status=shiped']);
  });

  it.each([['shipped'], ['In-Production'], ['CANCELLED']])('%s: no warning', async (status) => {
    const { stderr } = await merch(sandbox(), ['orders', 'list', '--status', status]);
    expect(stderr).not.toContain('warning');
  });
});
