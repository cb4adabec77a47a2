import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { BUYER, BUYER_2, expectExit, PRIVATE_APP, profile, recordingProxy, WEB_APP } from './helpers.js';

const sandbox = useSandbox();

describe('merch login with a private app (password grant)', () => {
  it('signs in, discovers the account, stores token, refresh token, expiry and app mode 0600, and acts for that account', async () => {
    const proxy = await recordingProxy(sandbox().url);
    const user = profile(proxy.url);
    const login = expectExit(await user.passwordLogin(), 0);
    expect(login.stderr).toContain(`Logged in to ${proxy.url} as ${BUYER.email}, account Acme (acme)`);

    const token = proxy.calls.find((call) => call.path === '/o/token/')!;
    expect(token.form.get('grant_type')).toBe('password');
    expect(token.headers.authorization).toMatch(/^Basic /);
    expect(proxy.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /o/token/', 'GET /v1/users/me']);
    // Discovery asks who the token is for: it names no account.
    expect(proxy.calls[1]!.headers['sc-account-id']).toBeUndefined();

    expect(statSync(join(user.dir, 'config.json')).mode & 0o777).toBe(0o600);
    const stored = user.stored();
    expect(stored.session).toMatchObject({
      method: 'password',
      client_id: PRIVATE_APP.id,
      client_auth: 'basic',
      token_url: `${proxy.url}/o/token/`,
      revoke_url: `${proxy.url}/o/revoke_token/`,
      user: { email: BUYER.email },
      account: { id: 'acme', name: 'Acme' },
    });
    expect(Date.parse(stored.session.expires_at)).toBeGreaterThan(Date.now() + 3000_000);
    expect(stored.session.refresh_token).toMatch(/\S{10,}/);

    const list = expectExit(await user.run(['orders', 'list', '--limit', '1']), 0);
    expect(list.stdout).toMatch(/^id\t/);
    const ordersCall = proxy.calls.at(-1)!;
    expect(ordersCall.headers.authorization).toBe(`Bearer ${stored.token}`);
    expect(ordersCall.headers['sc-account-id']).toBe('acme');
  });

  it('auth status shows user, account, method and expiry; --json has the documented shape and no secret', async () => {
    const user = profile(sandbox().url);
    expectExit(await user.passwordLogin(BUYER_2), 0);
    const text = expectExit(await user.run(['auth', 'status']), 0);
    expect(text.stdout).toContain(`User\t${BUYER_2.email}`);
    expect(text.stdout).toContain('Account\tGlobex (globex)');
    expect(text.stdout).toContain('Signed in with\tpassword');
    const status = JSON.parse(expectExit(await user.run(['auth', 'status', '--json']), 0).stdout);
    expect(status).toMatchObject({
      user: { email: BUYER_2.email },
      account: { id: 'globex', name: 'Globex' },
      method: 'password',
      base_url: sandbox().url,
      profile: 'default',
      token_valid: true,
    });
    expect(Date.parse(status.expires_at)).toBe(Date.parse(user.stored().session.expires_at));
    const { token, session } = user.stored();
    for (const secret of [token, session.refresh_token, PRIVATE_APP.secret, BUYER_2.password]) expect(text.stdout + JSON.stringify(status)).not.toContain(secret);
  });

  it('--account-id, MERCH_ACCOUNT_ID and config account-id choose another account than the discovered one', async () => {
    const proxy = await recordingProxy(sandbox().url);
    const user = profile(proxy.url);
    expectExit(await user.passwordLogin(), 0);
    await user.run(['orders', 'list', '--account-id', 'other']);
    expect(proxy.calls.at(-1)!.headers['sc-account-id']).toBe('other');
    await user.run(['orders', 'list'], { env: { MERCH_ACCOUNT_ID: 'from-env' } });
    expect(proxy.calls.at(-1)!.headers['sc-account-id']).toBe('from-env');
  });

  it('a wrong client secret is invalid_client, a wrong password invalid_grant: one line each, exit 3, nothing stored', async () => {
    const user = profile(sandbox().url);
    const base = ['login', '--client-id', PRIVATE_APP.id, '--username', BUYER.email, '--password-stdin'];
    const wrongSecret = expectExit(await user.run(base, { stdin: BUYER.password, env: { MERCH_CLIENT_SECRET: 'not-the-secret' } }), 3);
    expect(wrongSecret.stderr).toBe(`error: the authorization server refused the client (invalid_client): check the client id ${PRIVATE_APP.id} and the client secret (MERCH_CLIENT_SECRET)\n`);
    const wrongPassword = expectExit(await user.run(base, { stdin: 'not-the-password', env: { MERCH_CLIENT_SECRET: PRIVATE_APP.secret } }), 3);
    expect(wrongPassword.stderr).toBe('error: the authorization server refused the email or password (invalid_grant): check --username and the password\n');
    const webApp = expectExit(await user.run(['login', '--client-id', WEB_APP.id, '--username', BUYER.email, '--password-stdin'], { stdin: BUYER.password, env: { MERCH_CLIENT_SECRET: WEB_APP.secret } }), 3);
    expect(webApp.stderr).toMatch(/^error: this app may not use the password grant \(unauthorized_client\)\nhint: .*--web/);
    for (const result of [wrongSecret, wrongPassword, webApp]) expect(result.stderr).not.toMatch(/not-the-|sandbox-password|secret\b(?! \()/);
    expect(existsSync(join(user.dir, 'config.json'))).toBe(false);
  });

  it('off a terminal, a missing piece is a usage error naming the flag or variable, and nothing is sent', async () => {
    const proxy = await recordingProxy(sandbox().url);
    const user = profile(proxy.url);
    const cases: [string[], Record<string, string>, string][] = [
      [['login'], {}, '--client-id ID --username EMAIL (private app), --web --client-id ID (third-party app), or --with-token'],
      [['login', '--username', BUYER.email], { MERCH_CLIENT_SECRET: 's', MERCH_PASSWORD: 'p' }, 'missing --client-id'],
      [['login', '--client-id', PRIVATE_APP.id], { MERCH_CLIENT_SECRET: 's', MERCH_PASSWORD: 'p' }, 'missing --username'],
      [['login', '--client-id', PRIVATE_APP.id, '--username', BUYER.email], { MERCH_PASSWORD: 'p' }, 'set MERCH_CLIENT_SECRET'],
      [['login', '--client-id', PRIVATE_APP.id, '--username', BUYER.email], { MERCH_CLIENT_SECRET: 's' }, '--password-stdin, or set MERCH_PASSWORD'],
      [['login', '--web'], { MERCH_CLIENT_SECRET: 's' }, 'missing --client-id'],
      [['login', '--web', '--client-id', WEB_APP.id], {}, 'set MERCH_CLIENT_SECRET'],
      [['login', '--with-token', '--client-id', 'x'], {}, '--with-token cannot be combined'],
      [['login', '--client-id', 'x', '--username', 'y', '--callback-port', '9000'], {}, '--callback-port only applies with --web'],
      [['login', '--web', '--client-id', 'x', '--username', 'y'], {}, '--username only applies'],
      [['login', '--client-id', 'x', '--username', 'y', '--token-url', 'ftp://x'], { MERCH_CLIENT_SECRET: 's', MERCH_PASSWORD: 'p' }, '--token-url: only http and https'],
    ];
    for (const [args, env, message] of cases) {
      const result = expectExit(await user.run(args, { env }), 2);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr.split('\n').filter((line) => line.startsWith('error: '))).toHaveLength(1);
    }
    expect(proxy.calls).toEqual([]);
  });

  it('the password comes from MERCH_PASSWORD too; the endpoints from flags, variables or config, kept for refreshes and logout', async () => {
    const proxy = await recordingProxy(sandbox().url);
    const user = profile(sandbox().url);
    expectExit(await user.run(['config', 'set', 'token-url', `${proxy.url}/o/token/`]), 0);
    expect(expectExit(await user.run(['config', 'get', 'token-url']), 0).stdout).toBe(`${proxy.url}/o/token/\n`);
    const login = await user.run(['login', '--client-id', PRIVATE_APP.id, '--username', BUYER.email, '--revoke-url', `${proxy.url}/o/revoke_token/`], {
      env: { MERCH_CLIENT_SECRET: PRIVATE_APP.secret, MERCH_PASSWORD: BUYER.password },
    });
    expectExit(login, 0);
    expect(proxy.grants('password')).toBe(1);
    expect(user.stored().session).toMatchObject({ token_url: `${proxy.url}/o/token/`, revoke_url: `${proxy.url}/o/revoke_token/` });

    const viaEnv = profile(sandbox().url);
    expectExit(await viaEnv.run(['login', '--client-id', PRIVATE_APP.id, '--username', BUYER.email], {
      env: { MERCH_CLIENT_SECRET: PRIVATE_APP.secret, MERCH_PASSWORD: BUYER.password, MERCH_TOKEN_URL: `${proxy.url}/o/token/` },
    }), 0);
    expect(proxy.grants('password')).toBe(2);
  });

  it('--with-token still stores a token obtained elsewhere, with its user and account', async () => {
    const user = profile(sandbox().url);
    expectExit(await user.run(['login', '--with-token'], { stdin: 'sandbox-token-2\n' }), 0);
    expect(user.stored()).toMatchObject({ token: 'sandbox-token-2', session: { method: 'token', account: { id: 'globex' } } });
    expect(user.stored().session.refresh_token).toBeUndefined();
    const refresh = expectExit(await user.run(['auth', 'refresh']), 3);
    expect(refresh.stderr).toContain('was signed in with --with-token, and such a token comes with no refresh token');
  });

  it('merch auth login and merch auth logout are merch login and merch logout, as in gh', async () => {
    const user = profile(sandbox().url);
    const login = expectExit(await user.run(['auth', 'login', '--with-token'], { stdin: 'sandbox-token-2\n' }), 0);
    expect(login.stderr).toContain('Logged in to');
    expect(user.stored()).toMatchObject({ token: 'sandbox-token-2', session: { method: 'token', account: { id: 'globex' } } });
    // A new profile is no misspelling for auth login either.
    const staging = expectExit(await user.run(['auth', 'login', '--with-token', '--profile', 'staging'], { stdin: 'sandbox-token-2\n' }), 0);
    expect(staging.stderr).not.toContain("warning: no profile 'staging'");
    expect(expectExit(await user.run(['auth', 'logout']), 0).stderr).toBe('Logged out of profile default.\n');
    expect(user.stored().token).toBeUndefined();
    const help = await user.run(['auth', 'login', '--help']);
    expect(help.stdout).toContain('--insecure-storage');
    expect(help.stdout).toContain('--with-token');
  });
});
