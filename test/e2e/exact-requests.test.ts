import { describe, expect, it } from 'vitest';
import { merch } from '../support/run-merch.js';
import { STUB_TOKEN, stubbedService, type StubbedService } from '../support/stubbed-service.js';

// What a command sends, request by request, against a service that answers only what is
// stubbed (test/support/stubbed-service.ts): no request more, none less, each with its
// method, path, query and body. What the sandbox then makes of them is tested elsewhere.

function run(service: StubbedService, args: string[]) {
  return merch(service, args, { env: { MERCH_TOKEN: STUB_TOKEN } });
}

const emptyPage = { count: 0, next: null, previous: null, results: [] };

describe('the requests of a command', () => {
  it('payment-methods set-default: one PATCH of {"is_default": true}, with the token', async () => {
    const service = await stubbedService();
    service.stub('PATCH', '/v1/payment-methods/pm_123', { body: { id: 'pm_123', is_default: true } });
    const { code, stderr } = await run(service, ['payment-methods', 'set-default', 'pm_123']);
    expect([code, stderr]).toEqual([0, 'pm_123 is now the default payment method\n']);
    service.verify();
    const [patch] = service.requests;
    expect(JSON.parse(patch!.body)).toEqual({ is_default: true });
    expect(patch!.headers['content-type']).toMatch(/^application\/json/);
    expect(patch!.headers.authorization).toBe(`Bearer ${STUB_TOKEN}`);
  });

  it('payment-methods unset-default: one PATCH of {"is_default": false}', async () => {
    const service = await stubbedService();
    service.stub('PATCH', '/v1/payment-methods/pm_123', { body: { id: 'pm_123', is_default: false } });
    expect((await run(service, ['payment-methods', 'unset-default', 'pm_123'])).code).toBe(0);
    service.verify();
    expect(JSON.parse(service.requests[0]!.body)).toEqual({ is_default: false });
  });

  it('orders list --status --since: one GET with the filters as the service names them', async () => {
    const service = await stubbedService();
    service.stub('GET', '/v1/orders', { body: emptyPage });
    const { code } = await run(service, ['orders', 'list', '--status', 'shipped,In_Production', '--status', 'Delivered', '--since', '2026-11-01', '--limit', '5']);
    expect(code).toBe(0);
    service.verify();
    expect(Object.fromEntries(service.requests[0]!.query)).toEqual({ status: 'shipped,in production,delivered', created_at__gte: '2026-11-01T00:00:00.000Z', limit: '5' });
  });

  it('webhooks delete: one DELETE, to the path with its trailing slash', async () => {
    const service = await stubbedService();
    service.stub('DELETE', '/v1/core/webhooks/12/', { status: 204 });
    const { code, stderr } = await run(service, ['webhooks', 'delete', '12']);
    expect([code, stderr]).toEqual([0, 'deleted webhook subscription 12\n']);
    service.verify();
    expect(service.requests.map((request) => [request.method, request.url, request.body])).toEqual([['DELETE', '/v1/core/webhooks/12/', '']]);
  });

  it('products list --category 1,2: one GET with categories__in=1,2', async () => {
    const service = await stubbedService();
    service.stub('GET', '/v1/supplier-products', { body: emptyPage });
    expect((await run(service, ['products', 'list', '--category', '1,2'])).code).toBe(0);
    service.verify();
    expect(Object.fromEntries(service.requests[0]!.query)).toEqual({ categories__in: '1,2' });
  });

  it('a request that nothing stubbed fails the command with the reason, and verify names it', async () => {
    const service = await stubbedService();
    service.stub('DELETE', '/v1/core/webhooks/12', { status: 204 });
    const { code, stderr } = await run(service, ['webhooks', 'delete', '12']);
    expect(code).toBe(1);
    expect(stderr.split('\n')[0]).toBe('error: DELETE /v1/core/webhooks/12/ failed: 501 Not Implemented: no stub for DELETE /v1/core/webhooks/12/');
    expect(() => service.verify()).toThrow('no stub matched DELETE /v1/core/webhooks/12/\n  stub never used: DELETE /v1/core/webhooks/12');
  });
});
