import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../../../support/proxy.js';
import { cliEnv, startMerch, type RunningMerch } from '../../../support/run-merch.js';
import { sandboxApi, useSandbox } from '../../../support/sandbox.js';
import { tempDir } from '../../../support/temp-dir.js';

// Issue 41.6, "signals end every read": the first Ctrl-C while `orders create --recipients`
// reads its list to plan ends the read at its next piece (64 KiB), not once the whole list
// is read. The interruption comes at a moment the test knows to be inside the read: when
// the first rows ask for their product (the proxy sees that request, and Ctrl-C is pressed
// then), with thousands of rows still unread.

const sandbox = useSandbox();

describe('Ctrl-C while the list is read to plan', () => {
  it('ends the read there: exit 130, nothing sent, the plan never printed', async () => {
    const shirt = (await sandboxApi(sandbox(), '/v1/custom-products/?limit=100')).body.results.find(
      (p: { available_attributes: { sizes: unknown[]; colors: unknown[] } }) => p.available_attributes.sizes.length > 0 && p.available_attributes.colors.length > 0,
    );
    const size = shirt.available_attributes.sizes[0].name;
    const color = shirt.available_attributes.colors[0].name;
    const rows = Array.from({ length: 60_000 }, (_, i) => `Guest${i},Reader,${i} Main St,Austin,TX,78701,US,${shirt.id},${size},${color}`);
    const list = join(tempDir(), 'guests.csv');
    writeFileSync(list, `first_name,last_name,line_1,city,state,postal_code,country,product,size,color\n${rows.join('\n')}\n`);

    let run: RunningMerch | undefined;
    let pressed = 0;
    const proxy = await startProxy({
      target: sandbox().url,
      onRequest: ({ method, path }) => {
        // The rows' product, asked for as the first rows are read: Ctrl-C now.
        if (method === 'GET' && path.startsWith(`/v1/custom-products/${shirt.id}`) && pressed++ === 0) run!.interrupt();
        return 'forward';
      },
    });
    run = startMerch(['orders', 'create', '--recipients', list, '--dry-run', '--json'], { env: cliEnv(proxy.url) });
    const result = await run.done;
    expect(pressed).toBeGreaterThan(0);
    expect(result).toEqual({ code: 130, stdout: '', stderr: `error: interrupted while reading ${list}: nothing was sent\n` });
    expect(proxy.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  }, 60_000);
});
