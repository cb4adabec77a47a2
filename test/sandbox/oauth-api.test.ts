import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runMerch, startMerch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { call } from './helpers.js';
import { basic, BUYER, BUYER2, oauthClient, PRIVATE, WEB } from './oauth-helpers.js';

// The API's side of the sandbox's OAuth server: /v1/users/me, who a token acts for, the 401
// challenges, tokens kept by --data, and the options and flag that set it up.

const sandbox = useSandbox();
const { postForm, passwordLogin, me } = oauthClient(sandbox);

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
  it('keeps issued tokens across a restart', async () => {
    const data = join(tempDir('merch-oauth-'), 'state.json');
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

describe('--data from before the OAuth server', () => {
  it('refuses a version 1 state file with one line saying what to do', async () => {
    const old = join(tempDir('merch-oauth-'), 'v1.json');
    writeFileSync(old, JSON.stringify({ version: 1, accounts: [] }));
    await expect(startSandbox({ port: 0, data: old })).rejects.toThrow(/v1\.json is not a version 2 sandbox state; remove it to start from the seed\.$/);
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
      expect(result.stderr).toMatch(/^error: option '--token-ttl <duration>' argument '.+' is invalid\. expected (a duration|whole seconds)/m);
    }
  });
});
