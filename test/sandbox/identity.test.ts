import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../support/sandbox.js';
import { call } from './helpers.js';

const sandbox = useSandbox({ catalog: 20 });

/** The header the CLI checks before it sends the sandbox's public token. */
const identity = (headers: Headers) => headers.get('x-merch-sandbox');

describe('X-Merch-Sandbox: 1 on every answer', () => {
  const answers: [string, string, Parameters<typeof call>[2], number][] = [
    ['a service read', '/v1/supplier-products?limit=1', {}, 200],
    ['a 401 without a token', '/v1/orders', { token: null }, 401],
    ['a 401 with an unknown token', '/v1/orders', { token: 'nope' }, 401],
    ['a 403 for another account id', '/v1/orders', { headers: { 'sc-account-id': 'globex' } }, 403],
    ['a 404 of an unknown record', '/v1/orders/999999', {}, 404],
    ['a 404 of an unknown path', '/nowhere', { token: null }, 404],
    ['a validation 400', '/v1/supplier-products?id__in=x', {}, 400],
    ['the info control, without auth', '/_sandbox/info', { token: null }, 200],
    ['a control refused without auth', '/_sandbox/reset', { token: null, method: 'POST' }, 401],
    ['a design tool page', '/design-tool/editor?session=x&userToken=y', { token: null }, 404],
    ['a design tool 401', '/design-tool/api/smartlink', { token: null, body: {} }, 401],
    ['an OAuth token refusal', '/o/token/', { token: null, method: 'POST', body: {} }, 401],
  ];
  for (const [name, path, options, status] of answers) {
    it(name, async () => {
      const reply = await call(sandbox(), path, options);
      expect(reply.status).toBe(status);
      expect(identity(reply.headers)).toBe('1');
    });
  }

  it('a fault injected by the sandbox (503, 429)', async () => {
    const faulty = await startSandbox({ port: 0, catalog: 20, faults: 1, faultKinds: ['status_503', 'status_429'] });
    try {
      for (let i = 0; i < 4; i++) {
        const reply = await call(faulty, '/v1/orders');
        expect([503, 429]).toContain(reply.status);
        expect(identity(reply.headers)).toBe('1');
      }
    } finally {
      await faulty.close();
    }
  });
});
