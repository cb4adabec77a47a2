import { expect, it } from 'vitest';
import { parseExact } from '../../../src/lib/exact-json.js';
import { BIG_ID_OFFSET } from '../../../src/sandbox/big-ids.js';
import { startMerch } from '../../support/run-merch.js';
import { ACME } from '../../sandbox/helpers.js';

// `merch sandbox --big-ids` (issue 40.5), in-process: the flag reaches the sandbox it runs.

it('merch sandbox --big-ids answers ids beyond 2^53, as raw digits, and takes them back in paths', async () => {
  const run = startMerch(['sandbox', '--port', '0', '--catalog', '10', '--quiet', '--big-ids']);
  try {
    await run.io.written((_out, err) => err.includes('listening on'));
    const url = /listening on (http:\/\/\S+?);/.exec(run.io.errors())![1]!;
    const get = async (path: string) => {
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${ACME}` } });
      return { status: response.status, text: await response.text() };
    };
    const list = await get('/v1/custom-products?limit=1');
    const id = (parseExact(list.text) as { results: { id: unknown }[] }).results[0]!.id;
    expect(typeof id).toBe('bigint');
    expect(id as bigint).toBeGreaterThan(BIG_ID_OFFSET);
    expect(list.text).toContain(`"id":${id as bigint},`);
    const one = await get(`/v1/custom-products/${id as bigint}`);
    expect([one.status, (parseExact(one.text) as { id: unknown }).id]).toEqual([200, id]);
  } finally {
    run.interrupt();
  }
  expect((await run.done).code).toBe(0);
});
