import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { DEFAULT_CALLBACK_PORT } from '../../auth/callback-port.js';
import { duration, fixedPort } from '../parse.js';
import { textOnly } from '../text-only.js';

export function registerSession(program: MerchProgram): void {
  textOnly(program.command('login'), 'only messages on stderr')
    .description('sign in: with a developer app (password grant, or the browser), or store a token obtained elsewhere')
    .option('--client-id <id>', "the developer app's client ID (its secret: MERCH_CLIENT_SECRET or a hidden prompt)")
    .option('--username <email>', "a private app: the user's email (password: --password-stdin, MERCH_PASSWORD or a hidden prompt)")
    .option('--password-stdin', 'read the password from standard input')
    .option('--web', 'a third-party app: sign in in the browser (authorization code with PKCE)')
    .option('--callback-port <port>', `with --web: the port of the callback http://127.0.0.1:PORT/callback registered with the app (default ${DEFAULT_CALLBACK_PORT})`, fixedPort)
    .option('--no-browser', 'with --web: only print the URL to open')
    .option('--timeout-wait <duration>', 'with --web: how long to wait for the browser (default 5m; a bare number is seconds)', duration({ bare: 's' }))
    .option('--with-token', 'store a token obtained elsewhere, read from standard input')
    .option('--token-url <url>', 'token endpoint (env MERCH_TOKEN_URL; default <base URL>/o/token/)')
    .option('--authorize-url <url>', 'authorize endpoint (env MERCH_AUTHORIZE_URL; default <base URL>/o/authorize/)')
    .option('--revoke-url <url>', 'revoke endpoint, used by logout (env MERCH_REVOKE_URL; default <base URL>/o/revoke_token/)')
    .addHelpText(
      'after',
      examples(
        'merch login                                   # on a terminal: asks which way',
        'MERCH_CLIENT_SECRET=... merch login --client-id ID --username you@example.com --base-url https://api.example.com',
        'printf %s "$PASSWORD" | merch login --client-id ID --username you@example.com --password-stdin',
        'MERCH_CLIENT_SECRET=... merch login --web --client-id ID --base-url https://api.example.com',
        'merch login --web --client-id ID --callback-port 9000 --no-browser',
        'echo "$TOKEN" | merch login --with-token --base-url https://api.example.com',
        'merch login --client-id sandbox-private-app --username buyer@example.com   # the sandbox (secret sandbox-private-secret)',
      ),
    )
    .action(action(async (ctx, options) => (await import('./login.js')).login(ctx, options)));

  textOnly(program.command('logout'), 'only a message on stderr')
    .description("revoke the profile's tokens (best effort) and forget them")
    .addHelpText('after', examples('merch logout', 'merch logout --profile staging'))
    .action(action(async (ctx) => (await import('./logout.js')).logout(ctx)));

  const auth = program.command('auth').description('authentication state and tokens');
  auth
    .command('status')
    .description('who is signed in, the account, how, until when, and whether the token works (never a secret)')
    .addHelpText('after', examples('merch auth status', 'merch auth status --json'))
    .action(action(async (ctx) => (await import('./auth-status.js')).run(ctx)));
  textOnly(auth.command('token'), 'the bare token, for $(merch auth token)')
    .description('print a valid access token (refreshed first if it expires within a minute)')
    .addHelpText('after', examples('curl -H "Authorization: Bearer $(merch auth token)" https://api.example.com/v1/orders/'))
    .action(action(async (ctx) => (await import('./auth-token.js')).token(ctx)));
  textOnly(auth.command('refresh'), 'only a message on stderr')
    .description('get a new access token now with the stored refresh token')
    .addHelpText('after', examples('merch auth refresh', 'merch auth refresh --profile staging'))
    .action(action(async (ctx) => (await import('./auth-token.js')).refresh(ctx)));

  const config = program.command('config').description('profile settings: base-url, account-id, design-tool-url, design-tool-key, token-url, authorize-url, revoke-url');
  config
    .command('list')
    .description("show the profile's settings (secrets only as set / not set)")
    .addHelpText('after', examples('merch config list', 'merch config list --profile staging --json'))
    .action(action(async (ctx) => (await import('./config.js')).list(ctx)));
  textOnly(config.command('get'), 'the bare value, for $(merch config get KEY)')
    .description('print one setting')
    .argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url or revoke-url')
    .addHelpText('after', examples('merch config get base-url'))
    .action(action(async (ctx, _options, [key]) => (await import('./config.js')).get(ctx, key!)));
  textOnly(config.command('set'), 'only a message on stderr')
    .description('change one setting (design-tool-key is read from stdin or a hidden prompt, never from the command line)')
    .argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url, revoke-url or design-tool-key')
    .argument('[value]', 'the new value')
    .addHelpText(
      'after',
      examples('merch config set base-url https://api.example.com', 'merch config set account-id 42', 'echo "$KEY" | merch config set design-tool-key'),
    )
    .action(action(async (ctx, _options, [key, value]) => (await import('./config.js')).set(ctx, key!, value)));
  textOnly(config.command('unset'), 'only a message on stderr')
    .description('remove one setting from the profile, so its default applies again')
    .argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url, revoke-url or design-tool-key')
    .addHelpText('after', examples('merch config unset design-tool-key', 'merch config unset base-url --profile staging'))
    .action(action(async (ctx, _options, [key]) => (await import('./config.js')).unset(ctx, key!)));
}
