import { describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { authorizeQuery, BUYER, CALLBACK, consentTicket, oauthClient, pkce, PRIVATE, WEB } from './oauth-helpers.js';

// The authorization code grant with PKCE and the authorize page (django-oauth-toolkit's
// behaviour), over real HTTP; the same page in Chromium is oauth-authorize-browser.test.ts.
// The clock of code expiry is the test's: `moveClock` instead of waiting.

let now = Date.UTC(2026, 0, 1);
const moveClock = (ms: number): void => {
  now += ms;
};
const sandbox = useSandbox({ redirectUris: [CALLBACK], clock: () => now });
const { postForm, token, me, authorize } = oauthClient(sandbox);

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
    const ticket = consentTicket(signIn.body)!;
    expect((await postForm('/o/authorize/', { consent: ticket, decision: 'authorize' })).status).toBe(302);
    const again = await postForm('/o/authorize/', { consent: ticket, decision: 'authorize' });
    expect(again.status).toBe(400);
    expect(again.headers.get('location')).toBeNull();
  });
});
