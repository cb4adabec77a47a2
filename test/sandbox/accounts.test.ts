import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { call, GLOBEX } from './helpers.js';

const sandbox = useSandbox();

describe('authentication', () => {
  it('answers 401 with a detail without a token or with an unknown one', async () => {
    for (const path of ['/v1/supplier-products', '/v1/orders', '/v1/payment-methods/', '/_sandbox/reset']) {
      const missing = await call(sandbox(), path, { token: null, method: path.startsWith('/_') ? 'POST' : 'GET' });
      expect(missing.status, path).toBe(401);
      expect(missing.body.detail).toEqual(expect.any(String));
    }
    const wrong = await call(sandbox(), '/v1/orders', { token: 'nope' });
    expect(wrong.status).toBe(401);
  });

  it('checks SC-Account-Id against the token\'s account', async () => {
    const wrong = await call(sandbox(), '/v1/custom-products', { headers: { 'SC-Account-Id': 'globex' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.detail).toEqual(expect.any(String));
    const right = await call(sandbox(), '/v1/custom-products', { headers: { 'SC-Account-Id': 'acme' } });
    expect(right.status).toBe(200);
  });

  it('serves /_sandbox/info without a token', async () => {
    const { status, body } = await call(sandbox(), '/_sandbox/info', { token: null });
    expect(status).toBe(200);
    expect(body).toEqual({ sandbox: true, version: 1, design_tool_url: `${sandbox().url}/design-tool` });
  });

  it('answers a path outside every route with Django\'s HTML 404 page, before asking for a token', async () => {
    for (const token of [undefined, null]) {
      const { status, body, headers } = await call(sandbox(), '/v1/nothing-here', { token });
      expect(status).toBe(404);
      expect(headers.get('content-type')).toBe('text/html');
      expect(body).toContain('<title>Not Found</title>');
    }
  });
});

describe('payment methods', () => {
  it('lists card and us_bank_account methods, the card being the default', async () => {
    const { body } = await call(sandbox(), '/v1/payment-methods/');
    expect(body.card).toHaveLength(1);
    expect(body.us_bank_account).toHaveLength(1);
    expect(body.card[0]).toMatchObject({ type: 'card', is_default: true, card: { last4: expect.stringMatching(/^\d{4}$/) } });
    expect(body.card[0].id).toMatch(/^pm_[A-Za-z0-9]{24}$/);
    expect(body.us_bank_account[0]).toMatchObject({ is_default: false, us_bank_account: { routing_number: expect.any(String) } });
  });

  it('keeps the default method until it is the only one, and isolates accounts', async () => {
    const methods = (await call(sandbox(), '/v1/payment-methods/')).body;
    const card = methods.card[0].id;
    const bank = methods.us_bank_account[0].id;

    const refused = await call(sandbox(), `/v1/payment-methods/${card}`, { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toEqual(expect.any(String));

    expect((await call(sandbox(), `/v1/payment-methods/${card}`, { method: 'DELETE', token: GLOBEX })).status).toBe(404);
    expect((await call(sandbox(), `/v1/payment-methods/${bank}`, { method: 'PATCH', body: { is_default: true }, token: GLOBEX })).status).toBe(404);

    const bad = await call(sandbox(), `/v1/payment-methods/${bank}`, { method: 'PATCH', body: { is_default: 'yes' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['is_default']);

    const patched = await call(sandbox(), `/v1/payment-methods/${bank}`, { method: 'PATCH', body: { is_default: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: bank, is_default: true });
    const after = (await call(sandbox(), '/v1/payment-methods/')).body;
    expect(after.card[0].is_default).toBe(false);

    expect((await call(sandbox(), `/v1/payment-methods/${card}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(sandbox(), `/v1/payment-methods/${bank}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(sandbox(), '/v1/payment-methods/')).body).toEqual({ card: [], us_bank_account: [] });
    expect((await call(sandbox(), '/v1/payment-methods/', { token: GLOBEX })).body.card).toHaveLength(1);
  });

  it('comes back after a reset', async () => {
    expect((await call(sandbox(), '/_sandbox/reset', { method: 'POST' })).status).toBe(200);
    expect((await call(sandbox(), '/v1/payment-methods/')).body.card).toHaveLength(1);
  });
});
