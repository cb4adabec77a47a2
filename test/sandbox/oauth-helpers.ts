import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

// What the sandbox's OAuth tests share: its seeded credentials and a client of its endpoints
// written against the protocol (real HTTP; nothing of src/sandbox/oauth is imported).

export const PRIVATE = { id: 'sandbox-private-app', secret: 'sandbox-private-secret' };
export const WEB = { id: 'sandbox-web-app', secret: 'sandbox-web-secret' };
export const BUYER = { email: 'buyer@example.com', password: 'sandbox-password' };
export const BUYER2 = { email: 'buyer2@example.com', password: 'sandbox-password-2' };

/** The web app's callback the tests register with `redirectUris` (nothing listens there). */
export const CALLBACK = 'http://127.0.0.1:45678/callback';

export interface Client {
  id: string;
  secret: string;
  /** 'basic' (default): HTTP Basic; 'form': client_id + client_secret fields. */
  via?: 'basic' | 'form';
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export const basic = (client: Client): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`;

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The web app's authorize query, with `overrides` (undefined removes a parameter). */
export function authorizeQuery(overrides: Record<string, string | undefined> = {}, challenge = pkce().challenge): string {
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

/** A client of the sandbox's OAuth endpoints. */
export function oauthClient(sandbox: () => Sandbox) {
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

  async function passwordLogin(user = BUYER): Promise<TokenPair> {
    const reply = await token({ grant_type: 'password', username: user.email, password: user.password });
    expect(reply.status).toBe(200);
    return reply.body;
  }

  const me = (accessToken: string) => call(sandbox(), '/v1/users/me', { token: accessToken });

  /** Signs in on the authorize page and answers its consent form: the redirect's Location. */
  async function authorize(decision: 'authorize' | 'deny', challenge: string, user = BUYER): Promise<URL> {
    const query = authorizeQuery({}, challenge);
    const page = await fetch(`${sandbox().url}/o/authorize/?${query}`);
    expect(page.status).toBe(200);
    const signIn = await postForm(`/o/authorize/?${query}`, { username: user.email, password: user.password });
    expect(signIn.status).toBe(200);
    const ticket = consentTicket(signIn.body);
    expect(ticket).toBeDefined();
    const answer = await postForm('/o/authorize/', { consent: ticket!, decision });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location')!);
  }

  async function codeLogin(user = BUYER): Promise<TokenPair> {
    const { verifier, challenge } = pkce();
    const code = (await authorize('authorize', challenge, user)).searchParams.get('code')!;
    const reply = await token({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, code_verifier: verifier }, WEB);
    expect(reply.status).toBe(200);
    return reply.body;
  }

  return { postForm, token, passwordLogin, me, authorize, codeLogin };
}

/** The hidden ticket of the consent form (after a successful sign-in). */
export const consentTicket = (html: string): string | undefined => /name="consent" value="([^"]+)"/.exec(html)?.[1];
