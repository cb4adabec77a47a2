import { randomBytes } from 'node:crypto';
import { calculatePKCECodeChallenge, generateRandomCodeVerifier, generateRandomState } from 'oauth4webapi';
import { startLoopbackServer, type Answer, type Page } from '../lib/loopback-server.js';
import { AuthError } from './errors.js';
import type { OAuthApp, Tokens } from './oauth-app.js';
import { authorizationCodeGrant, checkCallback } from './oauth-client.js';

export interface WebLoginOptions {
  /** The port of the loopback callback registered with the app. */
  callbackPort: number;
  /** How long to wait for the browser to come back. */
  waitMs: number;
  /** Tells the user one line (the URL to open, an ignored callback). */
  tell(line: string): void;
  /**
   * Opens a URL in a browser: the start URL of the loopback server, which redirects to the
   * authorize URL once; absent, the authorize URL is only shown (--no-browser).
   */
  openBrowser?: (url: string) => Promise<unknown>;
}

/** The path of the loopback server that sends the browser on to the authorize URL, once. */
export const START_PATH = '/start';

const SIGNED_IN: Page = { status: 200, title: 'Signed in', text: 'merch received the sign-in. Return to your terminal.' };
const NOT_OURS: Page = {
  status: 400,
  title: 'Sign-in ignored',
  text: 'This sign-in was not started by the merch login that is waiting (its state does not match), so merch ignored it and is still waiting for its own.',
};

/**
 * The authorization code flow with PKCE (S256) and a state check: tells the authorize URL
 * (one line), opens the browser, receives the code on the loopback callback and exchanges
 * it. A callback with another state is none of this login's: its browser gets an error page,
 * and the login waits on for its own. A denial or the end of `waitMs` ends with an error,
 * nothing exchanged.
 *
 * The browser's command line is readable by every local user (/proc/PID/cmdline), so the
 * browser is not given the authorize URL (its state and code challenge would let another
 * user sign this merch in to their own account): it is given `START_PATH?k=NONCE` on the
 * loopback server, which answers the first request with a redirect to the authorize URL.
 * A second request with the nonce means that someone else has it too: the login ends at
 * once, nothing stored, whichever of the two came first (docs/sign-in.md).
 */
export async function authorizeInBrowser(app: OAuthApp & { authorizeUrl: string }, options: WebLoginOptions): Promise<Tokens> {
  const verifier = generateRandomCodeVerifier();
  const state = generateRandomState();
  const nonce = randomBytes(12).toString('base64url');
  let authorizeUrl: string | undefined;
  let started = false;
  let stopSignIn!: (error: AuthError) => void;
  const linkReused = new Promise<never>((_, reject) => (stopSignIn = reject));
  linkReused.catch(() => undefined); // raced below; settled perhaps before
  const start = (url: URL): Page => {
    if (url.searchParams.get('k') !== nonce || authorizeUrl === undefined) return { status: 404, title: 'Not found', text: 'This is not the sign-in link of the merch login that is waiting.' };
    if (started) {
      options.tell('warning: the sign-in link was opened a second time: another program on this machine may have read it from the browser\'s command line');
      stopSignIn(new AuthError('the sign-in link was opened twice, so another program may have it: this sign-in is stopped, nothing stored', 'refused', undefined, { of: 'link-reused' }));
      return { status: 410, title: 'Sign-in link already used', text: 'This sign-in link was already used once, so merch stopped this sign-in and stored nothing. Run merch login --web again.' };
    }
    started = true;
    return { status: 302, title: 'Signing in', text: 'Continue to the sign-in page.', location: authorizeUrl };
  };
  const server = await startLoopbackServer<URLSearchParams>({
    port: options.callbackPort,
    notTheReturn: (method, url) => {
      if (method === 'GET' && url.pathname === START_PATH) return start(url);
      return method === 'GET' && url.pathname === '/callback' ? undefined : { status: 404, title: 'Not found', text: 'This is the sign-in callback of merch login.' };
    },
    alreadyReceived: 'merch has already received a sign-in. Return to your terminal.',
    handle(url): Answer<URLSearchParams> {
      // A response to a request this login did not make is nobody's, whatever it says.
      if (url.searchParams.get('state') !== state) {
        options.tell('warning: ignored a callback this login did not start (its state does not match); still waiting for the browser');
        return { page: NOT_OURS };
      }
      try {
        return { page: SIGNED_IN, outcome: { value: checkCallback(app, url.searchParams, state) } };
      } catch (error) {
        const text = `${error instanceof Error ? error.message : String(error)}. Return to your terminal.`;
        return { page: { status: 400, title: 'Sign-in failed', text }, outcome: { error } };
      }
    },
  });
  const redirectUri = `${server.origin}/callback`;
  try {
    const url = new URL(app.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', app.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', await calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    authorizeUrl = url.href;
    options.tell(`Open this URL in a browser to sign in: ${url.href}`);
    // The browser's argv holds a one-time link to this server, not the state or the challenge.
    await options.openBrowser?.(`${server.origin}${START_PATH}?k=${nonce}`);

    const callback = await within(Promise.race([server.result, linkReused]), options.waitMs, redirectUri);
    return await Promise.race([authorizationCodeGrant(app, callback, redirectUri, verifier), linkReused]);
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
          new AuthError(
            `the browser did not come back to ${redirectUri} within ${Math.round(waitMs / 1000)} s: nothing stored`,
            'no-return',
            undefined,
            { of: 'no-return', redirectUri },
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
