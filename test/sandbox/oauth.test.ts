import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runMerch, startMerch } from '../support/run-merch.js';
import { waitFor } from '../support/wait-for.js';
import { useSandbox } from '../support/sandbox.js';
import { call } from './helpers.js';

// The sandbox's OAuth 2.0 server (django-oauth-toolkit's behaviour), over real HTTP. The clock
// of token and code expiry is the test's: `moveClock` instead of waiting.

const PRIVATE = { id: 'sandbox-private-app', secret: 'sandbox-private-secret' };
const WEB = { id: 'sandbox-web-app', secret: 'sandbox-web-secret' };
const BUYER = { email: 'buyer@example.com', password: 'sandbox-password' };
const BUYER2 = { email: 'buyer2@example.com', password: 'sandbox-password-2' };
const CALLBACK = 'http://127.0.0.1:45678/callback';
const TTL = 600;

let now = Date.UTC(2026, 0, 1);
const moveClock = (ms: number): void => {
  now += ms;
};
const sandbox = useSandbox({ tokenTtl: TTL, redirectUris: [CALLBACK], clock: () => now });

interface Client {
  id: string;
  secret: string;
  /** 'basic' (default): HTTP Basic; 'form': client_id + client_secret fields. */
  via?: 'basic' | 'form';
}

