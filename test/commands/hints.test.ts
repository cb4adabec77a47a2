import { describe, expect, it } from 'vitest';
import { proxyFailure } from '../../src/api/connections.js';
import { ApiError, errorFromResponse, failureError, RequestNotSent } from '../../src/api/errors.js';
import { redirectOf } from '../../src/api/redirects.js';
import { AuthError } from '../../src/auth/errors.js';
import { notLoggedIn } from '../../src/auth/token-provider.js';
import { asCliError } from '../../src/commands/exit-codes.js';
import { hintOf, type ServiceSettings } from '../../src/commands/hints.js';
import { designToolKey } from '../../src/config/design-tool-key.js';
import { ConfigError } from '../../src/config/errors.js';
import type { Settings } from '../../src/config/settings.js';

// The hints that name the CLI's flags and commands are chosen at the edge, from what an
// error of api/ says happened; api/ itself names none.

const get = { method: 'GET', path: '/v1/orders/5' };
const refused = failureError(get, { type: 'refused', host: '127.0.0.1:9' });
const fromEnv: ServiceSettings = { baseUrl: 'http://127.0.0.1:9', baseUrlSource: 'env', profile: 'default' };
const byDefault: ServiceSettings = { baseUrl: 'http://127.0.0.1:4010', baseUrlSource: 'default', profile: 'default' };

describe('hintOf', () => {
  it('api/ gives no hint of its own: the failure and the request are what the edge reads', () => {
    const notFound = errorFromResponse(get, 404, '{"detail":"Not found."}');
    expect(notFound.hint).toBeUndefined();
    expect(notFound.request).toEqual(get);
    expect(hintOf(notFound)).toBe('check the id (merch orders list shows them), and the account it is looked for in (merch auth status; --account-id)');
    expect(new RequestNotSent('refusing to send the token over plain http to h:1', 'token-over-http').hint).toBeUndefined();
  });

  it('a refused connection names where the base URL came from, when the run settings are known', () => {
    expect(hintOf(refused, fromEnv)).toBe('is the service at http://127.0.0.1:9 up? (base URL from MERCH_BASE_URL)');
    expect(hintOf(refused, byDefault)).toBe('no sandbox is running at http://127.0.0.1:4010: start one with `merch sandbox`, or log in to the service with `merch login --base-url URL`');
    expect(hintOf(failureError(get, { type: 'host-not-found', host: 'nowhere.invalid' }), fromEnv)).toBe(
      "check the host name of http://127.0.0.1:9 (base URL from MERCH_BASE_URL), and this machine's network and DNS",
    );
    expect(hintOf(refused)).toBe('nothing answers at 127.0.0.1:9: is the service up, and is the base URL right?');
  });

  it('a refused token (401, or DRF\'s 403 of it) is "not signed in", MERCH_TOKEN\'s its own; any other 403 is about permission', () => {
    const notSignedIn = 'not signed in: the service refused the token (expired or revoked?): sign in again: merch login (merch auth status shows the sign-in)';
    const envToken = 'the service refused the token in MERCH_TOKEN (expired or revoked?), which merch cannot refresh: set a fresh one, or unset MERCH_TOKEN and sign in: merch login';
    const permission = 'the token is not allowed to do this (check --account-id)';
    const refusedToken = [
      errorFromResponse(get, 401, '{"detail":"Authentication credentials were not provided."}'),
      errorFromResponse(get, 401, ''),
      errorFromResponse(get, 403, '{"detail":"Authentication credentials were not provided."}'),
      errorFromResponse(get, 403, '{"detail":"Invalid token."}'),
    ];
    for (const error of refusedToken) {
      expect(hintOf(error), error.message).toBe(notSignedIn);
      expect(hintOf(error, { ...byDefault, tokenSource: 'profile' }), error.message).toBe(notSignedIn);
      expect(hintOf(error, { ...byDefault, tokenSource: 'env' }), error.message).toBe(envToken);
      expect(asCliError(error).exitCode).toBe(3);
    }
    const forbidden = errorFromResponse(get, 403, '{"detail":"You do not have permission to perform this action."}');
    expect(hintOf(forbidden, { ...byDefault, tokenSource: 'env' })).toBe(permission);
    expect(hintOf(errorFromResponse(get, 403, ''))).toBe(permission);
    expect(asCliError(forbidden).exitCode).toBe(3);
  });

  it('a hint its layer gave is kept', () => {
    const probed = failureError(get, { type: 'refused', host: '127.0.0.1:9' }, { hint: 'no merch sandbox answers at http://127.0.0.1:9' });
    expect(hintOf(probed, fromEnv)).toBe('no merch sandbox answers at http://127.0.0.1:9');
    expect(hintOf(new RequestNotSent('HTTPS_PROXY is not a proxy URL', 'bad-proxy', 'set it to http://HOST:PORT, or unset it'))).toBe('set it to http://HOST:PORT, or unset it');
  });

  it('asCliError says the chosen hint', () => {
    expect(asCliError(refused, fromEnv)).toMatchObject({ exitCode: 1, hint: 'is the service at http://127.0.0.1:9 up? (base URL from MERCH_BASE_URL)' });
    expect(asCliError(new RequestNotSent('refusing to send the token over plain http to h:1', 'token-over-http'))).toMatchObject({
      exitCode: 2,
      hint: 'use https, or pass --allow-http if you really mean it',
    });
    expect(asCliError(new ApiError('created but not active', 'refused', undefined, undefined))).toMatchObject({ exitCode: 5, hint: undefined });
  });
});

