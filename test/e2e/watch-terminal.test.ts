import { describe, expect, it } from 'vitest';
import { orderMaker } from '../orders/follow/helpers.js';
import { merchTty } from '../support/process.js';
import { useSandbox } from '../support/sandbox.js';

// `orders watch` stopped by Ctrl-C typed on a real terminal (a pseudo-terminal): the signal
// is the subject. Its other cases run in-process (test/orders/follow/watch.test.ts).

const still = useSandbox({ eventDelayMs: 10, deliveryRetryBaseMs: 50 });
const newOrder = orderMaker('watch-terminal');

describe('orders watch on a terminal', () => {
  it('Ctrl-C on a real terminal: exit 130, no stack trace', async () => {
    const order = await newOrder(still());
    const run = merchTty(still(), ['orders', 'watch', String(order.id), '--interval', '0.1']);
    await run.waitFor(/Tracking number/);
    run.type('\u0003');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stdout).not.toMatch(/\n\s+at |Error:|error:/);
  });
});
