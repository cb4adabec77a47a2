import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { merch, TOKEN } from '../support/run-merch.js';
import { requestsDuring, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';

const sandbox = useSandbox();

/** A run with a config dir kept across calls and no MERCH_TOKEN, as for a logged-in user. */
function profileRun(dir: string, extra: Record<string, string | undefined> = {}) {
  return (args: string[], stdin?: string) =>
    merch(sandbox(), args, { stdin, env: { MERCH_CONFIG_DIR: dir, MERCH_TOKEN: undefined, ...extra } });
}

describe('login, logout, auth status', () => {
  it('checks the token with a GET, stores it mode 0600, never prints it, and logout forgets it', async () => {
    const dir = tempDir('merch-login-');
    const run = profileRun(dir);
    const login = await run(['login', '--with-token'], `${TOKEN}\n`);
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('Logged in to');
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.profiles.default.token).toBe(TOKEN);
    expect(stored.profiles.default['base-url']).toBe(sandbox().url);

    // The stored profile now authenticates, with no MERCH_TOKEN and no --base-url.
    const status = await run(['auth', 'status', '--json'], '');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ profile: 'default', base_url: sandbox().url, token_source: 'profile', token_valid: true });
    for (const output of [login.stdout, login.stderr, status.stdout, status.stderr]) expect(output).not.toContain(TOKEN);

    const logout = await run(['logout']);
    expect(logout.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.default.token).toBeUndefined();
  });

  it('refuses a token the service refuses, with exit 3, and stores nothing', async () => {
    const dir = tempDir('merch-login-');
    const result = await profileRun(dir)(['login', '--with-token'], 'not-a-real-token\n');
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: GET \/v1\/users\/me failed: 401 Unauthorized/m);
    expect(result.stderr).not.toContain('not-a-real-token');
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });

  it('login without a TTY names the ways to sign in; --with-token with empty input is a usage error', async () => {
    const result = await merch(sandbox(), ['login'], { stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pass --client-id ID --username EMAIL (private app), --web --client-id ID (third-party app), or --with-token');
    const empty = await merch(sandbox(), ['login', '--with-token'], { stdin: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the token is empty');
  });

  it('auth status exits 3 for a refused token and shows where settings come from', async () => {
    const result = await merch(sandbox(), ['auth', 'status'], { env: { MERCH_TOKEN: 'wrong' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/Token works\tno/);
    expect(result.stdout).toMatch(new RegExp(`Base URL\\t${sandbox().url} \\(env\\)`));
    expect(result.stdout).not.toContain('wrong');
  });
});

describe('config and precedence', () => {
  it('sets, gets and lists keys; secrets are never printed; unknown keys are usage errors', async () => {
    const dir = tempDir('merch-config-');
    const run = profileRun(dir);
    expect((await run(['config', 'set', 'account-id', 'acme'])).code).toBe(0);
    expect((await run(['config', 'set', 'design-tool-key'], 'sandbox-design-key\n')).code).toBe(0);
    expect((await run(['config', 'get', 'account-id'])).stdout).toBe('acme\n');
    const list = await run(['config', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ profile: 'default', 'account-id': 'acme', 'design-tool-key': 'set', token: 'not set' });
    expect(list.stdout).not.toContain('sandbox-design-key');
    expect((await run(['config', 'get', 'design-tool-key'])).code).toBe(2);
    expect((await run(['config', 'set', 'design-tool-key', 'on-the-command-line'])).code).toBe(2);
    expect((await run(['config', 'set', 'colour', 'x'])).stderr).toContain('unknown key colour');
    expect((await run(['config', 'set', 'base-url', 'ftp://x'])).code).toBe(2);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('resolves the base URL flag > env > profile', async () => {
    const dir = tempDir('merch-precedence-');
    const closed = 'http://127.0.0.1:9'; // discard port: nothing listens
    const base = { MERCH_CONFIG_DIR: dir, MERCH_BASE_URL: undefined };
    await merch(sandbox(), ['config', 'set', 'base-url', sandbox().url], { env: base });
    expect((await merch(sandbox(), ['products', 'list', '--limit', '1', '--retries', '0'], { env: base })).code).toBe(0);
    const envWins = await merch(sandbox(), ['products', 'list', '--limit', '1', '--retries', '0'], { env: { ...base, MERCH_BASE_URL: closed } });
    expect(envWins.code).toBe(1);
    expect(envWins.stderr).toContain('connection refused');
    const flagWins = await merch(sandbox(), ['products', 'list', '--limit', '1', '--base-url', sandbox().url], { env: { ...base, MERCH_BASE_URL: closed } });
    expect(flagWins.code).toBe(0);
  });

  it('with nothing configured targets the local sandbox and says how to start one', async () => {
    const result = await merch(sandbox(), ['products', 'list', '--retries', '0'], { env: { MERCH_BASE_URL: undefined, MERCH_TOKEN: undefined } });
    // A developer may have `merch sandbox` running on 4010: then the default target answers.
    if (result.code === 0) {
      expect(result.stdout).toMatch(/^id\tname\t/);
    } else {
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: GET /v1/supplier-products failed: connection refused');
      expect(result.stderr).toContain('hint: no sandbox is running at http://127.0.0.1:4010: start one with `merch sandbox`');
    }
  });
});

describe('api', () => {
  it('GETs any path with --field as query parameters and prints JSON', async () => {
    const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), ['api', 'GET', '/v1/supplier-products', '-f', 'search=mug', '-f', 'limit=2']));
    expect(result.code).toBe(0);
    expect(requests.map((r) => r.url)).toEqual(['/v1/supplier-products?search=mug&limit=2']);
    const body = JSON.parse(result.stdout);
    expect(body.results.length).toBeLessThanOrEqual(2);
  });

  it('--paginate returns every record of a list, and works with --query', async () => {
    const all = await merch(sandbox(), ['api', 'GET', '/v1/supplier-products', '--paginate']);
    expect(JSON.parse(all.stdout)).toHaveLength(200);
    const ids = await merch(sandbox(), ['api', 'GET', '/v1/supplier-products', '--paginate', '--query', 'length(@)']);
    expect(ids.stdout.trim()).toBe('200');
  });

  it('PATCHes with typed fields and POSTs a body from stdin', async () => {
    const methods = JSON.parse((await merch(sandbox(), ['api', 'GET', '/v1/payment-methods/'])).stdout);
    const bank = methods.us_bank_account[0].id;
    const patched = await merch(sandbox(), ['api', 'PATCH', `/v1/payment-methods/${bank}`, '-f', 'is_default=true']);
    expect(patched.code).toBe(0);
    expect(JSON.parse(patched.stdout).is_default).toBe(true);
    const created = await merch(sandbox(), ['api', 'POST', '/v1/core/webhooks/', '--input', '-'], { stdin: JSON.stringify({ event: 'order.created', target: 'http://127.0.0.1:9/hook' }) });
    expect(JSON.parse(created.stdout)).toMatchObject({ event: 'order.created', is_active: true });
    // Put the default back for the other tests of this file.
    await merch(sandbox(), ['api', 'PATCH', `/v1/payment-methods/${methods.card[0].id}`, '-f', 'is_default=true']);
  });

  it('refuses bad input with exit 2 and sends nothing', async () => {
    for (const args of [
      ['api', 'FETCH', '/v1/orders'],
      ['api', 'GET', 'v1/orders'],
      ['api', 'POST', '/v1/orders/', '--input', '/nonexistent.json'],
      ['api', 'POST', '/v1/orders/', '--paginate'],
      ['api', 'GET', '/v1/orders', '--query', 'results[?'],
    ]) {
      const { result, requests } = await requestsDuring(sandbox(), () => merch(sandbox(), args));
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: /);
      expect(requests).toHaveLength(0);
    }
  });
});

describe('completion', () => {
  it.each(['bash', 'zsh', 'fish'])('prints a %s script that knows the commands and their flags', async (shell) => {
    const result = await merch(sandbox(), ['completion', shell]);
    expect(result.code).toBe(0);
    for (const word of ['products', 'orders', 'webhooks', 'payment-methods']) expect(result.stdout).toContain(word);
    expect(result.stdout).toContain('category');
  });

  it('bash completes subcommands for real', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = (await merch(sandbox(), ['completion', 'bash'])).stdout;
    const probe = `${script}\nCOMP_WORDS=(merch orders c); COMP_CWORD=2; _merch; echo "\${COMPREPLY[@]}"`;
    const out = spawnSync('bash', ['-c', probe], { encoding: 'utf8' });
    expect(out.stdout.trim()).toBe('create');
  });

  it('refuses an unknown shell', async () => {
    expect((await merch(sandbox(), ['completion', 'tcsh'])).code).toBe(2);
  });
});
