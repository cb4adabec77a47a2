import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/sandbox/catalog.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { seedState } from '../../src/sandbox/seed.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';
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

  it('loads a state file written whole, as before the journal', async () => {
    const data = join(tempDir('merch-sandbox-'), 'old.json');
    const state = seedState(1, new Catalog(1, 20));
    state.webhooks.push({ id: state.next_ids.webhook++, event: 'order.changed', target: 'http://127.0.0.1:9/old', is_active: true, account: 'acme' });
    writeFileSync(data, JSON.stringify(state));
    const sandbox = await startSandbox({ port: 0, catalog: 20, data });
    try {
      expect((await call(sandbox, '/v1/core/webhooks/')).body.results.map((hook: { target: string }) => hook.target)).toEqual(['http://127.0.0.1:9/old']);
    } finally {
      await sandbox.close();
    }
  });
});

describe('--data journal', () => {
  it('replays a journal the snapshot already holds (a crash between the two) to the same state', async () => {
    const data = join(tempDir('merch-sandbox-'), 's.json');
    const first = await startSandbox({ port: 0, catalog: 20, data });
    const ids: number[] = [];
    for (let index = 0; index < 3; index++) ids.push((await call(first, '/v1/orders/', { body: await validOrder(first) })).body.id);
    const hook = (await call(first, '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/hook' } })).body.id;
    await call(first, `/v1/core/webhooks/${hook}`, { method: 'DELETE' });
    const journal = `${data}.journal`;
    copyFileSync(journal, `${journal}.kept`);
    // A clean stop of a small state writes it as one snapshot and removes the journal...
    await first.close();
    expect(existsSync(journal)).toBe(false);
    // ...and a crash right after the snapshot's rename would have left the old journal.
    copyFileSync(`${journal}.kept`, journal);
    const second = await startSandbox({ port: 0, catalog: 20, data });
    try {
      const listed = (await call(second, '/v1/orders?limit=10')).body.results.map((order: { id: number }) => order.id);
      expect(listed.sort()).toEqual(ids);
      expect((await call(second, '/v1/core/webhooks/')).body.count).toBe(0);
      expect((await call(second, '/v1/orders/', { body: await validOrder(second) })).body.id).toBe(ids.at(-1)! + 1);
    } finally {
      await second.close();
    }
  });

  it('replays a journal written before moves (puts, removals, id counters)', async () => {
    const data = join(tempDir('merch-sandbox-'), 'old.json');
    const state = seedState(1, new Catalog(1, 20));
    writeFileSync(data, JSON.stringify(state));
    const hook = (id: number) => ({ id, event: 'order.changed', target: `http://127.0.0.1:9/${id}`, is_active: true, account: 'acme' });
    const first = state.next_ids.webhook;
    const lines = [
      { put: 'webhooks', key: first, value: hook(first) },
      { put: 'webhooks', key: first + 1, value: hook(first + 1) },
      { remove: 'webhooks', key: first },
      { ids: { ...state.next_ids, webhook: first + 2 } },
    ];
    writeFileSync(`${data}.journal`, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const sandbox = await startSandbox({ port: 0, catalog: 20, data });
    try {
      expect((await call(sandbox, '/v1/core/webhooks/')).body.results.map((subscription: { id: number }) => subscription.id)).toEqual([first + 1]);
      expect((await call(sandbox, '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/next' } })).body.id).toBe(first + 2);
    } finally {
      await sandbox.close();
    }
  });

  it('keeps the lifecycle moves as lines of their own, which replay to the live orders, also on a snapshot that already holds them', async () => {
    const data = join(tempDir('merch-sandbox-'), 's.json');
    const created = await startSandbox({ port: 0, catalog: 20, data, lifecycleSeconds: 3600 });
    const ids: number[] = [];
    for (let index = 0; index < 3; index++) ids.push((await call(created, '/v1/orders/', { body: await validOrder(created) })).body.id);
    // Stopped: the orders are in the snapshot, the journal is gone.
    await created.close();
    // Started again, each order is paid, then moved on stage by stage to Delivered.
    const first = await startSandbox({ port: 0, catalog: 20, data, lifecycleSeconds: 0.02 });
    const orders = async (sandbox: { url: string }) => (await call(sandbox, '/_sandbox/orders')).body;
    await waitFor(async () => (await orders(first)).every((order: { status: { id: number } }) => order.status.id === 4), 'every order Delivered');
    // A change answered: every change before it (the lifecycle's moves) is on disk.
    await call(first, '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/hook' } });
    const live = JSON.stringify(await orders(first));
    const journal = `${data}.journal`;
    const lines = readFileSync(journal, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    // No order written whole: its payment and its stages are moves.
    expect(lines.filter((line) => line.put === 'orders')).toEqual([]);
    expect(ids.map((id) => lines.filter((line) => line.order === id).map((line) => line.move))).toEqual(ids.map(() => ['paid', 'stage', 'stage', 'stage']));
    copyFileSync(journal, `${journal}.kept`);
    await first.close();
    // A crash between the snapshot's rename and the journal's cut: every move replays on a snapshot that has it.
    copyFileSync(`${journal}.kept`, journal);
    const second = await startSandbox({ port: 0, catalog: 20, data });
    try {
      expect(JSON.stringify(await orders(second))).toBe(live);
    } finally {
      await second.close();
    }
    const third = await startSandbox({ port: 0, catalog: 20, data });
    try {
      expect(JSON.stringify(await orders(third))).toBe(live);
    } finally {
      await third.close();
    }
  });
});
