import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refreshStoredToken } from '../../src/auth/refresh.js';
import { AuthError } from '../../src/auth/errors.js';
import { resolveSettings } from '../../src/config/settings.js';
import { json, tinyServer, type TinyServer } from '../api/tiny-server.js';
import { merch } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { expectExit, profile, recordingProxy } from './helpers.js';

// Issue 41.1: a secret belongs to its origin. The profile's token (and its refresh token and
// client secret, and the account it was obtained for) goes only to the origin of the base
// URL it was obtained for, refreshes only to the token endpoint stored with it; the design
// tool key only to the origin it was stored for. Another origin gets none of them: exit 3,
// nothing sent but, to a loopback server, the sandbox probe, which carries no credentials.
// A tiny server on port 0 stands in for the other origin and records what it receives.

const sandbox = useSandbox();
const EMPTY_LIST = { count: 0, next: null, previous: null, results: [] };

/** A server that refuses every request with 401, as a service would refuse a token it does not know. */
function refusingServer(): Promise<TinyServer> {
  return tinyServer((_req, res) => json(res, 401, { detail: 'Invalid token.' }));
}

/** No request carried a credential of the profile. */
function expectNoCredentials(server: TinyServer): void {
  for (const request of server.requests) {
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['sc-account-id']).toBeUndefined();
    expect(request.headers['x-api-key']).toBeUndefined();
  }
}

/** Signed in with the password grant through a recording proxy in front of the sandbox (its own origin). */
async function signedIn() {
  const proxy = await recordingProxy(sandbox().url);
  const user = profile(proxy.url);
  expectExit(await user.passwordLogin(), 0);
  return { proxy, user, run: user.run };
}

