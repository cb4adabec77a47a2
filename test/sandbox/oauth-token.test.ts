import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { useSandbox } from '../support/sandbox.js';
import { waitFor } from '../support/wait-for.js';
import { call } from './helpers.js';
import { basic, BUYER, BUYER2, CALLBACK, oauthClient, PRIVATE, WEB } from './oauth-helpers.js';

// The sandbox's /o/token/ and /o/revoke_token/ (django-oauth-toolkit's behaviour), over real
// HTTP. The clock of token expiry is the test's: `moveClock` instead of waiting.

const TTL = 600;
let now = Date.UTC(2026, 0, 1);
const moveClock = (ms: number): void => {
  now += ms;
};
const sandbox = useSandbox({ tokenTtl: TTL, redirectUris: [CALLBACK], clock: () => now });
const { postForm, token, passwordLogin, me, codeLogin } = oauthClient(sandbox);

describe('the password grant (private app)', () => {
  it('issues a bearer token pair that works on the API for the user\'s account', async () => {
    const reply = await token({ grant_type: 'password', username: BUYER.email, password: BUYER.password });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9]{30}$/),
      expires_in: TTL,
      token_type: 'Bearer',
      scope: 'read write',
      refresh_token: expect.stringMatching(/^[A-Za-z0-9]{30}$/),
    });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const orders = await call(sandbox(), '/v1/custom-products', { token: reply.body.access_token, headers: { 'SC-Account-Id': 'acme' } });
    expect(orders.status).toBe(200);
    expect(orders.body.count).toBeGreaterThan(0);
  });

  it('authenticates the client with HTTP Basic or with form fields', async () => {
    const fields = { grant_type: 'password', username: BUYER.email, password: BUYER.password };
    expect((await token(fields, { ...PRIVATE, via: 'basic' })).status).toBe(200);
    expect((await token(fields, { ...PRIVATE, via: 'form' })).status).toBe(200);
  });

  it('form-decodes Basic credentials (RFC 6749 2.3.1) and refuses a malformed Basic header', async () => {
    const form = new URLSearchParams({ grant_type: 'password', username: BUYER.email, password: BUYER.password });
    const post = (authorization: string) =>
      fetch(`${sandbox().url}/o/token/`, { method: 'POST', headers: { authorization }, body: form });
    const encoded = Buffer.from('sandbox%2Dprivate%2Dapp:sandbox-private-secret').toString('base64');
    expect((await post(`Basic ${encoded}`)).status).toBe(200);
    const noColon = await post(`Basic ${Buffer.from('sandbox-private-app').toString('base64')}`);
    expect(noColon.status).toBe(401);
    expect(await noColon.json()).toEqual({ error: 'invalid_client' });
    expect((await post(`Basic ${Buffer.from('sandbox-private-app:%E0%A4%A').toString('base64')}`)).status).toBe(401);
  });

  it('tells a wrong client (401 invalid_client, with a challenge) from a wrong user (400 invalid_grant)', async () => {
    const fields = { grant_type: 'password', username: BUYER.email, password: BUYER.password };
    for (const client of [{ ...PRIVATE, secret: 'wrong' }, { ...PRIVATE, secret: 'wrong', via: 'form' as const }, { id: 'nobody', secret: 'x' }]) {
      const reply = await token(fields, client);
      expect(reply.status, client.id).toBe(401);
      expect(reply.body).toEqual({ error: 'invalid_client' });
      expect(reply.headers.get('www-authenticate')).toBe('Bearer error="invalid_client"');
      expect(reply.headers.get('x-merch-sandbox')).toBe('1');
    }
    const noClient = await postForm('/o/token/', fields);
    expect(noClient.status).toBe(401);

    for (const [username, password] of [[BUYER.email, 'wrong'], ['nobody@example.com', BUYER.password], [BUYER.email, BUYER2.password]]) {
      const reply = await token({ grant_type: 'password', username: username!, password: password! });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toBe('invalid_grant');
      expect(reply.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('refuses a grant the app is not registered for, an unknown grant and missing parameters', async () => {
    const password = { grant_type: 'password', username: BUYER.email, password: BUYER.password };
    expect((await token(password, WEB)).body).toEqual({ error: 'unauthorized_client' });
    expect((await token({ grant_type: 'authorization_code', code: 'x', redirect_uri: CALLBACK, code_verifier: 'v' })).body).toEqual({
      error: 'unauthorized_client',
    });
    const unknown = await token({ grant_type: 'magic' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'unsupported_grant_type' });
    for (const missing of [{}, { grant_type: 'password', username: BUYER.email }, { grant_type: 'refresh_token' }] as Record<string, string>[]) {
      const reply = await token(missing);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toBe('invalid_request');
    }
  });
});

describe('the refresh grant with rotation', () => {
  it('rotates: the new pair works, the old refresh and access tokens are refused at once', async () => {
    for (const [login, client] of [[() => passwordLogin(), PRIVATE], [() => codeLogin(), WEB]] as const) {
      const first = await login();
      const reply = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, client);
      expect(reply.status).toBe(200);
      const second = reply.body;
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.refresh_token).not.toBe(first.refresh_token);

      const reused = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token }, client);
      expect(reused.status).toBe(400);
      expect(reused.body).toEqual({ error: 'invalid_grant' });
      const old = await me(first.access_token);
      expect(old.status).toBe(401);
      expect(old.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect((await me(second.access_token)).status).toBe(200);
      expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token }, client)).status).toBe(200);
    }
  });

  it('refuses another client\'s refresh token', async () => {
    const { refresh_token } = await passwordLogin();
    const reply = await token({ grant_type: 'refresh_token', refresh_token }, WEB);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'invalid_grant' });
    expect((await token({ grant_type: 'refresh_token', refresh_token })).status).toBe(200);
  });
});

