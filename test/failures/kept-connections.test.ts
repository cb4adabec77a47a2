import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { merch, TOKEN } from '../support/run-merch.js';
import { tsv } from '../support/output.js';
import { useSandbox } from '../support/sandbox.js';

// Issue 40.7: a service (or a balancer in front of it) that drops the kept-alive connections
// it has served: `merch sandbox --reset-reused` resets a connection's second and later
// requests unanswered. Reads are sent again at once on a new connection; a create is never
// resent by the client, and still places exactly one order. In-process, over real HTTP.

const sandbox = useSandbox({ resetReused: true, pageCap: 3 });

/** One request on a connection of its own (closed after the answer), so the sandbox never resets it: the test's own set-up and checks. */
function once(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const { port } = new URL(sandbox().url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', agent: false, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** What the sandbox answered and what it reset while `action` ran. */
async function during<T>(action: () => Promise<T>): Promise<{ result: T; answered: Sandbox['requests']; resets: Sandbox['resets'] }> {
  const answered = sandbox().requests.length;
  const resets = sandbox().resets.length;
  const result = await action();
  return { result, answered: sandbox().requests.slice(answered), resets: sandbox().resets.slice(resets) };
}

let shirt: { id: number; color: string; size: string };
const placed: number[] = [];

beforeAll(async () => {
  const products = (await once('/v1/custom-products/?limit=100')).body.results;
  const p = products.find((x: any) => x.available_attributes.sizes.length > 0 && x.available_attributes.colors.length > 0);
  shirt = { id: p.id, color: p.available_attributes.colors[0].name, size: p.available_attributes.sizes[0].name };
  const card = (await once('/v1/payment-methods/')).body.card[0].id;
  const recipient = { first_name: 'Ada', last_name: 'Kept', line_1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
  for (let i = 0; i < 8; i++) {
    const created = await once('/v1/orders/', {
      external_id: `kept-${i}`,
      payment_method_id: card,
      line_items: [{ id: 1, product: shirt.id, quantity: 1, attributes: { color: shirt.color, size: shirt.size } }],
      shipping_orders: [{ recipient, line_items: [{ id: 1, quantity: 1 }] }],
    });
    expect(created.status).toBe(201);
    placed.push(created.body.id);
  }
});

describe('a service that resets the kept connections it served (--reset-reused)', () => {
  it('orders list --all: every page (3 orders a page, 8 at once) read, each cut page sent again on a new connection', async () => {
    const { result, answered, resets } = await during(() => merch(sandbox(), ['orders', 'list', '--all', '--json', '--retries', '0']));
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { id: number }[]).map((order) => order.id).sort()).toEqual([...placed].sort());
    // The switch bit (pages went out on kept connections and were cut), and every page was answered.
    expect(resets.length).toBeGreaterThan(0);
    expect(resets.every((reset) => reset.method === 'GET' && reset.url.startsWith('/v1/orders'))).toBe(true);
    const pages = answered.filter((request) => request.path === '/v1/orders');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.every((page) => page.status === 200)).toBe(true);
    expect(result.stderr).toBe('');
  });

  it('products list, and products list --all: each succeeds', async () => {
    const one = await merch(sandbox(), ['products', 'list', '--json']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).length).toBeGreaterThan(0);
    const { result, resets } = await during(() => merch(sandbox(), ['products', 'list', '--all', '--limit', '3', '--json', '--retries', '0']));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(200);
    expect(resets.length).toBeGreaterThan(0);
  });

  it('orders create --yes: exactly one POST answered, one order placed, reported created', async () => {
    const externalId = 'kept-create';
    const args = ['orders', 'create', '--product', String(shirt.id), '--quantity', '1', '--attr', `color=${shirt.color}`, '--attr', `size=${shirt.size}`];
    const recipient = 'first_name=Grace,last_name=Kept,line_1=2 Main St,city=Austin,state=TX,postal_code=78701,country=US';
    const { result, answered, resets } = await during(() => merch(sandbox(), [...args, '--recipient', recipient, '--external-id', externalId, '--yes']));
    expect(result.code, result.stderr).toBe(0);
    expect(resets.length).toBeGreaterThan(0);
    expect(answered.filter((request) => request.method === 'POST' && request.path === '/v1/orders/')).toHaveLength(1);
    const stored = ((await once('/_sandbox/orders')).body as { id: number; external_id: string }[]).filter((order) => order.external_id === externalId);
    expect(stored).toHaveLength(1);
    const row = tsv(result.stdout).find((r) => r[0] === 'order');
    expect(row?.[1]).toBe(String(stored[0]!.id));
    expect(row?.[5]).toBe('created');
  });
});