// The hints that name a flag, a variable or a command, chosen here from the facts the
// layers below keep on their errors: each as the user reads it.
describe('hints chosen from the facts of api/, auth/ and config/', () => {
  const proxy = { https: { url: 'http://user:secret@proxy.example:3128', variable: 'HTTPS_PROXY' }, noProxy: '' };
  const service = new URL('https://api.example:8443/v1/orders/');
  const proxyHint = (thrown: unknown) => {
    const failure = proxyFailure(thrown, service, proxy);
    expect(failure?.type).toBe('proxy');
    return hintOf(failureError(get, failure!));
  };

  it("the proxy's: its variable, or NO_PROXY", () => {
    expect(proxyHint({ code: 'ECONNREFUSED', port: 3128, message: 'connect ECONNREFUSED' })).toBe('is the proxy up? check HTTPS_PROXY, or list api.example in NO_PROXY');
    expect(proxyHint({ message: 'Proxy response (407) !== 200 when HTTP Tunneling' })).toBe('HTTPS_PROXY=http://USER:PASSWORD@proxy.example:3128 (percent-encode special characters)');
    expect(proxyHint({ message: 'Proxy response (403) !== 200 when HTTP Tunneling' })).toBe('the proxy will not reach api.example:8443: ask its administrator, or list the host in NO_PROXY');
    const failure = proxyFailure({ message: 'Proxy response (403) !== 200 when HTTP Tunneling' }, service, proxy)!;
    const unreachable = new AuthError('POST https://api.example:8443/o/token/ failed', 'unreachable', undefined, { of: 'unreachable', origin: service.origin, failure });
    expect(hintOf(unreachable)).toBe('the proxy will not reach api.example:8443: ask its administrator, or list the host in NO_PROXY');
    const noProxy = new AuthError('POST https://auth.example/o/token/ failed', 'unreachable', undefined, { of: 'unreachable', origin: 'https://auth.example', failure: { type: 'refused', host: 'auth.example' } });
    expect(hintOf(noProxy)).toBe('is the authorization server at https://auth.example up?');
  });

  it('a redirect that cannot be followed: --verbose', () => {
    const from = new URL('http://127.0.0.1:9/v1/orders');
    const refusal = (location: string, followed: number) => {
      const redirect = redirectOf(get, 301, from, location, followed);
      if (redirect === undefined || !('refuse' in redirect)) throw new Error('not refused');
      return redirect.refuse;
    };
    expect(hintOf(refusal('http://[::1', 0))).toBe('the service answered a redirect that cannot be followed; run again with --verbose');
    expect(hintOf(refusal('/v1/orders/', 5))).toBe('the service redirects in a loop: check the base URL, or run again with --verbose');
  });

  it("the sandbox probe's refused connection: how to start the sandbox there", () => {
    const probe = (port: string) => failureError(get, { type: 'refused', host: `127.0.0.1:${port}` }, { facts: { sandboxProbe: `http://127.0.0.1:${port}` } });
    expect(hintOf(probe('4011'), byDefault)).toBe('no merch sandbox answers at http://127.0.0.1:4011: start one with `merch sandbox --port 4011`');
    const timedOut = failureError(get, { type: 'no-answer', timeoutMs: 1000 }, { facts: { sandboxProbe: 'http://127.0.0.1:4011' } });
    expect(hintOf(timedOut)).toBe('the service is slow or unreachable: try again, or allow more time: --timeout 2s');
  });

  it("the design tool's: its key, its URL; under the base URL, the service's", () => {
    const designTool = (error: ApiError, apart: boolean) =>
      new ApiError(error.message, error.kind, error.status, undefined, error.hint, false, error.failure, error.request, { designTool: { url: 'https://design.example', apart } });
    const unreachable = failureError(get, { type: 'refused', host: 'design.example' });
    expect(hintOf(designTool(errorFromResponse(get, 401, ''), false))).toBe('check the design tool API key: MERCH_DESIGN_TOOL_KEY, or `echo "$KEY" | merch config set design-tool-key`');
    expect(hintOf(designTool(unreachable, true), fromEnv)).toBe('is the design tool at https://design.example up? (design tool URL from --design-tool-url, MERCH_DESIGN_TOOL_URL or the profile)');
    expect(hintOf(designTool(unreachable, false), fromEnv)).toBe(hintOf(unreachable, fromEnv));
  });

  it("a sign-in's: merch login, MERCH_TOKEN, the OAuth flags", () => {
    const settings = { baseUrl: 'https://api.example', profile: 'work', signedInElsewhere: undefined };
    expect(hintOf(notLoggedIn(settings))).toBe('profile work has no token for https://api.example (MERCH_TOKEN also works)');
    expect(hintOf(notLoggedIn({ ...settings, signedInElsewhere: 'https://other.example' }))).toBe(
      'sign in there: merch login --base-url https://api.example (with --profile NAME to keep this sign-in), or set MERCH_TOKEN',
    );
    const auth = (kind: AuthError['kind'], facts?: AuthError['facts']) => hintOf(new AuthError('failed', kind, undefined, facts));
    expect(auth('refused', { of: 'link-reused' })).toBe('run merch login --web again');
    expect(auth('no-return', { of: 'no-return', redirectUri: 'http://127.0.0.1:8912/callback' })).toBe(
      "the app's callback URL must be exactly http://127.0.0.1:8912/callback (127.0.0.1, not localhost; this port: --callback-port); otherwise the provider shows an error page instead of coming back",
    );
    expect(auth('refused', { of: 'grant-not-allowed' })).toBe('a private app signs in with --client-id and --username, a third-party app with --web --client-id');
    expect(auth('not-oauth', { of: 'not-an-endpoint', endpoint: 'revoke' })).toBe('check --revoke-url');
    expect(auth('not-oauth', { of: 'not-an-endpoint', endpoint: 'token' })).toBe('check --token-url (the developer apps page shows it)');
    expect(auth('insecure')).toBe('use an https token URL, or pass --allow-http if you really mean it');
    expect(auth('refused')).toBeUndefined();
  });

  it("the settings': the design tool key, the config file, the keyring", async () => {
    const keySettings: Pick<Settings, 'designToolKey' | 'designToolKeySource' | 'designToolUrl' | 'insecure' | 'designToolKeyElsewhere' | 'profile'> = {
      designToolKey: undefined,
      designToolKeySource: 'none',
      designToolUrl: 'http://design.example',
      insecure: false,
      designToolKeyElsewhere: undefined,
      profile: 'default',
    };
    const notASandbox = async () => false;
    const keyHint = (settings: Partial<typeof keySettings>) =>
      designToolKey({ ...keySettings, ...settings }, notASandbox).then(
        () => expect.fail('a key was given'),
        (error: unknown) => hintOf(error as ConfigError),
      );
    expect(await keyHint({})).toBe('echo "$KEY" | merch config set design-tool-key   (the key comes from the design tool provider)');
    expect(await keyHint({ designToolKey: 'sandbox-key', designToolKeySource: 'default' })).toBe(
      'echo "$KEY" | merch config set design-tool-key   (the key comes from the design tool provider)',
    );
    expect(await keyHint({ designToolKeyElsewhere: 'https://other.example' })).toBe(
      'store one for it: echo "$KEY" | merch config set design-tool-key --design-tool-url http://design.example (with --profile NAME to keep this one), or set MERCH_DESIGN_TOOL_KEY',
    );
    expect(await keyHint({ designToolKey: 'k', designToolKeySource: 'env' })).toBe('use an https design tool URL, or pass --allow-http if you really mean it');
    expect(hintOf(new ConfigError('the config file is not valid', 'unreadable-file', undefined, { of: 'invalid-file' }))).toBe('fix or delete it, then run merch login again');
    expect(hintOf(new ConfigError('the config file is a link', 'unreadable-file', undefined, { of: 'not-a-regular-file', path: '/home/u/.config/merch/config.json' }))).toBe(
      'make /home/u/.config/merch/config.json a regular file (or remove it and sign in again: merch login)',
    );
    expect(hintOf(new ConfigError('the keyring is locked', 'keyring'))).toBe('unlock the keyring, or sign in again: merch login (--insecure-storage keeps the token in the config file)');
    expect(hintOf(new ConfigError('--base-url: not a URL', 'not-a-url'))).toBeUndefined();
  });
});
