import { describe, expect, it } from 'vitest';
import { above, parseMoneyFlag, SpendTally } from '../../../src/commands/mcp/guards.js';
import { merch } from '../../support/run-merch.js';
import { useSandbox } from '../../support/sandbox.js';

// `merch mcp`'s flags, refused before it serves anything (exit 2), and its guards' arithmetic.

const sandbox = useSandbox();

describe('merch mcp: flags', () => {
  it('serves until stdin ends, saying on stderr what it serves; stdout carries only the protocol', async () => {
    const run = await merch(sandbox(), ['mcp', '--allow-orders', '--max-order-total', '50.00', 'USD', '--max-spend', '200 USD']);
    expect(run).toEqual({ code: 0, stdout: '', stderr: 'merch mcp: serving 9 tools on stdio (orders allowed)\n' });
  });

  it.each([
    [['--tools', 'find_products,nope'], 'error: --tools: no tool nope\nhint: the tools: find_products, get_product, list_orders, get_order, track_order, payment_methods, design_link, plan_order, place_order\n'],
    [['--tools', 'place_order'], 'error: --tools place_order needs --allow-orders\n'],
    [['--max-spend', '5', 'USD'], 'error: --max-order-total and --max-spend need --allow-orders (without it no order is placed)\n'],
    [['--allow-orders', '--max-spend', 'fifty'], 'error: --max-spend: expected AMOUNT CURRENCY (50.00 USD), got "fifty"\n'],
    [['--allow-orders', '--max-spend', '5 USD', '--max-order-total', '5 EUR'], 'error: --max-order-total is in EUR, --max-spend in USD: give both in one currency\n'],
  ])('merch mcp %j: refused, exit 2', async (args, stderr) => {
    expect(await merch(sandbox(), ['mcp', ...args])).toEqual({ code: 2, stdout: '', stderr });
  });
});

describe('merch mcp: the guards', () => {
  it('reads AMOUNT CURRENCY in either order, one word or two', () => {
    expect(parseMoneyFlag('--max-spend', ['50.00', 'usd'])).toEqual({ amount: 5000, currency: 'USD', display: '50.00' });
    expect(parseMoneyFlag('--max-spend', 'USD 7')).toEqual({ amount: 7, currency: 'USD', display: '7' });
    expect(above(parseMoneyFlag('x', '7.001 USD'), parseMoneyFlag('x', '7 USD'))).toBe(true);
    expect(above(parseMoneyFlag('x', '7.00 USD'), parseMoneyFlag('x', '7 USD'))).toBe(false);
  });

  it('counts what is placed against --max-spend; a release (an order surely not made) gives it back', () => {
    const tally = new SpendTally({ allowOrders: true, maxSpend: parseMoneyFlag('x', '10.00 USD') });
    tally.reserve(parseMoneyFlag('x', '6.00 USD'));
    expect(() => tally.reserve(parseMoneyFlag('x', '4.01 USD'))).toThrow('the plan\'s subtotal 4.01 USD is above what is left of --max-spend (4.00 USD of 10.00 USD); nothing was sent');
    const release = tally.reserve(parseMoneyFlag('x', '4.00 USD'));
    release();
    release();
    expect(tally.total?.display).toBe('6.00');
    expect(() => tally.reserve(null)).toThrow('no known subtotal');
    expect(() => tally.reserve(parseMoneyFlag('x', '1 EUR'))).toThrow('the plan is in EUR, the caps in USD');
  });
});
