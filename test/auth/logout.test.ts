import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { expectExit, PRIVATE_APP, profile, recordingProxy } from './helpers.js';
import { freePort } from '../support/servers.js';

const sandbox = useSandbox();

async function refreshWith(refreshToken: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${sandbox().url}/o/token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: PRIVATE_APP.id, client_secret: PRIVATE_APP.secret }),
  });
  return { status: response.status, body: await response.json() };
}

describe('merch logout', () => {
  it('revokes the refresh and access tokens at the revoke URL of the login, then forgets them', async () => {
    const proxy = await recordingProxy(sandbox().url);
    const user = profile(proxy.url);
    expectExit(await user.passwordLogin(), 0);
    const { token, session } = user.stored();
    const calls = proxy.calls.length;

    const logout = expectExit(await user.run(['logout']), 0);
    expect(logout.stderr).toBe('Logged out of profile default.\n');
    const revocations = proxy.calls.slice(calls);
    expect(revocations.map((call) => `${call.method} ${call.path} ${call.grant}`)).toEqual(['POST /o/revoke_token/ refresh_token', 'POST /o/revoke_token/ access_token']);
    expect(revocations.map((call) => call.form.get('token'))).toEqual([session.refresh_token, token]);
    expect(revocations[0]!.headers.authorization).toMatch(/^Basic /);

    const me = await fetch(`${sandbox().url}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(401);
    expect(await refreshWith(session.refresh_token)).toEqual({ status: 400, body: { error: 'invalid_grant' } });
    expect(user.stored().token).toBeUndefined();
    expect(user.stored().session).toBeUndefined();
  });

  it('a second logout says there is nothing to forget, sends nothing, and is no error (issue 19.6j)', async () => {
    const proxy = await recordingProxy(sandbox().url);
    const user = profile(proxy.url);
    expectExit(await user.passwordLogin(), 0);
    expect(expectExit(await user.run(['logout']), 0).stderr).toBe('Logged out of profile default.\n');
    const calls = proxy.calls.length;
    expect(expectExit(await user.run(['logout']), 0).stderr).toBe('Not logged in to profile default: nothing to forget.\n');
    expect(proxy.calls.slice(calls)).toEqual([]);
  });

  it('a revoke endpoint that cannot be reached is a warning: the tokens are forgotten anyway', async () => {
    const user = profile(sandbox().url);
    const closed = `http://127.0.0.1:${await freePort()}/o/revoke_token/`;
    expectExit(await user.passwordLogin(undefined, ['--revoke-url', closed]), 0);
    const logout = expectExit(await user.run(['logout']), 0);
    expect(logout.stderr).toMatch(new RegExp(`^warning: could not revoke the refresh token at ${closed}: POST .* failed: connection refused\n`));
    expect(logout.stderr).toContain('Logged out of profile default.');
    expect(user.stored().token).toBeUndefined();
  });
});