describe('the token goes to the origin it was obtained for only', () => {
  it('MERCH_BASE_URL or --base-url naming another origin: exit 3 naming it and how to sign in there; no token, account or refresh sent', async () => {
    const { proxy, run } = await signedIn();
    const other = await refusingServer();
    const here = new URL(proxy.url).origin;
    for (const [args, env] of [
      [['orders', 'list'], { MERCH_BASE_URL: other.url }],
      [['orders', 'list', '--base-url', other.url], {}],
    ] as const) {
      const result = expectExit(await run([...args], { env: { ...env } }), 3);
      expect(result.stderr).toBe(
        `error: not signed in at ${other.url}: profile default is signed in at ${here}, and its token goes nowhere else\n` +
          `hint: sign in there: merch login --base-url ${other.url} (with --profile NAME to keep this sign-in), or set MERCH_TOKEN\n`,
      );
    }
    // A loopback server is asked, without credentials, whether it is a merch sandbox; nothing else.
    expect(other.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /v1/users/me', 'GET /v1/users/me']);
    expectNoCredentials(other);
    expect(proxy.grants('refresh_token')).toBe(0);

    // A remote origin is not even asked.
    const remote = expectExit(await run(['orders', 'list'], { env: { MERCH_BASE_URL: 'https://api.example.invalid' } }), 3);
    expect(remote.stderr.split('\n')[0]).toBe(`error: not signed in at https://api.example.invalid: profile default is signed in at ${here}, and its token goes nowhere else`);

    // At its own origin the sign-in works as before.
    expectExit(await run(['orders', 'list', '--limit', '1']), 0);
  });

  it('an expired token at another origin is not refreshed, and a 401 there refreshes nothing', async () => {
    const { proxy, user, run } = await signedIn();
    const other = await refusingServer();
    // The token has expired: a run at its own origin would refresh it first.
    const file = join(user.dir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.profiles.default.session.expires_at = new Date(Date.now() - 60_000).toISOString();
    writeFileSync(file, JSON.stringify(config));
    expectExit(await run(['orders', 'list'], { env: { MERCH_BASE_URL: other.url } }), 3);
    expectExit(await run(['auth', 'refresh'], { env: { MERCH_BASE_URL: other.url } }), 3);
    expectExit(await run(['auth', 'token'], { env: { MERCH_BASE_URL: other.url } }), 3);
    expect(proxy.grants('refresh_token')).toBe(0);
    expectNoCredentials(other);
    // At its own origin it is refreshed, at the token endpoint stored with it.
    expectExit(await run(['orders', 'list', '--limit', '1']), 0);
    expect(proxy.grants('refresh_token')).toBe(1);
  });

  it('a refresh goes to the token endpoint stored with the token: MERCH_TOKEN_URL naming another gets nothing', async () => {
    const { proxy, user, run } = await signedIn();
    const tokenEndpoint = await tinyServer((_req, res) => json(res, 200, { access_token: 'planted', token_type: 'Bearer', refresh_token: 'planted-refresh', expires_in: 3600 }));
    const expire = () => {
      const file = join(user.dir, 'config.json');
      const config = JSON.parse(readFileSync(file, 'utf8'));
      config.profiles.default.session.expires_at = new Date(Date.now() - 60_000).toISOString();
      writeFileSync(file, JSON.stringify(config));
    };
    const elsewhere = { MERCH_TOKEN_URL: `${tokenEndpoint.url}/o/token/` };
    expire();
    expectExit(await run(['orders', 'list', '--limit', '1'], { env: elsewhere }), 0);
    expectExit(await run(['auth', 'refresh'], { env: elsewhere }), 0);
    expect(proxy.grants('refresh_token')).toBe(2);
    expect(tokenEndpoint.requests).toEqual([]);
    expect(user.stored().session.token_url).toBe(`${proxy.url}/o/token/`);
    expect(JSON.stringify(user.stored())).not.toContain('planted');
  });

  it('a refresh finds the profile signed in again at another origin meanwhile: it takes nothing from it and sends nothing', async () => {
    const { proxy, user } = await signedIn();
    const env = { MERCH_CONFIG_DIR: user.dir, MERCH_BASE_URL: proxy.url };
    const started = resolveSettings({}, env);
    expect(started.session?.origin).toBe(new URL(proxy.url).origin);
    // Another process signs the profile in elsewhere (another origin: another proxy).
    const elsewhere = await recordingProxy(sandbox().url);
    expectExit(await user.run(['login', '--client-id', 'sandbox-private-app', '--username', 'buyer@example.com', '--password-stdin'], { stdin: 'sandbox-password', env: { MERCH_BASE_URL: elsewhere.url, MERCH_CLIENT_SECRET: 'sandbox-private-secret' } }), 0);
    const refused = await refreshStoredToken(started, { force: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as AuthError).message).toBe(`not signed in at ${new URL(proxy.url).origin}: profile default is signed in at ${new URL(elsewhere.url).origin}, and its token goes nowhere else`);
    expect(proxy.grants('refresh_token') + elsewhere.grants('refresh_token')).toBe(0);
  });

  it('MERCH_TOKEN is the user\'s choice: it goes where the user points it (without the profile\'s account)', async () => {
    const { run } = await signedIn();
    const other = await tinyServer((_req, res) => json(res, 200, EMPTY_LIST));
    expectExit(await run(['orders', 'list'], { env: { MERCH_BASE_URL: other.url, MERCH_TOKEN: 'chosen-token' } }), 0);
    expect(other.requests.map((request) => [request.url.split('?')[0], request.headers.authorization, request.headers['sc-account-id']])).toEqual([['/v1/orders', 'Bearer chosen-token', undefined]]);
  });

  it('a profile written before merch recorded the origin is bound to its base-url, else the default', async () => {
    const service = await tinyServer((_req, res) => json(res, 200, EMPTY_LIST));
    const other = await refusingServer();
    const oldProfile = (fields: Record<string, unknown>) => {
      const dir = tempDir('merch-old-profile-');
      mkdirSync(dir, { recursive: true });
      const session = { method: 'token', user: { email: 'buyer@example.com' }, account: { id: 'acme', name: 'Acme' } };
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { token: 'old-token', session, ...fields } } }), { mode: 0o600 });
      return (args: string[], env: Record<string, string | undefined> = {}) => merch(service, args, { env: { MERCH_CONFIG_DIR: dir, MERCH_TOKEN: undefined, MERCH_BASE_URL: undefined, ...env } });
    };

    const withBaseUrl = oldProfile({ 'base-url': service.url });
    expectExit(await withBaseUrl(['orders', 'list']), 0);
    expect(service.requests.map((request) => [request.headers.authorization, request.headers['sc-account-id']])).toEqual([['Bearer old-token', 'acme']]);
    const elsewhere = expectExit(await withBaseUrl(['orders', 'list'], { MERCH_BASE_URL: other.url }), 3);
    expect(elsewhere.stderr.split('\n')[0]).toBe(`error: not signed in at ${other.url}: profile default is signed in at ${service.url}, and its token goes nowhere else`);
    expectNoCredentials(other);

    const withoutBaseUrl = oldProfile({});
    const remote = expectExit(await withoutBaseUrl(['orders', 'list'], { MERCH_BASE_URL: 'https://api.example.invalid' }), 3);
    expect(remote.stderr.split('\n')[0]).toBe('error: not signed in at https://api.example.invalid: profile default is signed in at http://127.0.0.1:4010, and its token goes nowhere else');
  });
});

