import { describe, expect, it, onTestFinished } from 'vitest';
import { NOT_AUTHENTICATED_FORMS, type NotAuthenticatedForm } from '../../src/sandbox/options.js';
import { useSandbox } from '../support/sandbox.js';
import { expectExit, profile, recordingProxy } from './helpers.js';

// Issue 40.6: every form of "not signed in" (src/api/not-authenticated.ts). A sandbox per
// form of refusing a token it does not take (`--not-authenticated`: 401 with its challenge,
// 401 without, DRF's 403), its clock ahead of this machine's once the test has signed in: the
// stored token has expired at the service, not by the profile's reckoning, so the service
// refuses it. A profile that can refresh does, once, and the command succeeds; one that
// cannot is told it is not signed in (MERCH_TOKEN: its token was refused), never that it
// lacks permission; a refusal of permission keeps the permission hint.

const AHEAD_MS = 2 * 3600_000;
const skew: Record<NotAuthenticatedForm, number> = { '401': 0, '401-bare': 0, '403': 0 };
const sandboxes = Object.fromEntries(
  NOT_AUTHENTICATED_FORMS.map((form) => [form, useSandbox({ notAuthenticated: form, clock: () => Date.now() + skew[form] })]),
) as Record<NotAuthenticatedForm, ReturnType<typeof useSandbox>>;

const REFUSED = 'Authentication credentials were not provided.';
const FIRST_LINE: Record<NotAuthenticatedForm, string> = {
  '401': `401 Unauthorized: ${REFUSED}`,
  '401-bare': `401 Unauthorized: ${REFUSED}`,
  '403': `403 Forbidden: ${REFUSED}`,
};

/** Signed in with the password grant (through a recording proxy), then the service's clock moved on past the token's hour. */
async function signedInThenExpired(form: NotAuthenticatedForm) {
  const proxy = await recordingProxy(sandboxes[form]().url);
  const user = profile(proxy.url);
  expectExit(await user.passwordLogin(), 0);
  skew[form] = AHEAD_MS;
  onTestFinished(() => {
    skew[form] = 0;
  });
  return { proxy, user, first: user.stored() };
}

/** What the sandbox answers to `token` now: its status and challenge. */
async function answerTo(form: NotAuthenticatedForm, token: string): Promise<[number, string | null]> {
  const response = await fetch(`${sandboxes[form]().url}/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
  await response.body?.cancel();
  return [response.status, response.headers.get('www-authenticate')];
}

const shown = (calls: { method: string; path: string; grant?: string }[]) => calls.map((call) => `${call.method} ${call.path.split('?')[0]} ${call.grant ?? ''}`.trim());

describe.each(NOT_AUTHENTICATED_FORMS)('a token the service no longer takes, refused as --not-authenticated %s', (form) => {
  it('is refused in that form; a profile that can refresh refreshes once and the command succeeds', async () => {
    const { proxy, user, first } = await signedInThenExpired(form);
    const [status, challenge] = await answerTo(form, first.token);
    expect(status).toBe(form === '403' ? 403 : 401);
    if (form === '401') expect(challenge).toMatch(/^Bearer realm="api",error="invalid_token"/);
    else expect(challenge).toBeNull();
    const calls = proxy.calls.length;

    const list = expectExit(await user.run(['orders', 'list', '--limit', '1']), 0);
    expect(list.stderr).toBe('');
    expect(shown(proxy.calls.slice(calls))).toEqual(['GET /v1/orders', 'POST /o/token/ refresh_token', 'GET /v1/orders']);
    const second = user.stored();
    expect(second.token).not.toBe(first.token);
    expect(await answerTo(form, second.token)).toEqual([200, null]);
  });

  it('MERCH_TOKEN cannot be refreshed: exit 3, its token was refused, set a fresh one; not the permission hint', async () => {
    const { proxy, user, first } = await signedInThenExpired(form);
    const calls = proxy.calls.length;
    const result = expectExit(await user.run(['orders', 'list', '--limit', '1'], { env: { MERCH_TOKEN: first.token } }), 3);
    expect(result.stderr.split('\n')).toEqual([
      `error: GET /v1/orders?limit=1 failed: ${FIRST_LINE[form]}`,
      'hint: the service refused the token in MERCH_TOKEN (expired or revoked?), which merch cannot refresh: set a fresh one, or unset MERCH_TOKEN and sign in: merch login',
      '',
    ]);
    expect(result.stderr).not.toContain(first.token);
    expect(shown(proxy.calls.slice(calls))).toEqual(['GET /v1/orders']);
  });

  it('a sign-in without a refresh token (login --with-token): exit 3, not signed in, sign in again', async () => {
    const { first } = await signedInThenExpired(form);
    skew[form] = 0;
    const proxy = await recordingProxy(sandboxes[form]().url);
    const other = profile(proxy.url);
    expectExit(await other.run(['login', '--with-token'], { stdin: `${first.token}\n` }), 0);
    skew[form] = AHEAD_MS;
    const calls = proxy.calls.length;

    const result = expectExit(await other.run(['orders', 'list', '--limit', '1']), 3);
    expect(result.stderr.split('\n')).toEqual([
      `error: GET /v1/orders?limit=1 failed: ${FIRST_LINE[form]}`,
      'hint: not signed in: the service refused the token (expired or revoked?): sign in again: merch login (merch auth status shows the sign-in)',
      '',
    ]);
    expect(shown(proxy.calls.slice(calls))).toEqual(['GET /v1/orders']);
  });
});

describe('a refusal of permission', () => {
  it("a 403 that is not about the token (another account's id) keeps the permission hint, and nothing is refreshed", async () => {
    const proxy = await recordingProxy(sandboxes['403']().url);
    const user = profile(proxy.url);
    expectExit(await user.passwordLogin(), 0);
    const calls = proxy.calls.length;
    const result = expectExit(await user.run(['orders', 'list', '--limit', '1', '--account-id', 'globex']), 3);
    expect(result.stderr.split('\n')).toEqual([
      "error: GET /v1/orders?limit=1 failed: 403 Forbidden: The SC-Account-Id header does not match the token's account.",
      'hint: the token is not allowed to do this (check --account-id)',
      '',
    ]);
    expect(shown(proxy.calls.slice(calls))).toEqual(['GET /v1/orders']);
  });
});
