import { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } from 'oauth4webapi';
import { openBrowser } from '../lib/open-browser.js';
import type { Context } from '../context.js';
import { CliError, ExitCode } from '../errors.js';
import { startCallbackServer } from './callback-server.js';
import type { OAuthApp, Tokens } from './oauth-app.js';
import { authorizationCodeGrant, checkCallback } from './oauth-client.js';

export interface WebLoginOptions {
  callbackPort: number;
  /** false: only print the URL (--no-browser). */
  openBrowser: boolean;
  /** How long to wait for the browser to come back. */
  waitMs: number;
}

/**
 * The authorization code flow with PKCE (S256) and a state check: prints the authorize URL
 * (one line on stderr), opens it, receives the code on the one-shot loopback callback and
 * exchanges it. A wrong state, a denial or a timeout ends with an error, nothing exchanged.
 */
export async function authorizeInBrowser(ctx: Context, app: OAuthApp, options: WebLoginOptions): Promise<Tokens> {
  if (!app.authorizeUrl) throw new CliError('no authorize URL', ExitCode.usage);
  const verifier = generateRandomCodeVerifier();
  const state = generateRandomState();
  const server = await startCallbackServer<{ callback: URLSearchParams } | { error: unknown }>(options.callbackPort, (query) => {
    try {
      return { outcome: { callback: checkCallback(app, query, state) }, page: { status: 200, title: 'Signed in', text: 'merch received the sign-in. Return to your terminal.' } };
    } catch (error) {
      const text = `${error instanceof Error ? error.message : String(error)}. Return to your terminal.`;
      return { outcome: { error }, page: { status: 400, title: 'Sign-in failed', text } };
    }
  });
  try {
    const url = new URL(app.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('redirect_uri', server.redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    ctx.io.err(`Open this URL in a browser to sign in: ${url.href}`);
    if (options.openBrowser) await openBrowser(ctx, url.href);

    const outcome = await within(server.received, options.waitMs, server.redirectUri);
    if ('error' in outcome) throw outcome.error;
    return await authorizationCodeGrant(app, outcome.callback, server.redirectUri, verifier);
  } finally {
    await server.close();
  }
}

/** The browser's return, or an error naming the callback URL to register once `waitMs` has passed. */
async function within<T>(received: Promise<T>, waitMs: number, redirectUri: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CliError(
            `the browser did not come back to ${redirectUri} within ${Math.round(waitMs / 1000)} s: nothing stored`,
            ExitCode.failed,
            `the app's callback URL must be exactly ${redirectUri} (127.0.0.1, not localhost; this port: --callback-port); otherwise the provider shows an error page instead of coming back`,
          ),
        ),
      waitMs,
    );
  });
  try {
    return await Promise.race([received, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
