import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startProxy } from '../support/proxy.js';
import { merch, type MerchOptions, type Result } from '../support/run-merch.js';
import { tempDir } from '../support/temp-dir.js';

// Sign-in tests: the sandbox's OAuth server (or oauth2-mock-server) behind a recording
// proxy, a config directory per test, and the seeded apps and users of the sandbox.

export const PRIVATE_APP = { id: 'sandbox-private-app', secret: 'sandbox-private-secret' };
export const WEB_APP = { id: 'sandbox-web-app', secret: 'sandbox-web-secret' };
export const BUYER = { email: 'buyer@example.com', password: 'sandbox-password', account: 'acme' };
export const BUYER_2 = { email: 'buyer2@example.com', password: 'sandbox-password-2', account: 'globex' };

export interface RecordedCall {
  method: string;
  path: string;
  /** The form body's grant_type (token endpoint) or token_type_hint (revoke endpoint). */
  grant: string | undefined;
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/**
 * A proxy in front of the sandbox that records every request it forwards, so a test sees
 * what reached the OAuth endpoints (the sandbox records only /v1). Closed when the test ends.
 */
export async function recordingProxy(target: string): Promise<{ url: string; calls: RecordedCall[]; grants(kind: string): number }> {
  const calls: RecordedCall[] = [];
  const proxy = await startProxy({
    target,
    onRequest: ({ method, url, headers, body }) => {
      const form = new URLSearchParams(headers['content-type']?.includes('form') ? body.toString() : '');
      calls.push({ method, path: url, grant: form.get('grant_type') ?? form.get('token_type_hint') ?? undefined, form, headers });
      return 'forward';
    },
  });
  return { url: proxy.url, calls, grants: (kind) => calls.filter((call) => call.grant === kind).length };
}

/** A config directory of its own (removed when the test ends), and runs of merch as its signed-in user (no MERCH_TOKEN). */
export function profile(baseUrl: string) {
  const dir = tempDir('merch-auth-');
  const run = (args: string[], options: MerchOptions = {}): Promise<Result> =>
    merch({ url: baseUrl }, args, { ...options, env: { MERCH_CONFIG_DIR: dir, MERCH_TOKEN: undefined, ...options.env } });
  return {
    dir,
    run,
    stored: (): any => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default,
    /** The password grant with the seeded private app, as a private integration would sign in. */
    passwordLogin: (user = BUYER, extra: string[] = []) =>
      run(['login', '--client-id', PRIVATE_APP.id, '--username', user.email, '--password-stdin', ...extra], {
        stdin: user.password,
        env: { MERCH_CLIENT_SECRET: PRIVATE_APP.secret },
      }),
  };
}

/** Fails the test with the run's output when it did not exit as expected. */
export function expectExit(result: Result, code: number): Result {
  if (result.code !== code) throw new Error(`expected exit ${code}, got ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  return result;
}

/** Revokes a token at the sandbox as the private app would (RFC 7009). */
export async function revoke(baseUrl: string, token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
  const response = await fetch(`${baseUrl}/o/revoke_token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: hint, client_id: PRIVATE_APP.id, client_secret: PRIVATE_APP.secret }),
  });
  expect(response.status).toBe(200);
}
