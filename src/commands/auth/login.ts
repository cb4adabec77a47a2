import { join } from 'node:path';
import type { Context } from '../../context.js';
import { KEYRING_NAME } from '../../config/keyring.js';
import { CONFIG_FILE_NAME } from '../../config/paths.js';
import { readProfile } from '../../config/store.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { DEFAULT_CALLBACK_PORT } from '../../auth/callback-port.js';
import { oauthEndpoints, type Endpoints } from '../../auth/endpoints.js';
import type { Obtained } from '../../auth/login.js';
import type { OAuthApp } from '../../auth/oauth-app.js';
import { ListenError, LOOPBACK_HOST } from '../../lib/loopback-server.js';
import { openBrowser } from '../../lib/open-browser.js';
import { singleLine } from '../../output/sanitize.js';
import { readSecret, secretFrom } from '../read-secret.js';

/** The flags of `merch login`. */
export interface LoginOptions {
  clientId: string | undefined;
  username: string | undefined;
  passwordStdin: true | undefined;
  web: true | undefined;
  callbackPort: number | undefined;
  /** `--no-browser`: false. */
  browser: boolean;
  timeoutWait: number | undefined;
  withToken: true | undefined;
  insecureStorage: true | undefined;
  tokenUrl: string | undefined;
  authorizeUrl: string | undefined;
  revokeUrl: string | undefined;
}

/** What `merch login` uses of the run: it asks, reads secrets, and proves the token it obtains with a client of its own. */
export type LoginRun = Pick<Context, 'io' | 'env' | 'prompter' | 'secrets' | 'settings' | 'trace' | 'apiWithToken'>;

type Way = 'password' | 'web' | 'token';

const DEFAULT_WAIT_MS = 5 * 60_000;

/**
 * `merch login`: a developer app's password grant (--client-id --username), the browser
 * (--web --client-id), or a token from elsewhere (--with-token). On a terminal with none of
 * them, asks which way; off a terminal, a missing piece is a usage error naming the flag or
 * variable. Everything is checked before anything is sent.
 */
export async function login(options: LoginOptions, ctx: LoginRun): Promise<void> {
  const way = await chooseWay(ctx, options);
  checkFlagsOfWay(way, options);
  if (way === 'token') {
    const token = await readSecret(ctx, 'token', options.withToken ?? false, 'pipe the token with --with-token');
    await complete(ctx, options, { method: 'token', accessToken: token });
    return;
  }

  const endpoints = oauthEndpoints(options, ctx.env, readProfile(ctx.settings.configDir, ctx.settings.profile), ctx.settings.baseUrl, ctx.settings.profile);
  const clientId = options.clientId ?? (await ask(ctx, 'Client ID of the developer app', '--client-id'));
  if (way === 'password') {
    const username = options.username ?? (await ask(ctx, 'Email', '--username'));
    const clientSecret = await clientSecretOf(ctx);
    const password = await secretFrom(ctx, { label: 'password', stdin: options.passwordStdin ?? false, env: 'MERCH_PASSWORD', hint: 'pass it on standard input with --password-stdin, or set MERCH_PASSWORD' });
    const app = oauthApp(ctx, clientId, clientSecret, endpoints);
    const { passwordGrant } = await import('../../auth/oauth-client.js');
    const tokens = await passwordGrant(app, username, password);
    await complete(ctx, options, { method: 'password', ...tokens, app: { ...app, clientAuth: tokens.clientAuth } });
    return;
  }

  const clientSecret = await clientSecretOf(ctx);
  const app = oauthApp(ctx, clientId, clientSecret, endpoints);
  const { authorizeInBrowser } = await import('../../auth/web-login.js');
  const callbackPort = options.callbackPort ?? DEFAULT_CALLBACK_PORT;
  const tokens = await authorizeInBrowser(app, {
    callbackPort,
    waitMs: options.timeoutWait ?? DEFAULT_WAIT_MS,
    tell: (line) => ctx.io.err(line),
    openBrowser: options.browser ? (url) => openBrowser(ctx, url) : undefined,
  }).catch((error: unknown) => {
    if (!(error instanceof ListenError)) throw error;
    throw error.inUse
      ? new UsageError(`--callback-port ${callbackPort}: the port is in use on ${LOOPBACK_HOST}`, 'stop what uses it, or pick another port registered with the app')
      : new CliError(`could not start the sign-in callback: ${error.message}`, ExitCode.failed);
  });
  await complete(ctx, options, { method: 'web', ...tokens, app: { ...app, clientAuth: tokens.clientAuth } });
}

