import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliEnv, startMerch } from '../support/run-merch.js';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { waitFor } from '../support/wait-for.js';

// The smaller edges a new user hit (issue 19.6j).

const sandbox = useSandbox();

/** Every test has its own config directory, removed after it. */
let configDir = '';
beforeEach(() => {
  configDir = mkdtempSync(join(tmpdir(), 'merch-edges-'));
});
afterEach(() => {
  rmSync(configDir, { recursive: true, force: true });
});

describe('webhooks listen --subscribe', () => {
  it('says "subscribed to 1 event" for one, with its subscription', async () => {
    const run = startMerch(['webhooks', 'listen', '--port', '0', '--subscribe', '--events', 'order.created'], { env: cliEnv(sandbox().url, { MERCH_CONFIG_DIR: configDir }) });
    await waitFor(() => /ready; Ctrl-C to stop/.test(run.io.errors()), 'the listener to be ready');
    const [subscription] = (await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results;
    run.interrupt();
    const { code, stderr } = await run.done;
    expect(code).toBe(0);
    expect(stderr).toContain(`\nsubscribed to 1 event (subscription ${subscription.id}); deleted on exit\n`);
  });
});