describe('expiry', () => {
  it('refuses an access token once its lifetime has passed; its refresh token still refreshes', async () => {
    const issued = await passwordLogin();
    moveClock((TTL - 1) * 1000);
    expect((await me(issued.access_token)).status).toBe(200);
    moveClock(1000);
    const expired = await me(issued.access_token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(
      'Bearer realm="api",error="invalid_token",error_description="The access token has expired."',
    );
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await me(refreshed.body.access_token)).status).toBe(200);
  });

  it('follows the real clock by default (tokenTtl 1)', async () => {
    const quick = await startSandbox({ port: 0, tokenTtl: 1 });
    try {
      const form = new URLSearchParams({ grant_type: 'password', username: BUYER.email, password: BUYER.password });
      const issued = await fetch(`${quick.url}/o/token/`, { method: 'POST', headers: { authorization: basic(PRIVATE) }, body: form });
      const { access_token: accessToken, expires_in: expiresIn } = (await issued.json()) as { access_token: string; expires_in: number };
      expect(expiresIn).toBe(1);
      await waitFor(async () => (await call(quick, '/v1/users/me', { token: accessToken })).status === 401, 'the token to expire');
    } finally {
      await quick.close();
    }
  });
});

describe('POST /o/revoke_token/', () => {
  it('revokes an access token alone, and a refresh token with its access token', async () => {
    const first = await passwordLogin();
    const revokeAccess = await postForm('/o/revoke_token/', { token: first.access_token, token_type_hint: 'access_token' }, PRIVATE);
    expect(revokeAccess.status).toBe(200);
    expect((await me(first.access_token)).status).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);

    const second = refreshed.body;
    expect((await postForm('/o/revoke_token/', { token: second.refresh_token }, { ...PRIVATE, via: 'form' })).status).toBe(200);
    expect((await me(second.access_token)).status).toBe(401);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token });
    expect(reused.body).toEqual({ error: 'invalid_grant' });
  });

  it('answers 200 for an unknown token, leaves another client\'s token alone, and refuses a wrong client', async () => {
    expect((await postForm('/o/revoke_token/', { token: 'unknown' }, PRIVATE)).status).toBe(200);
    const issued = await passwordLogin();
    expect((await postForm('/o/revoke_token/', { token: issued.access_token }, WEB)).status).toBe(200);
    expect((await me(issued.access_token)).status).toBe(200);

    const wrong = await postForm('/o/revoke_token/', { token: issued.access_token }, { ...PRIVATE, secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client' });
    expect((await me(issued.access_token)).status).toBe(200);
    expect((await postForm('/o/revoke_token/', {}, PRIVATE)).body.error).toBe('invalid_request');
    // An unknown hint is ignored, as oauthlib does.
    expect((await postForm('/o/revoke_token/', { token: issued.access_token, token_type_hint: 'id_token' }, PRIVATE)).status).toBe(200);
    expect((await me(issued.access_token)).status).toBe(401);
  });
});
