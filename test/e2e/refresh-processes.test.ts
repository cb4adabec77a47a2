import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExit, profile, recordingProxy, revoke } from '../auth/helpers.js';
import { merchProcess } from '../support/process.js';
import { useSandbox } from '../support/sandbox.js';

// Processes of their own sharing one config directory: a token refreshed by one of them
// only. The other refresh cases run in-process (test/auth/refresh.test.ts).

const sandbox = useSandbox();

describe('an expired token, several processes', () => {
  it('8 processes started together with an expired token refresh exactly once, and all succeed with the new token', async () => {
    const proxy = await recordingProxy(sandbox().url);
    const user = profile(proxy.url);
    expectExit(await user.passwordLogin(), 0);
    const first = user.stored();
    // The token has expired: the service refuses it, and its stored expiry is past.
    await revoke(sandbox().url, first.token, 'access_token');
    const file = join(user.dir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.profiles.default.session.expires_at = new Date(Date.now() - 1000).toISOString();
    writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
    const calls = proxy.calls.length;

    const runs = await Promise.all(
      Array.from({ length: 8 }, () => merchProcess(proxy, ['orders', 'list', '--limit', '1'], { env: { MERCH_CONFIG_DIR: user.dir, MERCH_TOKEN: undefined } })),
    );
    for (const run of runs) expectExit(run, 0);
    const during = proxy.calls.slice(calls);
    expect(during.filter((call) => call.grant === 'refresh_token')).toHaveLength(1);
    const { token } = user.stored();
    const orders = during.filter((call) => call.path.startsWith('/v1/orders'));
    expect(orders).toHaveLength(8);
    for (const call of orders) expect(call.headers.authorization).toBe(`Bearer ${token}`);
  }, 60_000);
});
