import type { IncomingMessage } from 'node:http';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, tinyServer, type TinyServer } from '../api/tiny-server.js';
import { startMerch } from '../support/run-merch.js';
import { expectExit, profile } from './helpers.js';
import { freePort } from '../support/servers.js';

// An authorization server that is not ours: oauth2-mock-server 8 (Express, JWT access
// tokens, PKCE checked, an id_token we did not ask for in every answer) as the token,
// authorize and revoke endpoints; a tiny API that accepts the tokens it issued. Proves
// the CLI speaks standard OAuth 2.0, not only the sandbox's emulation of DOT.

const APP = { id: 'merch-ci-app', secret: 'mock-client-secret' };

let provider: OAuth2Server;
/** Every token request the provider answered: grant type and client authentication. */
const tokenRequests: { grant: string; basic: boolean }[] = [];
let revocations = 0;
/** Access tokens the API accepts: the provider's, until a test withdraws one. */
const accepted = new Set<string>();
/** Play a provider that accepts the client's credentials only as form fields. */
let refuseBasic = false;

beforeAll(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  provider.service.on('beforeResponse', (response: { body: Record<string, unknown>; statusCode: number }, req: IncomingMessage & { body: Record<string, string> }) => {
    const basic = /^Basic /.test(req.headers.authorization ?? '');
    tokenRequests.push({ grant: req.body.grant_type!, basic });
    if (refuseBasic && basic) {
      response.statusCode = 401;
      response.body = { error: 'invalid_client' };
    }
    if (typeof response.body.access_token === 'string') accepted.add(response.body.access_token);
  });
  provider.service.on('beforeRevoke', () => revocations++);
});
afterAll(() => provider?.stop());

/** The API: users/me and orders for the provider's tokens; 401 with DOT's challenge otherwise. */
async function api(): Promise<TinyServer> {
  return tinyServer((req, res) => {
    const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !accepted.has(token)) {
      return json(res, 401, { detail: 'Authentication credentials were not provided.' }, { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' });
    }
    if (req.url === '/v1/users/me') {
      return json(res, 200, { id: 7, username: 'ci', first_name: 'C', last_name: 'I', email: 'ci@example.com', phone: '', current_account: { id: 42, name: 'Example Co' } });
    }
    return json(res, 200, { count: 0, next: null, previous: null, results: [] });
  });
}

const endpoints = () => ['--token-url', `${provider.issuer.url}/token`, '--revoke-url', `${provider.issuer.url}/revoke`];

describe('against oauth2-mock-server', () => {
  it('password grant, account discovery, a refresh after a 401, and logout revocation', async () => {
    const server = await api();
    const user = profile(server.url);
    tokenRequests.length = 0;
    const login = expectExit(await user.run(['login', '--client-id', APP.id, '--username', 'ci@example.com', '--password-stdin', ...endpoints()], { stdin: 'ci-password', env: { MERCH_CLIENT_SECRET: APP.secret } }), 0);
    expect(login.stderr).toContain('as ci@example.com, account Example Co (42)');
    expect(tokenRequests).toEqual([{ grant: 'password', basic: true }]);
    expect(user.stored().session).toMatchObject({ method: 'password', client_auth: 'basic', account: { id: '42' }, token_url: `${provider.issuer.url}/token` });

    // The API stops accepting the token: one refresh at the provider, one retry.
    accepted.delete(user.stored().token);
    const list = expectExit(await user.run(['orders', 'list']), 0);
    expect(list.stdout).toMatch(/^id\t/);
    expect(tokenRequests.map((request) => request.grant)).toEqual(['password', 'refresh_token']);
    expect(server.requests.filter((request) => request.url.startsWith('/v1/orders')).map((request) => request.headers['sc-account-id'])).toEqual(['42', '42']);

    const before = revocations;
    expectExit(await user.run(['logout']), 0);
    expect(revocations - before).toBe(2);
    expect(user.stored().token).toBeUndefined();
  });

  it('a provider that refuses HTTP Basic gets the client as form fields, and its refreshes go that way at once', async () => {
    const server = await api();
    const user = profile(server.url);
    tokenRequests.length = 0;
    refuseBasic = true;
    try {
      expectExit(await user.run(['login', '--client-id', APP.id, '--username', 'ci@example.com', '--password-stdin', ...endpoints()], { stdin: 'ci-password', env: { MERCH_CLIENT_SECRET: APP.secret } }), 0);
      expect(user.stored().session.client_auth).toBe('post');
      expectExit(await user.run(['auth', 'refresh']), 0);
    } finally {
      refuseBasic = false;
    }
    expect(tokenRequests).toEqual([
      { grant: 'password', basic: true },
      { grant: 'password', basic: false },
      { grant: 'refresh_token', basic: false },
    ]);
  });

  it('--web: authorization code with PKCE S256 through a provider that redirects at once', async () => {
    const server = await api();
    const user = profile(server.url);
    const port = await freePort();
    tokenRequests.length = 0;
    const run = startMerch(['login', '--web', '--client-id', APP.id, '--no-browser', '--callback-port', String(port), '--authorize-url', `${provider.issuer.url}/authorize`, ...endpoints()], {
      env: { MERCH_BASE_URL: server.url, MERCH_CONFIG_DIR: user.dir, MERCH_CLIENT_SECRET: APP.secret },
    });
    await run.io.written((_out, err) => /sign in: \S+/.test(err));
    const authorize = /sign in: (\S+)/.exec(run.io.errors())![1]!;
    // The "browser": the provider redirects to the CLI's callback, which answers the page.
    const page = await fetch(authorize);
    expect(page.url.startsWith(`http://127.0.0.1:${port}/callback?code=`)).toBe(true);
    expect(await page.text()).toContain('Signed in');
    const result = expectExit(await run.done, 0);
    expect(result.stderr).toContain('as ci@example.com, account Example Co (42)');
    expect(tokenRequests).toEqual([{ grant: 'authorization_code', basic: true }]);
    expect(user.stored().session).toMatchObject({ method: 'web', client_id: APP.id });
  });
});
