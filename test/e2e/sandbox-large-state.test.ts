import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';
import { call } from '../sandbox/helpers.js';
import { orderOf, startSandboxProcess } from '../sandbox/sandbox-process.js';

// Issue 30.2: `merch sandbox --data --lifecycle` holding 10,000 shipping orders stopped
// answering (each shipping order's move rewrote the whole 17 MB file, synchronously) and
// ignored SIGTERM for over 30 s. The subject is the process: its event loop and signals.

const ORDERS = 4;
const SHIPPING_ORDERS = 1_000;
/** Far above a healthy answer on a loaded machine; far below what a blocked loop took (minutes). */
const ANSWER_DEADLINE_MS = 5_000;
const EXIT_DEADLINE_MS = 5_000;

/** One GET that must be answered within the deadline, however busy the lifecycle is. */
async function promptly<T>(what: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_DEADLINE_MS} ms`)), ANSWER_DEADLINE_MS);
  });
  try {
    return await Promise.race([what, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('merch sandbox --data --lifecycle with a large state', () => {
  it('answers while the lifecycle moves 4,000 shipping orders, and SIGTERM ends it promptly', { timeout: 180_000 }, async () => {
    const data = join(tempDir('merch-large-state-'), 's.json');
    const sandbox = await startSandboxProcess(['--data', data, '--lifecycle', '1s']);
    const body = await orderOf(sandbox, SHIPPING_ORDERS);
    const ids: number[] = [];
    // The first order's status as created counts: on a loaded machine the four creates can
    // take longer than the whole lifecycle, and the first poll may already see it delivered.
    const statuses = new Set<string>();
    for (let index = 0; index < ORDERS; index++) {
      const created = await call(sandbox, '/v1/orders/', { body });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
      if (index === 0) statuses.add(created.body.status.name);
    }
    // Every stage of every order goes by while the sandbox keeps answering.
    await waitFor(
      async () => {
        const listed = await promptly(call(sandbox, '/v1/orders?limit=1&ordering=id'));
        expect(listed.status).toBe(200);
        const first = listed.body.results[0];
        statuses.add(first.status.name);
        return first.status.name === 'Delivered';
      },
      'the first order delivered',
      120_000,
    );
    expect(statuses.size).toBeGreaterThan(1);
    // The others are still moving: stopped now, mid-stage.
    const stopping = Date.now();
    sandbox.kill('SIGTERM');
    const code = await Promise.race([sandbox.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), EXIT_DEADLINE_MS))]);
    expect({ code, stopped: sandbox.stderr().includes('merch sandbox stopped') }).toEqual({ code: 0, stopped: true });
    expect(Date.now() - stopping).toBeLessThan(EXIT_DEADLINE_MS);

    // Its state was flushed: every order is there after a restart.
    const again = await startSandboxProcess(['--data', data]);
    const listed = await call(again, `/v1/orders?limit=${ORDERS}`);
    expect(listed.body.results.map((order: { id: number }) => order.id).sort()).toEqual([...ids].sort());
    again.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});
