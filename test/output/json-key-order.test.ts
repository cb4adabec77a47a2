import { describe, expect, it } from 'vitest';
import { inKeyOrderOf } from '../../src/lib/key-order.js';
import { merch } from '../support/run-merch.js';
import { createOrder, sandboxApi, useSandbox } from '../support/sandbox.js';

// docs/commands.md: `--json` prints the records as the service sent them, its keys in the
// service's order (issue 42.2: the response shapes put the keys they name first).

const sandbox = useSandbox();

/** The keys of an object and of every object in it, in order, as paths. */
function keyOrder(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => keyOrder(item, `${path}[${index}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${path}.${key}`, ...keyOrder(inner, `${path}.${key}`)]);
}

describe('--json keeps the service key order', () => {
  it('a parsed copy gets the keys of what was sent in its order, nested too', () => {
    const sent = { b: 1, extra: { y: 2, x: 1 }, a: 'x', list: [{ q: 1, p: 2 }] };
    const parsed = { a: 'x', b: 1, list: [{ p: 2, q: 1 }], extra: { x: 1, y: 2 }, added: true };
    const ordered = inKeyOrderOf(sent, parsed);
    expect(keyOrder(ordered)).toEqual(['.b', '.extra', '.extra.y', '.extra.x', '.a', '.list', '.list[0]', '.list[0].q', '.list[0].p', '.added'].filter((k) => k !== '.list[0]'));
    expect(ordered).toEqual(parsed);
  });

  it('orders get --json prints the order with its keys as the service sent them', async () => {
    const order = await createOrder(sandbox(), 'key-order-1');
    const raw = (await sandboxApi(sandbox(), `/v1/orders/${order.id}/`)).body;
    const { code, stdout } = await merch(sandbox(), ['orders', 'get', String(order.id), '--json']);
    expect(code).toBe(0);
    expect(keyOrder(JSON.parse(stdout))).toEqual(keyOrder(raw));
  });

  it('webhooks list --json prints each subscription with its keys as the service sent them', async () => {
    await merch(sandbox(), ['webhooks', 'create', '--event', 'order.changed', '--target', 'https://example.com/hooks/merch']);
    const raw = (await sandboxApi(sandbox(), '/v1/core/webhooks/')).body;
    const { code, stdout } = await merch(sandbox(), ['webhooks', 'list', '--json']);
    expect(code).toBe(0);
    const records = Array.isArray(raw) ? raw : raw.results;
    expect(keyOrder(JSON.parse(stdout))).toEqual(keyOrder(records));
  });
});
