import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { textOnly } from '../text-only.js';
import type { NewCommand } from '../declaration.js';
import { declareLogin } from './declarations.js';

/**
 * Signing in and out (`merch login`, `merch logout`) and the state of the sign-in (`merch
 * auth ...`), as gh's auth commands; `merch auth login` and `merch auth logout` are the
 * same commands, where gh users look for them.
 */
export function registerAuth(program: MerchProgram): void {
  addLogin(program.command('login'));
  addLogout(program.command('logout'));

  const auth = program.command('auth').description('sign in and out, the state of the sign-in, and tokens');
  addLogin(auth.command('login'));
  addLogout(auth.command('logout'));
  auth
    .command('status')
    .description('who is signed in, the account, how, until when, and whether the token works (never a secret)')
    .addHelpText('after', examples('merch auth status', 'merch auth status --json'))
    .action(action(async (ctx) => (await import('./status.js')).run(ctx)));
  textOnly(auth.command('token'), 'the bare token, for $(merch auth token)')
    .description('print a valid access token (refreshed first if it expires within a minute)')
    .addHelpText('after', examples('curl -H "Authorization: Bearer $(merch auth token)" https://api.example.com/v1/orders/'))
    .action(action(async (ctx) => (await import('./token.js')).token(ctx)));
  textOnly(auth.command('refresh'), 'only a message on stderr')
    .description('get a new access token now with the stored refresh token')
    .addHelpText('after', examples('merch auth refresh', 'merch auth refresh --profile staging'))
    .action(action(async (ctx) => (await import('./token.js')).refresh(ctx)));
}

/** `merch login` and `merch auth login`: one declaration, one implementation. */
function addLogin(command: NewCommand): void {
  declareLogin(textOnly(command, 'only messages on stderr').description('sign in: with a developer app (password grant, or the browser), or store a token obtained elsewhere'))
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
}

/** `merch logout` and `merch auth logout`. */
function addLogout(command: NewCommand): void {
  textOnly(command, 'only a message on stderr')
    .description("revoke the profile's tokens (best effort) and forget them, from the keyring and the config file")
    .addHelpText('after', examples('merch logout', 'merch logout --profile staging'))
    .action(action(async (ctx) => (await import('./logout.js')).logout(ctx)));
}
