import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../sandbox/helpers.js';
import { orderOf, startSandboxProcess } from '../sandbox/sandbox-process.js';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

// `merch sandbox --data` killed by SIGKILL: the process is the subject. Its journal's other
// cases run in-process (test/sandbox/persistence.test.ts).

describe('--data journal', () => {
  it('loses no acknowledged order to a SIGKILL, and ignores a torn last line', { timeout: 180_000 }, async () => {
    const directory = tempDir('merch-sandbox-');
    const data = join(directory, 's.json');
    const first = await startSandboxProcess(['--data', data]);
    // Large orders (~2 MB of JSON each), each moved on twice by the test control, which
    // writes it whole: the journal's earlier copies of it no longer count, and once they pass
    // the compaction size (16 MB) a snapshot is written, so the kill usually finds a new
    // snapshot, or one being written; small orders are sent beside them.
    const large = await orderOf(first, 1_000);
    const small = await orderOf(first, 2);
    const acknowledged: number[] = [];
    const send = async (body: object) => {
      const created = await call(first, '/v1/orders/', { body });
      expect(created.status).toBe(201);
      acknowledged.push(created.body.id);
      return created.body.id as number;
    };
    const advance = async (id: number) => expect((await call(first, `/_sandbox/orders/${id}/advance`, { method: 'POST' })).status).toBe(200);
    for (let round = 0; round < 10; round++) {
      await Promise.all([send(large).then(async (id) => [await advance(id), await advance(id)]), send(small), send(small)]);
    }
    first.kill('SIGKILL');
    await first.exited;
    expect(existsSync(`${data}.journal`)).toBe(true);
    // A write cut by a crash: never acknowledged, and not a line of its own.
    appendFileSync(`${data}.journal`, '{"put":"orders","key":99999,"value":{"id":9');

    const second = await startSandboxProcess(['--data', data]);
    const ids = async (sandbox: { url: string }) =>
      (await call(sandbox, `/v1/orders?limit=100`)).body.results.map((order: { id: number }) => order.id).sort((a: number, b: number) => a - b);
    expect(await ids(second)).toEqual([...acknowledged].sort((a, b) => a - b));
    // The journal goes on after the cut line: a third start reads it whole.
    const next = (await call(second, '/v1/orders/', { body: small })).body.id;
    expect(acknowledged).not.toContain(next);
    // Every order paid (a move: a line of its own, src/sandbox/order-moves.ts), then a change
    // answered, so that every move before it is on disk: killed, the sandbox comes back with
    // exactly these orders, payments and times included.
    const orders = async (sandbox: { url: string }) => (await call(sandbox, '/_sandbox/orders')).body;
    await waitFor(async () => (await orders(second)).every((order: { payment_status: { id: string } }) => order.payment_status.id === 'paid'), 'every order paid', 60_000);
    await call(second, '/v1/core/webhooks/', { body: { event: 'order.changed', target: 'http://127.0.0.1:9/hook' } });
    const live = JSON.stringify(await orders(second));
    second.kill('SIGKILL');
    await second.exited;
    const third = await startSandboxProcess(['--data', data]);
    expect(await ids(third)).toEqual([...acknowledged, next].sort((a, b) => a - b));
    expect(JSON.stringify(await orders(third))).toBe(live);
    third.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  });
});