/**
 * Proves the token with the service, stores the sign-in (the secrets in the OS keyring, or
 * in the file: with --insecure-storage, or where no keyring answers, said on stderr), and
 * says who is signed in.
 */
async function complete(ctx: LoginRun, options: LoginOptions, obtained: Obtained): Promise<void> {
  const { completeLogin } = await import('../../auth/login.js');
  const { settings } = ctx;
  const { me, stored } = await completeLogin(ctx.apiWithToken(obtained.accessToken), settings, obtained, options.insecureStorage ? 'file' : 'keyring');
  const file = join(settings.configDir, CONFIG_FILE_NAME);
  if (stored.fallback) ctx.io.err(`${stored.fallback}; the token is stored in ${file}, readable by you only`);
  // The service's own strings, on one line each and without escape sequences.
  const [email, account, id] = [me.user.email, me.account.name, me.account.id].map(singleLine);
  const where = stored.storage === 'keyring' ? `the token in the OS keyring (${KEYRING_NAME}), the rest in ${file}` : `${file}, mode 0600`;
  ctx.io.err(`Logged in to ${settings.baseUrl} as ${email}, account ${account} (${id}).\nStored in profile ${settings.profile} (${where}).`);
}

async function chooseWay(ctx: LoginRun, options: LoginOptions): Promise<Way> {
  // --with-token and a developer app's flags exclude each other (login.command.ts).
  if (options.withToken) return 'token';
  if (options.web) return 'web';
  if (options.clientId !== undefined || options.username !== undefined || options.passwordStdin) return 'password';
  return ctx.prompter.select<Way>(
    {
      message: 'How do you want to sign in?',
      choices: [
        { name: 'Private app: client ID and secret, your email and password', value: 'password', short: 'private app' },
        { name: 'Third-party app: client ID and secret, sign in in the browser', value: 'web', short: 'in the browser' },
        { name: 'Paste an access token obtained elsewhere', value: 'token', short: 'a token' },
      ],
    },
    {
      message: 'how to sign in? pass --client-id ID --username EMAIL (private app), --web --client-id ID (third-party app), or --with-token',
      hint: 'merch login --help shows each way',
    },
  );
}

/** Flags that belong to another way are a usage error, not silently ignored. */
function checkFlagsOfWay(way: Way, options: LoginOptions): void {
  if (way !== 'web') {
    if (options.callbackPort !== undefined) throw new UsageError('--callback-port only applies with --web');
    if (!options.browser) throw new UsageError('--no-browser only applies with --web');
    if (options.timeoutWait !== undefined) throw new UsageError('--timeout-wait only applies with --web');
    if (options.authorizeUrl !== undefined) throw new UsageError('--authorize-url only applies with --web');
  }
  if (way !== 'password' && options.username !== undefined) throw new UsageError('--username only applies to a private app (without --web)');
  if (way !== 'password' && options.passwordStdin) throw new UsageError('--password-stdin only applies to a private app (without --web)');
  if (way === 'token' && (options.tokenUrl !== undefined || options.revokeUrl !== undefined)) {
    throw new UsageError('--token-url and --revoke-url apply to a developer app, not to --with-token');
  }
}

function clientSecretOf(ctx: LoginRun): Promise<string> {
  return secretFrom(ctx, { label: 'client secret', stdin: false, env: 'MERCH_CLIENT_SECRET', hint: 'set MERCH_CLIENT_SECRET (a secret is never taken from the command line)' });
}

function oauthApp(ctx: LoginRun, clientId: string, clientSecret: string, endpoints: Endpoints): OAuthApp & Endpoints {
  const { settings } = ctx;
  return { clientId, clientSecret, ...endpoints, insecure: settings.insecure, timeoutMs: settings.timeoutMs, trace: ctx.trace, proxy: settings.proxy };
}

/** A plain value asked on a terminal; off one, a usage error naming the flag. */
async function ask(ctx: LoginRun, label: string, flag: string): Promise<string> {
  const value = await ctx.prompter.input({ message: `${label}:`, validate: (text) => (text.trim() === '' ? 'required' : true) }, { message: `missing ${flag}`, hint: 'merch login --help shows each way' });
  return value.trim();
}