const basic = (client: Client): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`;

async function postForm(path: string, fields: Record<string, string>, client?: Client) {
  const body = new URLSearchParams(fields);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client && client.via === 'form') {
    body.set('client_id', client.id);
    body.set('client_secret', client.secret);
  } else if (client) {
    headers.authorization = basic(client);
  }
  const response = await fetch(`${sandbox().url}${path}`, { method: 'POST', headers, body, redirect: 'manual' });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') && text !== '';
  return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text };
}

const token = (fields: Record<string, string>, client: Client = PRIVATE) => postForm('/o/token/', fields, client);

async function passwordLogin(user = BUYER) {
  const reply = await token({ grant_type: 'password', username: user.email, password: user.password });
  expect(reply.status).toBe(200);
  return reply.body as { access_token: string; refresh_token: string; expires_in: number };
}

const me = (accessToken: string) => call(sandbox(), '/v1/users/me', { token: accessToken });

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeQuery(overrides: Record<string, string | undefined> = {}, challenge = pkce().challenge): string {
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: WEB.id,
    redirect_uri: CALLBACK,
    state: 'st-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
  const defined = Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return new URLSearchParams(defined).toString();
}

/** Signs in on the authorize page and answers its consent form: the redirect's Location. */
async function authorize(decision: 'authorize' | 'deny', challenge: string, user = BUYER): Promise<URL> {
  const query = authorizeQuery({}, challenge);
  const page = await fetch(`${sandbox().url}/o/authorize/?${query}`);
  expect(page.status).toBe(200);
  const signIn = await postForm(`/o/authorize/?${query}`, { username: user.email, password: user.password });
  expect(signIn.status).toBe(200);
  const ticket = /name="consent" value="([^"]+)"/.exec(signIn.body)?.[1];
  expect(ticket).toBeDefined();
  const answer = await postForm('/o/authorize/', { consent: ticket!, decision });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!);
}

async function codeLogin(user = BUYER) {
  const { verifier, challenge } = pkce();
  const code = (await authorize('authorize', challenge, user)).searchParams.get('code')!;
  const reply = await token({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }, WEB);
  expect(reply.status).toBe(200);
  return reply.body as { access_token: string; refresh_token: string };
}

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

describe('GET /v1/users/me', () => {
  it('names the user and the account of each seeded user\'s token', async () => {
    const first = await me((await passwordLogin(BUYER)).access_token);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: 1,
      username: 'buyer@example.com',
      first_name: expect.any(String),
      last_name: expect.any(String),
      email: 'buyer@example.com',
      phone: expect.any(String),
      current_account: { id: 'acme', name: 'Acme' },
    });
    const second = await me((await passwordLogin(BUYER2)).access_token);
    expect(second.body).toMatchObject({ id: 2, email: 'buyer2@example.com', current_account: { id: 'globex', name: 'Globex' } });
    expect(second.body).not.toHaveProperty('password');
  });

  it('answers the static tokens as their account\'s user', async () => {
    expect((await me('sandbox-token')).body.current_account.id).toBe('acme');
    expect((await me('sandbox-token-2')).body.email).toBe('buyer2@example.com');
  });

  it('keeps each account\'s data to its own token', async () => {
    const globex = (await passwordLogin(BUYER2)).access_token;
    const mine = await call(sandbox(), '/v1/custom-products', { token: globex });
    const acme = await call(sandbox(), '/v1/custom-products');
    const ids = (reply: typeof mine) => reply.body.results.map((product: { id: number }) => product.id);
    expect(ids(mine)).not.toEqual(expect.arrayContaining([ids(acme)[0]]));
    expect((await call(sandbox(), '/v1/custom-products', { token: globex, headers: { 'SC-Account-Id': 'acme' } })).status).toBe(403);
  });
});

describe('the authorization code grant with PKCE (web app)', () => {
  it('signs in, authorizes, redirects with code and state, and exchanges the code once', async () => {
    const { verifier, challenge } = pkce();
    const location = await authorize('authorize', challenge);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('state')).toBe('st-123');
    const code = location.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9]{30}$/);

    const exchange = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
    const reply = await token(exchange, { ...WEB, via: 'form' });
    expect(reply.status).toBe(200);
    expect(reply.body.token_type).toBe('Bearer');
    expect((await me(reply.body.access_token)).body.email).toBe(BUYER.email);

    const reused = await token(exchange, WEB);
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ error: 'invalid_grant' });
  });

  it('refuses a wrong verifier (the code stays usable), a missing one, and another redirect_uri', async () => {
    const { verifier, challenge } = pkce();
    const code = (await authorize('authorize', challenge)).searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK };

    const wrong = await token({ ...exchange, code_verifier: pkce().verifier }, WEB);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_grant' });
    const missing = await token(exchange, WEB);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
    const elsewhere = await token({ ...exchange, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:8719/callback' }, WEB);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe('invalid_request');

    expect((await token({ ...exchange, code_verifier: verifier }, WEB)).status).toBe(200);
  });

  it('refuses a code older than 60 s', async () => {
    const { verifier, challenge } = pkce();
    const code = (await authorize('authorize', challenge)).searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier };
    moveClock(61_000);
    const late = await token(exchange, WEB);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ error: 'invalid_grant' });
  });

  it('sends a Deny back as error=access_denied with the state', async () => {
    const location = await authorize('deny', pkce().challenge);
    expect(`${location.origin}${location.pathname}`).toBe(CALLBACK);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('shows the sign-in form, and shows it again on a wrong password', async () => {
    const query = authorizeQuery();
    const page = await fetch(`${sandbox().url}/o/authorize/?${query}`);
    const html = await page.text();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('name="username"');
    expect(html).toContain('name="password"');
    expect(html).toContain('>Sign in</button>');
    expect(html).toContain('Sandbox web app');

    const wrong = await postForm(`/o/authorize/?${query}`, { username: BUYER.email, password: 'nope' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toContain('The email or the password is not right.');
    expect(wrong.body).toContain(`value="${BUYER.email}"`);
    expect(wrong.body).not.toContain('name="consent"');
  });

  it('refuses an unregistered redirect URI with a 400 page and no redirect, even when the URI differs only by host or port', async () => {
    for (const redirect of ['http://localhost:45678/callback', 'http://127.0.0.1:45679/callback', `${CALLBACK}/`, 'https://evil.example/callback']) {
      const response = await fetch(`${sandbox().url}/o/authorize/?${authorizeQuery({ redirect_uri: redirect })}`, { redirect: 'manual' });
      expect(response.status, redirect).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('x-merch-sandbox')).toBe('1');
      const html = await response.text();
      expect(html).toContain('is not registered');
      expect(html).toContain(CALLBACK);
      // A sign-in posted to such a URL is refused the same way.
      const signIn = await postForm(`/o/authorize/?${authorizeQuery({ redirect_uri: redirect })}`, { username: BUYER.email, password: BUYER.password });
      expect(signIn.status).toBe(400);
      expect(signIn.headers.get('location')).toBeNull();
    }
    for (const query of [authorizeQuery({ client_id: 'nobody' }), authorizeQuery({ client_id: PRIVATE.id }), authorizeQuery({ redirect_uri: undefined })]) {
      const response = await fetch(`${sandbox().url}/o/authorize/?${query}`, { redirect: 'manual' });
      expect(response.status, query).toBe(400);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('sends request errors back to a registered redirect URI: no PKCE challenge, plain PKCE, another response_type', async () => {
    const cases = [
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
    ] as const;
    for (const [overrides, error] of cases) {
      const response = await fetch(`${sandbox().url}/o/authorize/?${authorizeQuery(overrides)}`, { redirect: 'manual' });
      expect(response.status, JSON.stringify(overrides)).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('state')).toBe('st-123');
    }
  });

  it('accepts a consent ticket once', async () => {
    const query = authorizeQuery();
    const signIn = await postForm(`/o/authorize/?${query}`, { username: BUYER.email, password: BUYER.password });
    const ticket = /name="consent" value="([^"]+)"/.exec(signIn.body)![1]!;
    expect((await postForm('/o/authorize/', { consent: ticket, decision: 'authorize' })).status).toBe(302);
    const again = await postForm('/o/authorize/', { consent: ticket, decision: 'authorize' });
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
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

describe('401 answers of the API', () => {
  it('keeps DRF\'s body for all and tells the cases apart only by WWW-Authenticate', async () => {
    const issued = await passwordLogin();
    await postForm('/o/revoke_token/', { token: issued.access_token }, PRIVATE);
    const cases: [string | null, string][] = [
      [null, 'Bearer realm="api"'],
      ['not-a-token', 'Bearer realm="api",error="invalid_token",error_description="The access token is invalid."'],
      [issued.access_token, 'Bearer realm="api",error="invalid_token",error_description="The access token is invalid."'],
    ];
    for (const [sent, challenge] of cases) {
      const reply = await call(sandbox(), '/v1/orders', { token: sent });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ detail: 'Authentication credentials were not provided.' });
      expect(reply.headers.get('www-authenticate')).toBe(challenge);
    }
    const basicOnly = await call(sandbox(), '/v1/orders', { token: null, headers: { authorization: basic(PRIVATE) } });
    expect(basicOnly.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  it('keeps the static tokens working', async () => {
    expect((await call(sandbox(), '/v1/orders', { token: 'sandbox-token' })).status).toBe(200);
    expect((await call(sandbox(), '/v1/orders', { token: 'sandbox-token-2' })).status).toBe(200);
  });

  it('records the OAuth requests with the service requests', async () => {
    await passwordLogin();
    const recorded = sandbox().requests.filter((request) => request.path === '/o/token/');
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.at(-1)).toMatchObject({ method: 'POST', status: 200, account: null });
  });
});

describe('--data', () => {
  const directory = mkdtempSync(join(tmpdir(), 'merch-oauth-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps issued tokens across a restart', async () => {
    const data = join(directory, 'state.json');
    const first = await startSandbox({ port: 0, catalog: 5, data });
    const form = new URLSearchParams({ grant_type: 'password', username: BUYER.email, password: BUYER.password });
    const issued = (await (await fetch(`${first.url}/o/token/`, { method: 'POST', headers: { authorization: basic(PRIVATE) }, body: form })).json()) as {
      access_token: string;
      refresh_token: string;
    };
    await first.close();
    const second: Sandbox = await startSandbox({ port: 0, catalog: 5, data });
    try {
      expect((await call(second, '/v1/users/me', { token: issued.access_token })).status).toBe(200);
      const refresh = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: issued.refresh_token });
      const refreshed = await fetch(`${second.url}/o/token/`, { method: 'POST', headers: { authorization: basic(PRIVATE) }, body: refresh });
      expect(refreshed.status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('startSandbox options', () => {
  it('refuses a bad token TTL and a bad redirect URI, naming them', async () => {
    await expect(startSandbox({ port: 0, tokenTtl: 0 })).rejects.toThrow(/^--token-ttl must be/);
    await expect(startSandbox({ port: 0, redirectUris: ['not a url'] })).rejects.toThrow(/^redirectUris must be/);
  });
});

describe('merch sandbox --token-ttl', () => {
  it('prints the apps\' and users\' test credentials and issues tokens with the given lifetime', async () => {
    const run = startMerch(['sandbox', '--port', '0', '--catalog', '5', '--quiet', '--token-ttl', '90']);
    await run.io.written((_out, err) => err.includes('access tokens last'));
    const banner = run.io.errors();
    for (const credential of [PRIVATE.id, PRIVATE.secret, WEB.id, WEB.secret, BUYER.email, BUYER.password, BUYER2.email, BUYER2.password]) {
      expect(banner).toContain(credential);
    }
    expect(banner).toContain('http://127.0.0.1:8719/callback');
    const url = /listening on (http:\/\/\S+?);/.exec(banner)![1]!;
    const form = new URLSearchParams({ grant_type: 'password', username: BUYER.email, password: BUYER.password });
    const issued = await fetch(`${url}/o/token/`, { method: 'POST', headers: { authorization: basic(PRIVATE) }, body: form });
    expect(((await issued.json()) as { expires_in: number }).expires_in).toBe(90);
    run.interrupt();
    expect((await run.done).code).toBe(0);
  });

  it('refuses a bad --token-ttl naming the flag (exit 2)', async () => {
    for (const ttl of ['0', 'soon', '1.5']) {
      const result = await runMerch(['sandbox', '--port', '0', '--token-ttl', ttl]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: --token-ttl must be/m);
    }
  });
});
