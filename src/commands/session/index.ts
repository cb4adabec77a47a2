import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import type { LoginOptions } from './login.js';

export function registerSession(program: MerchProgram): void {
  program
    .command('login')
    .description('store a token for the profile, after checking it with the service')
    .option('--with-token', 'read the token from standard input')
    .addHelpText(
      'after',
      examples(
        'merch login --base-url https://api.example.com',
        'echo "$TOKEN" | merch login --with-token --base-url https://api.example.com',
        'merch login --profile staging --base-url https://staging.example.com --account-id 42',
      ),
    )
    .action(action(async (ctx, options) => (await import('./login.js')).login(ctx, options)));

  program
    .command('logout')
    .description("forget the profile's token")
    .addHelpText('after', examples('merch logout', 'merch logout --profile staging'))
    .action(action(async (ctx) => (await import('./login.js')).logout(ctx)));

  program
    .command('auth')
    .description('authentication state')
    .command('status')
    .description('which profile, base URL and account are in use, and whether the token works (never the token)')
    .addHelpText('after', examples('merch auth status', 'merch auth status --json'))
    .action(action(async (ctx) => (await import('./auth-status.js')).run(ctx)));

  const config = program.command('config').description('profile settings: base-url, account-id, design-tool-url, design-tool-key');
  config
    .command('list')
    .description("show the profile's settings (secrets only as set / not set)")
    .addHelpText('after', examples('merch config list', 'merch config list --profile staging --json'))
    .action(action(async (ctx) => (await import('./config.js')).list(ctx)));
  config
    .command('get')
    .description('print one setting')
    .argument('<key>', 'base-url, account-id or design-tool-url')
    .addHelpText('after', examples('merch config get base-url'))
    .action(action(async (ctx, _options, [key]) => (await import('./config.js')).get(ctx, key!)));
  config
    .command('set')
    .description('change one setting (design-tool-key is read from stdin or a hidden prompt, never from the command line)')
    .argument('<key>', 'base-url, account-id, design-tool-url or design-tool-key')
    .argument('[value]', 'the new value')
    .addHelpText(
      'after',
      examples('merch config set base-url https://api.example.com', 'merch config set account-id 42', 'echo "$KEY" | merch config set design-tool-key'),
    )
    .action(action(async (ctx, _options, [key, value]) => (await import('./config.js')).set(ctx, key!, value)));
}