describe('the design tool key goes to the origin it was stored for only', () => {
  /** A design tool: the sandbox probe gets a 401 without X-Merch-Sandbox, a smartlink a link. */
  function designTool(): Promise<TinyServer> {
    return tinyServer((req, res) => (req.url === '/v1/users/me' ? json(res, 401, { detail: 'no' }) : json(res, 200, { URL: 'http://127.0.0.1:9/editor' })));
  }

  it('stored for one design tool, it is sent there (without SC-Account-Id), and another gets nothing: exit 3 naming both', async () => {
    const ownTool = await designTool();
    const other = await designTool();
    const dir = tempDir('merch-design-key-');
    const run = (args: string[], env: Record<string, string | undefined> = {}, stdin?: string) =>
      merch(sandbox(), args, { stdin, env: { MERCH_CONFIG_DIR: dir, MERCH_DESIGN_TOOL_KEY: undefined, MERCH_ACCOUNT_ID: 'acme', ...env } });
    const stored = expectExit(await run(['config', 'set', 'design-tool-key', '--design-tool-url', `${ownTool.url}/tool`], {}, 'provider-key\n'), 0);
    expect(stored.stderr).toBe(`Stored design-tool-key in profile default, for the design tool at ${ownTool.url}.\n`);

    const link = ['design-link', '--sku', 'DT-000001', '--user-id', 'u1'];
    expectExit(await run([...link, '--design-tool-url', `${ownTool.url}/tool`]), 0);
    const smartlink = ownTool.requests.find((request) => request.url === '/tool/api/smartlink')!;
    expect(smartlink.headers['x-api-key']).toBe('provider-key');
    expect(smartlink.headers['sc-account-id']).toBeUndefined();

    for (const env of [{ MERCH_DESIGN_TOOL_URL: `${other.url}/tool` }, { MERCH_DESIGN_TOOL_URL: 'https://design.example.invalid' }]) {
      const here = new URL(env.MERCH_DESIGN_TOOL_URL).origin;
      const refused = expectExit(await run(link, env), 3);
      expect(refused.stderr.split('\n')[0]).toBe(`error: no design tool key for ${here}: profile default's key is for ${ownTool.url}, and goes nowhere else`);
      expect(refused.stderr).toContain(`hint: store one for it: echo "$KEY" | merch config set design-tool-key --design-tool-url ${env.MERCH_DESIGN_TOOL_URL}`);
    }
    expectNoCredentials(other);
    expect(other.requests.map((request) => request.url)).toEqual(['/v1/users/me']);

    // MERCH_DESIGN_TOOL_KEY is the user's choice: it goes where pointed.
    expectExit(await run(link, { MERCH_DESIGN_TOOL_URL: `${other.url}/tool`, MERCH_DESIGN_TOOL_KEY: 'chosen-key' }), 0);
    expect(other.requests.find((request) => request.url === '/tool/api/smartlink')!.headers['x-api-key']).toBe('chosen-key');
  });
});
