import type { MerchProgram } from '../program.js';
import { action, examples } from '../action.js';
import { textOnly } from '../text-only.js';

/** `merch config list|get|set|unset`: the settings stored in a profile. */
export function registerConfig(program: MerchProgram): void {
  const config = program.command('config').description('profile settings: base-url, account-id, design-tool-url, design-tool-key, token-url, authorize-url, revoke-url');
  config
    .command('list')
    .description("show the profile's settings (secrets only as set / not set)")
    .addHelpText('after', examples('merch config list', 'merch config list --profile staging --json'))
    .action(action(async (ctx) => (await import('./profile-settings.js')).list(ctx)));
  textOnly(config.command('get'), 'the bare value, for $(merch config get KEY)')
    .description('print one setting')
    .argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url or revoke-url')
    .addHelpText('after', examples('merch config get base-url'))
    .action(action(async (ctx, _options, [key]) => (await import('./profile-settings.js')).get(ctx, key)));
  textOnly(config.command('set'), 'only a message on stderr')
    .description('change one setting (design-tool-key is read from stdin or a hidden prompt, never from the command line)')
    .argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url, revoke-url or design-tool-key')
    .argument('[value]', 'the new value')
    .addHelpText(
      'after',
      examples('merch config set base-url https://api.example.com', 'merch config set account-id 42', 'echo "$KEY" | merch config set design-tool-key'),
    )
    .action(action(async (ctx, _options, [key, value]) => (await import('./profile-settings.js')).set(ctx, key, value)));
  textOnly(config.command('unset'), 'only a message on stderr')
    .description('remove one setting from the profile, so its default applies again')
    .argument('<key>', 'base-url, account-id, design-tool-url, token-url, authorize-url, revoke-url or design-tool-key')
    .addHelpText('after', examples('merch config unset design-tool-key', 'merch config unset base-url --profile staging'))
    .action(action(async (ctx, _options, [key]) => (await import('./profile-settings.js')).unset(ctx, key)));
}
