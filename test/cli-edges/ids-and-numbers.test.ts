import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathSegment } from '../../src/api/path-segment.js';
import { RequestNotSent } from '../../src/api/errors.js';
import { merch } from '../support/run-merch.js';
import { startProxy } from '../support/proxy.js';
import { tempDir } from '../support/temp-dir.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';

const sandbox = useSandbox();

/** Runs merch and returns its result with the requests the sandbox received meanwhile. */
async function run(args: string[]) {
  const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), args));
  return { ...result, requests };
}

describe('path ids are checked for their type before anything is sent (issue 13.11)', () => {
  const refused: [string[], string][] = [
    [['webhooks', 'delete', '..'], 'id'],
    [['webhooks', 'delete', '1/2'], 'id'],
    [['payment-methods', 'delete', '..', '--yes'], 'id'],
    [['payment-methods', 'set-default', 'pm_1/../x'], 'id'],
    [['payment-methods', 'unset-default', '42'], 'id'],
    [['products', 'get', 'abc'], 'id'],
    [['products', 'get', '0'], 'id'],
    [['products', 'get', '-1'], 'id'],
    [['custom-products', 'get', '1.5'], 'id'],
    [['orders', 'get', '%2e%2e'], 'id'],
    [['orders', 'wait', 'x', '--until', 'shipped'], 'id'],
    [['orders', 'watch', '..'], 'id'],
    [['parts', 'list', '..'], 'product_id'],
    [['parts', 'get', '12', '..'], 'part_id'],
  ];
  it.each(refused)('merch %j: exit 2 naming the argument, nothing sent', async (args, argument) => {
    const { code, stderr, requests } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(`argument '${argument}'`);
    expect(stderr).toMatch(/expected (a positive integer|a payment method id)/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(requests).toEqual([]);
  });

  it('a well-formed id reaches the service as one path segment', async () => {
    const { code, requests } = await run(['products', 'get', '12']);
    expect(code).toBe(0);
    expect(requests.map((r) => r.path)).toEqual(['/v1/supplier-products/12']);
  });

  it('the resource paths refuse an id that would climb or vanish, and encode the rest', () => {
    for (const id of ['', '.', '..']) expect(() => pathSegment(id)).toThrow(RequestNotSent);
    expect(pathSegment('a/b?c')).toBe('a%2Fb%3Fc');
  });
});

describe('counts beyond the safe integer range, ids beyond 2^63 - 1, are usage errors (issue 13.12)', () => {
  const refused: [string[], string][] = [
    [['products', 'list', '--limit', '99999999999999999999999'], '--limit'],
    [['products', 'list', '--offset', '9007199254740993'], '--offset'],
    [['products', 'list', '--id', '1,9223372036854775808'], '--id'],
    [['orders', 'list', '--concurrency', '1e3'], '--concurrency'],
    [['products', 'get', '9223372036854775808'], 'id'],
    [['orders', 'get', '99999999999999999999'], 'id'],
  ];
  it.each(refused)('merch %j: exit 2 naming %s, nothing sent', async (args, flag) => {
    const { code, stderr, requests } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain(flag);
    expect(requests).toEqual([]);
  });

  it('the largest safe integer is sent as written', async () => {
    const { code, requests } = await run(['products', 'list', '--offset', String(Number.MAX_SAFE_INTEGER)]);
    expect(code).toBe(0);
    expect(requests[0]!.query).toContain(`offset=${Number.MAX_SAFE_INTEGER}`);
  });
});

describe('ids beyond 2^53 are the service\'s: sent exactly as written (issue 40.5)', () => {
  it('an order id, a product id, a list of ids: into the path and the query digit for digit', async () => {
    const order = await run(['orders', 'get', '9007199254740993']);
    expect(order.code).toBe(4);
    expect(order.stderr).not.toMatch(/\n\s+at /);
    expect(order.requests.map((r) => r.path)).toEqual(['/v1/orders/9007199254740993']);
    const product = await run(['custom-products', 'get', '9223372036854775807']);
    expect(product.requests.map((r) => r.path)).toEqual(['/v1/custom-products/9223372036854775807']);
    const listed = await run(['products', 'list', '--id', '1,9007199254740993']);
    expect(listed.code).toBe(0);
    expect(listed.requests[0]!.query).toContain('id__in=1,9007199254740993');
  });

  it('merch api -f and --input: an integer beyond 2^53 goes out as the same digits, a JSON number', async () => {
    const proxy = await startProxy({ target: sandbox().url });
    const input = join(tempDir(), 'body.json');
    writeFileSync(input, '{"event":"order.changed","target":"https://example.com/hook","n":[9007199254740993]}');
    await merch(proxy, ['api', 'POST', '/v1/core/webhooks/', '--input', input, '-f', 'm=-9007199254740993', '-f', 'small=12']);
    expect(proxy.requests.map((r) => r.body?.toString('utf8'))).toEqual(['{"event":"order.changed","target":"https://example.com/hook","n":[9007199254740993],"m":-9007199254740993,"small":12}']);
  });
});
