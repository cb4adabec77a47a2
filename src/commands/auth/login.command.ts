import { DEFAULT_CALLBACK_PORT } from '../../auth/callback-port.js';
import { defineCommand } from '../define-command.js';
import { exclusive } from '../flag-rules.js';
import { duration, fixedPort } from '../parse.js';

/** A token from elsewhere is one way to sign in, a developer app the other (login.ts chooses the way; the flags of a way are checked there, as a prompt may choose it). */
const ONE_WAY = { message: '--with-token cannot be combined with a developer app (--client-id, --username, --web)' };

/** `merch login`, also `merch auth login`. */
export const loginCommand = defineCommand({
  name: 'login',
  description: 'sign in: with a developer app (password grant, or the browser), or store a token obtained elsewhere',
  textOnly: 'only messages on stderr',
  declare: (command) =>
    command
      .option('--client-id <id>', "the developer app's client ID (its secret: MERCH_CLIENT_SECRET or a hidden prompt)")
      .option('--username <email>', "a private app: the user's email (password: --password-stdin, MERCH_PASSWORD or a hidden prompt)")
      .option('--password-stdin', 'read the password from standard input')
      .option('--web', 'a third-party app: sign in in the browser (authorization code with PKCE)')
      .option('--callback-port <port>', `with --web: the port of the callback http://127.0.0.1:PORT/callback registered with the app (default: ${DEFAULT_CALLBACK_PORT})`, fixedPort)
      .option('--no-browser', 'with --web: only print the URL to open')
      .option('--timeout-wait <duration>', 'with --web: how long to wait for the browser; a bare number is seconds (default: 5m)', duration({ bare: 's' }))
      .option('--with-token', 'store a token obtained elsewhere, read from standard input')
      .option('--insecure-storage', 'keep the token in the config file (mode 0600) instead of the OS keyring')
      .option('--token-url <url>', 'token endpoint, env MERCH_TOKEN_URL (default: <base URL>/o/token/)')
      .option('--authorize-url <url>', 'authorize endpoint, env MERCH_AUTHORIZE_URL (default: <base URL>/o/authorize/)')
      .option('--revoke-url <url>', 'revoke endpoint, used by logout, env MERCH_REVOKE_URL (default: <base URL>/o/revoke_token/)'),
  rules: ['--web', '--client-id', '--username', '--password-stdin'].map((flag) => exclusive('--with-token', flag, ONE_WAY)),
  examples: [
    'merch login                                   # on a terminal: asks which way',
    'MERCH_CLIENT_SECRET=... merch login --client-id ID --username you@example.com --base-url https://api.example.com',
    'printf %s "$PASSWORD" | merch login --client-id ID --username you@example.com --password-stdin',
    'MERCH_CLIENT_SECRET=... merch login --web --client-id ID --base-url https://api.example.com',
    'merch login --web --client-id ID --callback-port 9000 --no-browser',
    'echo "$TOKEN" | merch login --with-token --base-url https://api.example.com',
    'merch login --client-id sandbox-private-app --username buyer@example.com   # the sandbox (secret sandbox-private-secret)',
  ],
  run: async (ctx, options): Promise<void> => (await import('./login.js')).login(options, ctx),
});
