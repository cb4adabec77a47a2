import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { tempDir } from '../support/temp-dir.js';
import { call } from './helpers.js';
import { validOrder } from './order-fixtures.js';

describe('--data persistence', () => {
  it('keeps orders, subscriptions and payment method changes across a restart', async () => {
    const directory = tempDir('merch-sandbox-');
    const data = join(directory, 'state.json');
    const first = await startSandbox({ port: 0, catalog: 20, data });
    const order = (await call(first, '/v1/orders/', { body: { ...(await validOrder(first)), external_id: 'kept' } })).body;
    await call(first, '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/hook' } });
    const bank = (await call(first, '/v1/payment-methods/')).body.us_bank_account[0].id;
    await call(first, `/v1/payment-methods/${bank}`, { method: 'PATCH', body: { is_default: true } });
    await first.close();
    expect(readdirSync(directory)).toEqual(['state.json']);
    expect(JSON.parse(readFileSync(data, 'utf8')).version).toBe(2);

    const second = await startSandbox({ port: 0, catalog: 20, data });
    try {
      expect((await call(second, `/v1/orders/${order.id}`)).body.external_id).toBe('kept');
      const duplicate = await call(second, '/v1/orders/', { body: { ...(await validOrder(second)), external_id: 'kept' } });
      expect([duplicate.status, Object.keys(duplicate.body)]).toEqual([400, ['non_field_errors']]);
      expect((await call(second, '/v1/core/webhooks/')).body.count).toBe(1);
      expect((await call(second, '/v1/payment-methods/')).body.us_bank_account[0].is_default).toBe(true);
      const next = (await call(second, '/v1/orders/', { body: await validOrder(second) })).body;
      expect(next.id).toBe(order.id + 1);
    } finally {
      await second.close();
    }
  });

  it('starts from the seed without a file, and refuses a corrupt one with a one-line message', async () => {
    const directory = tempDir('merch-sandbox-');
    const data = join(directory, 'fresh.json');
    const sandbox = await startSandbox({ port: 0, catalog: 20, data });
    expect((await call(sandbox, '/v1/orders')).body.count).toBe(0);
    await sandbox.close();
    const corrupt = join(directory, 'corrupt.json');
    writeFileSync(corrupt, '{not json');
    await expect(startSandbox({ port: 0, data: corrupt })).rejects.toThrow(/corrupt\.json is not valid JSON/);
  });
});
