import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { waitFor } from '../support/wait-for.js';
import { expectExit, PRIVATE_APP, profile, recordingProxy, revoke } from './helpers.js';

// Tokens that stay valid: refresh before expiry, once after a 401, rotation, a revoked
// refresh token (concurrent processes: test/e2e/refresh-processes.test.ts). Every token
// request goes through a recording proxy in front of the sandbox, so the refreshes are
// counted where they arrive.

const sandbox = useSandbox();
/**
 * The short-lived sandbox's clock stands still while a test signs in (on a loaded machine
 * the login's own check can come more than the token's one second after the grant), then
 * runs on from the real time, so the token expires a second after it was issued.
 */
let clockStoppedAt: number | undefined;
const shortLived = useSandbox({ tokenTtl: 1, clock: () => clockStoppedAt ?? Date.now() });

/** What the sandbox answers to a token now: 200, or 401 once it expired or was revoked. */
async function statusOf(baseUrl: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
  await response.body?.cancel();
  return response.status;
}

async function signedIn(baseUrl: string) {
  const proxy = await recordingProxy(baseUrl);
  const user = profile(proxy.url);
  clockStoppedAt = Date.now();
  try {
    expectExit(await user.passwordLogin(), 0);
  } finally {
    clockStoppedAt = undefined;
  }
  return { proxy, user, first: user.stored() };
}

describe('refresh', () => {
  it('an expired access token is refreshed before the request: one refresh, no 401 seen, the rotated tokens stored', async () => {
    const { proxy, user, first } = await signedIn(shortLived().url);
    await waitFor(async () => (await statusOf(shortLived().url, first.token)) === 401, 'the access token to expire');
    const calls = proxy.calls.length;

    const list = expectExit(await user.run(['orders', 'list', '--limit', '1']), 0);
    expect(list.stdout).toMatch(/^id\t/);
    const during = proxy.calls.slice(calls);
    expect(during.map((call) => `${call.method} ${call.path.split('?')[0]} ${call.grant ?? ''}`.trim())).toEqual(['POST /o/token/ refresh_token', 'GET /v1/orders']);
    expect(during[0]!.form.get('refresh_token')).toBe(first.session.refresh_token);
    expect(during[0]!.headers.authorization).toMatch(/^Basic /);
    const second = user.stored();
    expect(second.token).not.toBe(first.token);
    expect(second.session.refresh_token).not.toBe(first.session.refresh_token);
    expect(during[1]!.headers.authorization).toBe(`Bearer ${second.token}`);
    expect(second.session.account).toEqual(first.session.account);
  });

  it('a 401 to a token that looked valid triggers one refresh and one retry', async () => {
    const { proxy, user, first } = await signedIn(sandbox().url);
    await revoke(sandbox().url, first.token, 'access_token');
    const calls = proxy.calls.length;

    expectExit(await user.run(['orders', 'list', '--limit', '1']), 0);
    const during = proxy.calls.slice(calls).map((call) => `${call.method} ${call.path.split('?')[0]} ${call.grant ?? ''}`.trim());
    expect(during).toEqual(['GET /v1/orders', 'POST /o/token/ refresh_token', 'GET /v1/orders']);
    expect(await statusOf(sandbox().url, user.stored().token)).toBe(200);
  });

  it('a revoked refresh token ends with "sign in again: merch login", exit 3, after one attempt and no loop', async () => {
    const { proxy, user, first } = await signedIn(sandbox().url);
    await revoke(sandbox().url, first.session.refresh_token, 'refresh_token');
    const calls = proxy.calls.length;

    const result = expectExit(await user.run(['orders', 'list', '--limit', '1']), 3);
    expect(result.stderr).toBe('error: the sign-in has expired or was revoked (refresh refused: invalid_grant): sign in again: merch login\n');
    expect(proxy.calls.slice(calls).map((call) => `${call.method} ${call.path.split('?')[0]}`)).toEqual(['GET /v1/orders', 'POST /o/token/']);
  });

  it('auth refresh rotates now (the old refresh token stops working); auth token prints a token the service accepts', async () => {
    const { user, first } = await signedIn(sandbox().url);
    const refreshed = expectExit(await user.run(['auth', 'refresh']), 0);
    expect(refreshed.stderr).toMatch(/^Refreshed the token of profile default; it expires at \d{4}-/);
    const second = user.stored();
    expect(second.token).not.toBe(first.token);
    expect(await statusOf(sandbox().url, first.token)).toBe(401);
    const reuse = await fetch(`${sandbox().url}/o/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.session.refresh_token, client_id: PRIVATE_APP.id, client_secret: PRIVATE_APP.secret }),
    });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toEqual({ error: 'invalid_grant' });

    const printed = expectExit(await user.run(['auth', 'token']), 0);
    expect(printed.stdout).toBe(`${second.token}\n`);
    expect(await statusOf(sandbox().url, printed.stdout.trim())).toBe(200);
  });

  it('auth token refreshes an expired token first', async () => {
    const { user, first } = await signedIn(shortLived().url);
    await waitFor(async () => (await statusOf(shortLived().url, first.token)) === 401, 'the access token to expire');
    const printed = expectExit(await user.run(['auth', 'token']), 0).stdout.trim();
    expect(printed).not.toBe(first.token);
    expect(printed).toBe(user.stored().token);
  });
});
