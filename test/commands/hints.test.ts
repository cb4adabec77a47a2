import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse, failureError, RequestNotSent } from '../../src/api/errors.js';
import { asCliError } from '../../src/commands/exit-codes.js';
import { hintOf, type ServiceSettings } from '../../src/commands/hints.js';

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
